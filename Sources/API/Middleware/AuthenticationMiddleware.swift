import Foundation
import Hummingbird
import Services

/// Resolves `Authorization: Bearer <token>` to a trainer with one indexed read (the token's SHA-256 is the
/// session's primary key). No password hashing or key derivation happens per request.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let sessions: Sessions

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], let token = Self.bearerToken(in: header) else { throw Problem.unauthenticated }
        guard let (principal, digest) = try await sessions.principal(bearing: token, naming: Self.namedClient(context)) else {
            throw Problem.unauthenticated
        }
        var context = context
        context.principal = principal
        context.tokenDigest = digest
        // Formatted only if a line is written.
        context.logger[metadataKey: "trainer.id"] = .stringConvertible(principal.trainer.id)
        return try await next(request, context)
    }

    /// The client a `/v1/clients/{id}…` route is about: its stamps come with the session's read.
    static func namedClient(_ context: Context) -> UUID? {
        guard context.endpointPath?.hasPrefix("/v1/clients/{id}") == true else { return nil }
        return context.parameters.get("id").flatMap(UUID.init(hyphenatedHex:))
    }

    /// The token of `Bearer <token>` (the scheme in any case, blanks around the token ignored), or nil. Read as
    /// bytes: it runs on every request.
    static func bearerToken(in header: String) -> String? {
        let bytes = header.utf8
        let scheme = "bearer ".utf8
        guard bytes.count > scheme.count, zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 }) else { return nil }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.dropFirst(scheme.count).firstIndex(where: { !isBlank($0) }),
            let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(header[first...last])
    }
}
