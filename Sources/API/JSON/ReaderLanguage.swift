import Hummingbird
import Reports

extension Request {
    /// The language the reader asked for: `?lang=` (checked by the use case, which refuses one the server does not
    /// write), else the first language of `Accept-Language` that reports are written in, else nil (the company
    /// theme's).
    var readerLanguage: String? {
        uri.parameter("lang", blankIsAbsent: false) ?? Self.language(headers[.acceptLanguage])
    }

    /// The first language of `Accept-Language` that reports are written in (`es-MX;q=0.9` counts as `es`): the
    /// API's reports and the web console's pages alike.
    public static func language(_ header: String?) -> String? {
        header?.split(separator: ",").lazy
            .compactMap { $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() }
            .map { String($0.prefix { $0 != "-" }) }
            .first { ReportStrings.languages.contains($0) }
    }
}

extension Response {
    /// The response, saying which language its texts are in (`Content-Language`), so a cache keeps one per language.
    func speaking(_ language: String) -> Response {
        var response = self
        response.headers[.contentLanguage] = language
        response.headers[.vary] = "Accept-Language"
        return response
    }
}
