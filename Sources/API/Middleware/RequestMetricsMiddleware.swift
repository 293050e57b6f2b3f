import Dispatch
import HTTPTypes
import Hummingbird
import Metrics
import Synchronization

/// Counts and times every request under the names Hummingbird's `MetricsMiddleware` uses (`hb.requests`,
/// `hb.request.errors`, `http.server.request.duration`, `http.server.active_requests`), so dashboards see the
/// same series, but leaves the response body as the handler made it.
///
/// Hummingbird's middleware wraps every body in a closure to stop its timer after the last byte. A wrapped
/// body loses the server's one-write path: the head, the body and the end each crossed to the event loop and
/// became a write of their own, about a tenth of a small request's CPU time. Here the timer stops when the
/// handler has answered; for a streamed download that is its first byte, not its last.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let metrics = EndpointMetrics()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        let active = metrics.active(request.method)
        active.increment()
        defer { active.decrement() }
        let status: HTTPResponse.Status
        do {
            let response = try await next(request, context)
            status = response.status
            metrics.endpoint(context.endpointPath ?? "Unknown", request.method, status).record(since: started)
            return response
        } catch {
            status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let endpoint = metrics.endpoint(context.endpointPath ?? "NotFound", request.method, status)
            endpoint.errors.increment()
            endpoint.record(since: started)
            throw error
        }
    }
}

/// The metric objects of each endpoint, method and status, made once: the factory's lookup by label and
/// dimensions is far slower than a dictionary of our own.
private final class EndpointMetrics: Sendable {
    struct Endpoint: Sendable {
        let requests: Counter
        let errors: Counter
        let duration: Timer

        func record(since started: UInt64) {
            requests.increment()
            duration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - started))
        }
    }

    private struct Key: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: Int
    }

    private let endpoints = Mutex<[Key: Endpoint]>([:])
    private let activeByMethod = Mutex<[HTTPRequest.Method: Meter]>([:])

    func active(_ method: HTTPRequest.Method) -> Meter {
        activeByMethod.withLock { meters in
            if let meter = meters[method] { return meter }
            let meter = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
            meters[method] = meter
            return meter
        }
    }

    func endpoint(_ route: String, _ method: HTTPRequest.Method, _ status: HTTPResponse.Status) -> Endpoint {
        let key = Key(route: route, method: method, status: status.code)
        return endpoints.withLock { endpoints in
            if let endpoint = endpoints[key] { return endpoint }
            let dimensions = [("http.route", route), ("http.request.method", method.rawValue), ("http.response.status_code", "\(status.code)")]
            let endpoint = Endpoint(
                requests: Counter(label: "hb.requests", dimensions: dimensions),
                errors: Counter(
                    label: "hb.request.errors",
                    dimensions: [("http.route", route), ("http.request.method", method.rawValue), ("error.type", "\(status.code)")]
                ),
                duration: Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds)
            )
            endpoints[key] = endpoint
            return endpoint
        }
    }
}
