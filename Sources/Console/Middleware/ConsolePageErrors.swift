import API
import HTTPTypes
import Hummingbird
import Logging

/// Turns what a page's handling threw into a page: a redirect into a 303, a refusal into a page that says why
/// with its status (another company's client is a 404 page, as a missing one), anything unexpected into a 500
/// page that names the request id and reveals nothing else.
struct ConsolePageErrors: RouterMiddleware {
    typealias Context = ConsoleRequestContext
    let pages: PageRenderer

    struct ErrorPage {
        var status: Int
        var heading: String
        var detail: String
        var fields: [FieldLine]
    }

    struct FieldLine {
        var field: String
        var message: String
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let redirect as ConsoleRedirect {
            var redirect = redirect
            if redirect.location == "/sign-in", request.method == .get {
                redirect = ConsoleRedirect(location: ConsoleRedirect.toSignIn(next: request.uri.description).location, cookies: redirect.cookies)
            }
            return redirect.response
        } catch ConsoleRefusal.csrf {
            return try page(.forbidden, "errors.csrf", nil, context: context, request: request)
        } catch let error as any ProblemConvertible {
            let problem = error.problem
            return try page(problem.status, Self.key(problem.status), problem, context: context, request: request)
        } catch let problem as Problem {
            return try page(problem.status, Self.key(problem.status), problem, context: context, request: request)
        } catch let error as any HTTPResponseError {
            return try page(error.status, Self.key(error.status), nil, context: context, request: request)
        } catch {
            context.logger.error("console page failed", metadata: ["error": "\(String(reflecting: error))"])
            return try page(.internalServerError, "errors.internal", nil, context: context, request: request)
        }
    }

    static func key(_ status: HTTPResponse.Status) -> String {
        switch status.code {
        case 404: "errors.notFound"
        case 403: "errors.forbidden"
        case 409: "errors.conflict"
        case 413: "errors.tooLarge"
        case 429: "errors.limited"
        case 400..<500: "errors.invalid"
        default: "errors.internal"
        }
    }

    private func page(_ status: HTTPResponse.Status, _ key: String, _ problem: Problem?, context: Context, request: Request) throws -> Response {
        let language = context.language(request)
        let strings = pages.strings(language)
        // The use case's words in the reader's language; a refusal of fields lists them, each with its reason.
        let fields = strings.refusals(problem?.errors ?? [])
        let detail =
            if status.code >= 500 {
                strings.text(key + ".detail", ["id": context.id])
            } else if let problem, fields.isEmpty {
                strings.refusal(problem.detail)
            } else {
                strings.text(key + ".detail")
            }
        let content = ErrorPage(
            status: status.code,
            heading: strings.text(key + ".title"),
            detail: detail,
            fields: fields.map { FieldLine(field: $0.field, message: $0.message) }
        )
        let frame = context.frame(title: content.heading, language: language)
        var response = try pages.page("error", content, frame: frame, status: status)
        if let problem { for field in problem.headers where field.name == .retryAfter { response.headers.append(field) } }
        return response
    }
}
