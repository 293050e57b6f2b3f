import Foundation
import HealthwheelCore
import Hummingbird
import Reports
import Services

/// The frame of a signed-in page: the reader's language (`Accept-Language`, else the company theme's), the
/// company's theme (its stylesheet and units), who is signed in and the CSRF token. The theme comes from memory
/// while the version the session's read found is current.
struct Frames: Sendable {
    let pages: PageRenderer
    let themes: CompanyThemes
    /// The session cookie, for the pages that end a session (a password change).
    let cookies: SessionCookies

    /// What a page's handler needs besides its content.
    struct Framed {
        var frame: PageFrame
        var strings: ConsoleStrings
        var theme: CompanyThemes.Current
        /// Dates, scores and measurements in the reader's language and the company's units, as reports write them.
        var format: ReportFormat
    }

    func frame(_ request: Request, _ context: SignedInContext, title: String, section: String) async throws -> Framed {
        let theme = try await themes.current(for: context.company, freshness: context.principal.freshness)
        let language = ConsoleStrings.language(accepting: request.headers[.acceptLanguage], fallback: theme.theme.locale)
        let strings = pages.strings(language)
        let trainer = context.principal.trainer
        var frame = PageFrame(
            language: language,
            title: strings.text(title),
            trainer: .init(name: trainer.name, company: context.principal.company.name, isAdmin: trainer.role == .admin),
            csrf: context.session.csrfToken,
            themeStylesheet: "/theme.css?v=\(theme.version)-\(context.principal.freshness.catalogVersion ?? 0)",
            current: [section: true]
        )
        if let notice = request.uri.queryParameters["notice"].map(String.init), Notice.keys.contains(notice) {
            frame.notice = strings.text("notices.\(notice)")
        }
        return Framed(frame: frame, strings: strings, theme: theme, format: pages.format(language, theme.theme.units))
    }

    /// The company's units (its theme's), for a form read back before any page is framed.
    func units(_ context: SignedInContext) async throws -> Theme.Units {
        try await themes.current(for: context.company, freshness: context.principal.freshness).theme.units
    }

    /// Renders `template` in `framed`'s frame, kept under `inputs` (see `PageRenderer.page(_:frame:inputs:content:)`).
    func page<Content>(_ template: String, _ framed: Framed, inputs: String, content: () async throws -> Content) async throws -> Response {
        try await pages.page(template, frame: framed.frame, inputs: inputs, content: content)
    }

    /// Renders `template` with `content` in `framed`'s frame.
    func page(_ template: String, _ content: some Any, _ framed: Framed, status: HTTPResponse.Status = .ok) throws -> Response {
        try pages.page(template, content, frame: framed.frame, status: status)
    }
}

/// The one-line messages a page shows after a redirect (`?notice=`): only these keys, so a link cannot put words
/// of its own on a page.
enum Notice {
    static let keys: Set<String> = [
        "signedOut", "clientCreated", "clientSaved", "clientDeleted", "screeningSaved", "screeningCompleted", "resultSaved",
        "resultCorrected", "resultDeleted", "captionSaved", "reportSent", "trainerAdded", "trainerSaved", "trainerRemoved",
        "themeSaved", "logoSaved", "packImported", "settingsSaved", "clientErased", "passwordChanged", "photoSaved",
        "webhookSaved", "webhookDeleted", "deliveryReplayed",
    ]

    /// `path` with `?notice=key` (or `&notice=` when it has a query already).
    static func redirect(_ path: String, _ key: String) -> ConsoleRedirect {
        ConsoleRedirect(location: path + (path.contains("?") ? "&" : "?") + "notice=" + key)
    }
}
