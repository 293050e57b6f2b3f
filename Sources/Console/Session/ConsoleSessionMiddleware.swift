import Foundation
import HTTPTypes
import Hummingbird
import Services

/// Finds who is signed in from the session cookie (one indexed read, as the API's bearer token), keeping the
/// session alive while it is used; a dead session's cookie is cleared.
struct ConsoleSessionMiddleware: RouterMiddleware {
    typealias Context = ConsoleRequestContext
    let sessions: Sessions
    let cookies: SessionCookies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        var clearCookie = false
        if let token = request.cookies[SessionCookies.sessionName]?.value, !token.isEmpty {
            if let (principal, digest) = try await sessions.principal(bearing: token, sliding: true) {
                context.principal = principal
                context.session = ConsoleSession(token: token, tokenDigest: digest)
                context.logger[metadataKey: "trainer.id"] = .stringConvertible(principal.trainer.id)
            } else {
                clearCookie = true
            }
        }
        guard clearCookie else { return try await next(request, context) }
        do {
            var response = try await next(request, context)
            response.setCookie(cookies.cleared(request))
            return response
        } catch var redirect as ConsoleRedirect {
            redirect.cookies.append(cookies.cleared(request))
            throw redirect
        }
    }
}

/// Every request behind sign-in but GET and HEAD must carry the session's CSRF token: in the form's `csrf` field,
/// in `X-CSRF-Token` (uploads sent by script) or in the URL's `csrf` (uploads sent by a plain form, whose file
/// streams and is not read first). Without it, or from another origin: 403, and nothing changes. A form's body is
/// read here, once, and handed on in the context.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = ConsoleRequestContext

    /// A form body at most (a screening's answers, a client's notes); uploads stream on their own routes.
    static let maximumFormBytes = 256 << 10

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get && request.method != .head else { return try await next(request, context) }
        guard let session = context.session else { throw ConsoleRedirect.toSignIn(next: nil) }
        try SameOrigin.check(request)
        var context = context
        var request = request
        var sent = request.headers[SessionCookies.csrfHeader] ?? request.uri.queryParameters["csrf"].map(String.init)
        if request.headers[.contentType].map(FormFields.isFormType) == true {
            let body = try await request.collectBody(upTo: Self.maximumFormBytes)
            let form = FormFields(urlEncoded: body.readableBytesView)
            sent = sent ?? form["csrf"]
            context.form = form
        }
        guard session.accepts(csrf: sent) else { throw ConsoleRefusal.csrf }
        return try await next(request, context)
    }
}

/// Refusals the console answers with a page of their own.
enum ConsoleRefusal: Error {
    /// A state-changing request without its session's CSRF token, or from another origin.
    case csrf
}

/// A request that says it comes from another origin (`Origin`, which browsers send with every POST) is refused
/// whatever token it carries.
enum SameOrigin {
    static func check(_ request: Request) throws {
        guard let origin = request.headers[.origin], origin != "null" else { return }
        guard let host = request.head.authority,
            let originHost = URLComponents(string: origin).map({ components in
                (components.host ?? "") + (components.port.map { ":\($0)" } ?? "")
            }),
            originHost.lowercased() == host.lowercased()
        else { throw ConsoleRefusal.csrf }
    }
}
