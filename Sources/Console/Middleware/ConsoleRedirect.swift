import Foundation
import Hummingbird

/// A redirect thrown from anywhere in a page's handling (Post/Redirect/Get, sign-in needed), answered with 303.
struct ConsoleRedirect: Error {
    /// A path on this server (never another origin).
    let location: String
    /// A cookie the redirect sets or clears (the session's, at sign-in and sign-out).
    var cookies: [Cookie] = []

    /// To the sign-in page, coming back to `next` (a path on this server) after signing in.
    static func toSignIn(next: String?) -> ConsoleRedirect {
        guard let next, let safe = SafePath(next) else { return ConsoleRedirect(location: "/sign-in") }
        return ConsoleRedirect(location: "/sign-in?next=" + (safe.path.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? "/"))
    }

    var response: Response {
        var response = Response(status: .seeOther, headers: [.location: location])
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }
}

/// A path to come back to after signing in: on this server only (`/clients`, not `//evil.example` or
/// `https://…`), so the sign-in page cannot be used to send someone elsewhere.
struct SafePath {
    let path: String

    init?(_ text: String) {
        guard text.hasPrefix("/"), !text.hasPrefix("//"), !text.hasPrefix("/\\"), text.utf8.count <= 2048,
            text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" })
        else { return nil }
        path = text
    }
}

extension CharacterSet {
    /// What may stand unescaped in a query value: `&`, `=`, `+`, `#` and `?` are escaped.
    static let urlQueryValueAllowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "&=+#?")
        return set
    }()
}
