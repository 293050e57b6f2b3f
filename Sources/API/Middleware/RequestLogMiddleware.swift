import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id (the caller's `X-Request-Id` when it is sane, else Hummingbird's), puts it in every
/// log line and in the response, and writes one access-log line per request. Logs method, path and status only:
/// never headers, query values or bodies, which may hold tokens, passwords or health data.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    static var requestIDField: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let incoming = request.headers[Self.requestIDField], Self.isSane(incoming) {
            context.logger[metadataKey: "hb.request.id"] = .string(incoming)
        }
        let id = context.id
        let started = ContinuousClock.now
        var response = try await next(request, context)
        response.headers[Self.requestIDField] = id
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        let elapsed = ContinuousClock.now - started
        context.logger.info(
            "\(request.method) \(request.uri.path) \(response.status.code)",
            metadata: [
                "ms": .string(String(format: "%.1f", Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15))
            ]
        )
        return response
    }

    /// Short, printable, no spaces: safe to echo into a header and a log line.
    static func isSane(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count) && id.utf8.allSatisfy { (0x21...0x7e).contains($0) }
    }
}
