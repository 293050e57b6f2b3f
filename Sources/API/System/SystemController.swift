import Hummingbird
import NIOCore
import Prometheus

/// Unauthenticated operational routes: liveness, metrics, and the API contract.
struct SystemController {
    let metrics: PrometheusCollectorRegistry
    let openAPIDocument: OpenAPIDocument

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("health", use: health)
        router.get("metrics", use: prometheus)
        router.get("openapi.yaml", use: openAPI)
    }

    struct Health: Encodable {
        var status = "ok"
    }

    /// Liveness only: answers while the process can serve HTTP. It does not touch the database, so a
    /// load balancer polling it costs nothing.
    @Sendable func health(request: Request, context: AppRequestContext) async throws -> Response {
        try .json(Health())
    }

    @Sendable func prometheus(request: Request, context: AppRequestContext) async throws -> Response {
        var text: [UInt8] = []
        metrics.emit(into: &text)
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: text))
        )
    }

    @Sendable func openAPI(request: Request, context: AppRequestContext) async throws -> Response {
        Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: openAPIDocument.rendered()))
    }
}
