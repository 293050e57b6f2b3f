import Hummingbird
import Services

/// Resolves `Authorization: Bearer <token>` to a trainer with one indexed read (the token's SHA-256 is the
/// session's primary key). No password hashing or key derivation happens per request.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let sessions: Sessions

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.count > 7,
            header.prefix(7).lowercased() == "bearer "
        else { throw Problem.unauthenticated }
        var token = header.dropFirst(7)
        while token.first == " " || token.first == "\t" { token.removeFirst() }
        while token.last == " " || token.last == "\t" { token.removeLast() }
        guard let (principal, digest) = try await sessions.principal(bearing: String(token)) else { throw Problem.unauthenticated }
        var context = context
        context.principal = principal
        context.tokenDigest = digest
        // Formatted only if a line is written.
        context.logger[metadataKey: "trainer.id"] = .stringConvertible(principal.trainer.id)
        return try await next(request, context)
    }
}
