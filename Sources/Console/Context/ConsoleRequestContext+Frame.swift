import Hummingbird

extension ConsoleRequestContext {
    /// The reader's language before anyone is known: `Accept-Language`, else English.
    func language(_ request: Request) -> String {
        ConsoleStrings.language(accepting: request.headers[.acceptLanguage], fallback: nil)
    }

    /// The frame of a page shown to whoever is (or is not) signed in, without the company's theme.
    func frame(title: String, language: String) -> PageFrame {
        PageFrame(
            language: language,
            title: title,
            trainer: principal.map {
                PageFrame.SignedInTrainer(name: $0.trainer.name, company: $0.company.name, isAdmin: $0.trainer.role == .admin)
            },
            csrf: session?.csrfToken ?? ""
        )
    }
}
