import HTTPTypes
import Hummingbird
import Logging
import NIOHTTP1

/// Turns every error into a problem+json response, so clients see one error shape whatever failed.
/// Unexpected errors become a 500 that reveals nothing but the request id; the details go to the log.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return try problem.response(from: request, context: context)
        } catch let error as any ProblemConvertible {
            return try error.problem.response(from: request, context: context)
        } catch let error as HTTPError {
            let problem = Problem(error.status, slug: Self.slug(error.status), detail: error.body ?? Self.detail(error.status))
            return try problem.response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            let problem = Problem(error.status, slug: Self.slug(error.status), detail: Self.detail(error.status))
            return try problem.response(from: request, context: context)
        } catch let error as HTTPParserError {
            // A body that breaks HTTP/1.1 framing (a chunk size of `zz`, 20 digits or `-1`, a missing CRLF) is the
            // client's mistake, met while the handler reads the body: a 400, not a server failure.
            return try Problem.malformed("the request is not valid HTTP/1.1: \(error)").response(from: request, context: context)
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            let problem = Problem(
                .internalServerError,
                slug: "internal",
                detail: "the server failed to handle this request; quote request id \(context.id) when reporting it"
            )
            return try problem.response(from: request, context: context)
        }
    }

    static func slug(_ status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "not-found"
        case .methodNotAllowed: "method-not-allowed"
        case .contentTooLarge: "too-large"
        case .badRequest: "malformed"
        default: "http-\(status.code)"
        }
    }

    static func detail(_ status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "no such route"
        case .contentTooLarge: "the request body is too large"
        default: status.reasonPhrase
        }
    }
}
