import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import Services
import StoreContract

/// `/v1/webhooks`: a company's admins register HTTPS endpoints for events, and follow what was delivered to them.
/// The secret that signs deliveries is in the answer that registers or rotates it, and never again.
struct WebhooksController {
    let endpoints: WebhookEndpoints

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("webhooks", use: list)
        group.post("webhooks", use: create)
        group.get("webhooks/:id", use: show)
        group.patch("webhooks/:id", use: update)
        group.delete("webhooks/:id", use: delete)
        group.post("webhooks/:id/rotate-secret", use: rotateSecret)
        group.get("webhooks/:id/deliveries", use: deliveries)
        group.post("webhooks/:id/deliveries/:deliveryId/replay", use: replay)
    }

    struct NewEndpoint: StrictJSONBody {
        static let nullableKeys: Set<String>? = []
        var url: String
        var events: [String]
        enum CodingKeys: String, CodingKey, CaseIterable {
            case url, events
        }
    }

    struct EndpointChange: StrictJSONBody {
        static let nullableKeys: Set<String>? = []
        var url: String?
        var events: [String]?
        var enabled: Bool?
        enum CodingKeys: String, CodingKey, CaseIterable {
            case url, events, enabled
        }
    }

    @Sendable func list(request: Request, context: AuthenticatedContext) async throws -> Response {
        let items = try await endpoints.list(by: context.trainer)
        return try .json(ListBody(items: items.map { WebhookEndpointBody(endpoint: $0) }, nextCursor: nil))
    }

    @Sendable func create(request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.requireAdmin(to: "register webhooks")
        let body = try await request.decodeJSON(NewEndpoint.self, context: context)
        let registered = try await endpoints.register(url: body.url, events: body.events, by: context.trainer)
        context.logger.info("webhook registered", metadata: ["webhook.id": "\(registered.endpoint.id)"])
        return try .json(
            WebhookEndpointBody(endpoint: registered.endpoint, secret: registered.secret),
            status: .created,
            headers: [.location: "/v1/webhooks/\(registered.endpoint.id.uppercaseHyphenated)"]
        )
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(WebhookEndpointBody(endpoint: try await endpoints.endpoint(try context.id(of: "webhook"), by: context.trainer)))
    }

    /// The endpoint is looked up (and access checked) before the body is read, as for trainers.
    @Sendable func update(request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try await endpoints.endpoint(try context.id(of: "webhook"), by: context.trainer).id
        let body = try await request.decodeJSON(EndpointChange.self, context: context)
        let change = WebhookEndpoints.Change(url: body.url, events: body.events, enabled: body.enabled)
        return try .json(WebhookEndpointBody(endpoint: try await endpoints.update(id, with: change, by: context.trainer)))
    }

    @Sendable func delete(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await endpoints.delete(try context.id(of: "webhook"), by: context.trainer)
        return .noContent
    }

    @Sendable func rotateSecret(request: Request, context: AuthenticatedContext) async throws -> Response {
        let rotated = try await endpoints.rotateSecret(try context.id(of: "webhook"), by: context.trainer)
        context.logger.info("webhook secret rotated", metadata: ["webhook.id": "\(rotated.endpoint.id)"])
        return try .json(WebhookEndpointBody(endpoint: rotated.endpoint, secret: rotated.secret))
    }

    @Sendable func deliveries(request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.id(of: "webhook")
        let query = try ListQuery(request.uri)
        let page = try await endpoints.deliveries(of: id, after: query.cursor, limit: query.limit, by: context.trainer)
        return try .json(ListBody(items: page.items.map(WebhookDeliveryBody.init), nextCursor: page.nextCursor?.token))
    }

    @Sendable func replay(request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.id(of: "webhook")
        let delivery = try context.id("deliveryId", of: "webhook delivery")
        return try .json(WebhookDeliveryBody(delivery: try await endpoints.replay(delivery, of: id, by: context.trainer)), status: .accepted)
    }
}

/// An endpoint as the API shows it; `secret` only in the answers that make one.
struct WebhookEndpointBody: JSONObjectBody {
    let endpoint: WebhookEndpoint
    var secret: String?

    var jsonFields: [(key: String, value: JSONField)] {
        var fields: [(key: String, value: JSONField)] = [
            ("id", .uuid(endpoint.id)),
            ("url", .string(endpoint.url)),
            ("events", .strings(endpoint.events.map(\.rawValue))),
            ("enabled", .bool(endpoint.enabled)),
            ("disabledReason", .string(endpoint.disabledReason)),
            ("previousSecretExpiresAt", .date(endpoint.previousSecretUntil)),
            ("createdAt", .date(endpoint.createdAt)),
            ("updatedAt", .date(endpoint.updatedAt)),
        ]
        if let secret { fields.append(("secret", .string(secret))) }
        return fields
    }
}

/// One delivery of the endpoint's log: what was sent (the event's body, ids only) and what became of it.
struct WebhookDeliveryBody: JSONObjectBody {
    let delivery: WebhookDelivery

    var jsonFields: [(key: String, value: JSONField)] {
        [
            ("id", .uuid(delivery.id)),
            ("messageId", .string(delivery.messageId)),
            ("endpointId", .uuid(delivery.endpointId)),
            ("event", .string(delivery.event.rawValue)),
            ("payload", .encodable(PreencodedJSON(bytes: delivery.payload))),
            ("status", .string(delivery.status.rawValue)),
            ("attempts", .int(delivery.attempts)),
            ("nextAttemptAt", .date(delivery.nextAttemptAt)),
            ("lastStatus", .int(delivery.lastStatus)),
            ("lastError", .string(delivery.lastError)),
            ("createdAt", .date(delivery.createdAt)),
            ("updatedAt", .date(delivery.updatedAt)),
            ("deliveredAt", .date(delivery.deliveredAt)),
        ]
    }
}
