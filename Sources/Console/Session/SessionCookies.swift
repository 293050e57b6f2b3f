import Foundation
import HTTPTypes
import Hummingbird

/// The console's cookies: the session's (HttpOnly, SameSite=Lax, Path=/, Secure over TLS) and the sign-in form's
/// CSRF cookie (its token is sent twice, in the cookie and the form, since there is no session yet).
struct SessionCookies: Sendable {
    static let sessionName = "hw_session"
    static let signInName = "hw_signin"
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    let configuration: ConsoleConfiguration

    /// Secure when the console's address is https, or the request came over TLS to a proxy that says so.
    func secure(_ request: Request) -> Bool {
        if configuration.alwaysSecure { return true }
        if let proto = request.headers[HTTPField.Name("X-Forwarded-Proto")!], proto.lowercased() == "https" { return true }
        return request.head.scheme?.lowercased() == "https"
    }

    /// No Max-Age: the browser forgets it when it closes; the server ends it after idle time anyway.
    func session(_ token: String, _ request: Request) -> Cookie {
        Cookie(name: Self.sessionName, value: token, path: "/", secure: secure(request), httpOnly: true, sameSite: .lax)
    }

    func cleared(_ request: Request) -> Cookie {
        Cookie(
            name: Self.sessionName,
            value: "",
            expires: Date(timeIntervalSince1970: 0),
            maxAge: 0,
            path: "/",
            secure: secure(request),
            httpOnly: true,
            sameSite: .lax
        )
    }

    func signIn(_ token: String, _ request: Request) -> Cookie {
        Cookie(name: Self.signInName, value: token, maxAge: 3600, path: "/sign-in", secure: secure(request), httpOnly: true, sameSite: .strict)
    }
}
