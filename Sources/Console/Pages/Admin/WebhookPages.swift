import Foundation
import HealthwheelCore
import Hummingbird
import Services
import StoreContract

/// `/admin/webhooks`: a company's webhook endpoints for its admins, as the API offers them (`WebhookEndpoints`):
/// register one (its secret shown once, on the answer's page, never in a URL), turn it off or on, change its
/// events, rotate its secret, delete it, and read each endpoint's delivery log with a replay per delivery.
struct WebhookPages: Sendable {
    let endpoints: WebhookEndpoints
    let clock: any WallClock
    let frames: Frames

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.get("admin/webhooks", use: list)
        group.post("admin/webhooks", use: register)
        group.get("admin/webhooks/:id", use: endpoint)
        group.post("admin/webhooks/:id", use: change)
        group.post("admin/webhooks/:id/rotate", use: rotate)
        group.post("admin/webhooks/:id/delete", use: delete)
        group.post("admin/webhooks/:id/deliveries/:delivery/replay", use: replay)
    }

    struct ListPage {
        var rows: [EndpointRow]
        var events: [EventChoice]
        var url: String
        var errors: [String: String]
        var errorList: [ConsolePageErrors.FieldLine]
        /// The secret of the endpoint just registered: shown once.
        var secret: String?
        var full: Bool
    }

    struct EndpointRow {
        var link: String
        var url: String
        var events: String
        var state: String
        /// `on` or `off`: the badge's colour.
        var stateKey: String
    }

    struct EventChoice {
        var value: String
        var id: String
        var checked: Bool
    }

    struct EndpointPage {
        var action: String
        var url: String
        var on: Bool
        var state: String
        var disabledReason: String?
        var events: [EventChoice]
        var created: String
        var rotation: String?
        var secret: String?
        var deliveries: [DeliveryRow]
        var nextLink: String?
        var errors: [String: String]
    }

    struct DeliveryRow {
        var event: String
        var status: String
        /// The status's own name (`queued`, `sending`, `delivered`, `failed`): the badge's colour.
        var statusKey: String
        var attempts: Int
        var answer: String
        var created: String
        var next: String?
        var replay: String?
    }

    static let logPage = 25

    @Sendable func list(request: Request, context: SignedInContext) async throws -> Response {
        try await listPage(request, context, url: "", events: [], errors: [], secret: nil, status: .ok)
    }

    private func listPage(
        _ request: Request,
        _ context: SignedInContext,
        url: String,
        events: [String],
        errors: [FieldError],
        secret: String?,
        status: HTTPResponse.Status
    ) async throws -> Response {
        try context.trainer.requireAdmin(to: "manage webhooks")
        let framed = try await frames.frame(request, context, title: "admin.webhooks.title", section: "admin")
        let strings = framed.strings
        let errors = strings.refusals(errors)
        let all = try await endpoints.list(by: context.trainer)
        let content = ListPage(
            rows: all.map { endpoint in
                EndpointRow(
                    link: "/admin/webhooks/\(endpoint.id.lowercaseHyphenated)",
                    url: endpoint.url,
                    events: endpoint.events.map(\.rawValue).joined(separator: ", "),
                    state: strings.text(endpoint.enabled ? "admin.webhooks.on" : "admin.webhooks.off"),
                    stateKey: endpoint.enabled ? "on" : "off"
                )
            },
            events: Self.choices(checked: Set(events)),
            url: url,
            errors: errors.byField,
            errorList: errors.map { .init(field: strings.text("admin.webhooks.fields.\($0.field)"), message: $0.message) },
            secret: secret,
            full: all.count >= WebhookEndpoint.maxPerCompany
        )
        return try frames.page("admin-webhooks", content, framed, status: status)
    }

    static func choices(checked: Set<String>) -> [EventChoice] {
        WebhookEvent.Kind.allCases.map {
            EventChoice(value: $0.rawValue, id: "e-" + $0.rawValue.replacingOccurrences(of: ".", with: "-"), checked: checked.contains($0.rawValue))
        }
    }

    /// The answer shows the secret, once: it is not redirected to a page a reload or the history would show again.
    @Sendable func register(request: Request, context: SignedInContext) async throws -> Response {
        let url = context.form.text("url") ?? ""
        let events = context.form.all("events")
        do {
            let registered = try await endpoints.register(url: url, events: events, by: context.trainer)
            return try await listPage(request, context, url: "", events: [], errors: [], secret: registered.secret, status: .created)
        } catch  where !error.formErrors.isEmpty {
            return try await listPage(
                request,
                context,
                url: url,
                events: events,
                errors: error.formErrors,
                secret: nil,
                status: .unprocessableContent
            )
        }
    }

    @Sendable func endpoint(request: Request, context: SignedInContext) async throws -> Response {
        try await endpointPage(request, context, id: try context.id(of: "webhook"), secret: nil, errors: [], status: .ok)
    }

    private func endpointPage(
        _ request: Request,
        _ context: SignedInContext,
        id: UUID,
        secret: String?,
        errors: [FieldError],
        status: HTTPResponse.Status
    ) async throws -> Response {
        try context.trainer.requireAdmin(to: "manage webhooks")
        let endpoint = try await endpoints.endpoint(id, by: context.trainer)
        let framed = try await frames.frame(request, context, title: "admin.webhooks.endpoint", section: "admin")
        let strings = framed.strings
        let cursor = request.uri.queryParameters["cursor"].flatMap { Cursor(token: String($0)) }
        let log = try await endpoints.deliveries(of: id, after: cursor, limit: Self.logPage, by: context.trainer)
        let when = strings.moments(time: .standard)
        let action = "/admin/webhooks/\(id.lowercaseHyphenated)"
        let content = EndpointPage(
            action: action,
            url: endpoint.url,
            on: endpoint.enabled,
            state: strings.text(endpoint.enabled ? "admin.webhooks.on" : "admin.webhooks.off"),
            disabledReason: endpoint.disabledReason,
            events: Self.choices(checked: Set(endpoint.events.map(\.rawValue))),
            created: when(endpoint.createdAt),
            rotation: endpoint.previousSecretUntil.flatMap { $0 > clock.now ? when($0) : nil },
            secret: secret,
            deliveries: log.items.map { delivery in
                DeliveryRow(
                    event: delivery.event.rawValue,
                    status: strings.text("admin.webhooks.status.\(delivery.status.rawValue)"),
                    statusKey: delivery.status.rawValue,
                    attempts: delivery.attempts,
                    answer: [delivery.lastStatus.map { "HTTP \($0)" }, delivery.lastError].compactMap { $0 }.joined(separator: ": "),
                    created: when(delivery.createdAt),
                    next: delivery.status == .queued ? delivery.nextAttemptAt.map(when) : nil,
                    replay: delivery.status == .sending ? nil : "\(action)/deliveries/\(delivery.id.lowercaseHyphenated)/replay"
                )
            },
            nextLink: log.nextCursor.map { "\(action)?cursor=\($0.token)" },
            errors: strings.refusals(errors).byField
        )
        return try frames.page("admin-webhook", content, framed, status: status)
    }

    /// The form sends every field: the URL, the events ticked, and whether it is on.
    @Sendable func change(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.id(of: "webhook")
        let form = context.form
        let change = WebhookEndpoints.Change(url: form.text("url") ?? "", events: form.all("events"), enabled: form["enabled"] == "on")
        do {
            _ = try await endpoints.update(id, with: change, by: context.trainer)
        } catch  where !error.formErrors.isEmpty {
            return try await endpointPage(request, context, id: id, secret: nil, errors: error.formErrors, status: .unprocessableContent)
        }
        return Notice.redirect("/admin/webhooks/\(id.lowercaseHyphenated)", "webhookSaved").response
    }

    /// The new secret is shown on the answer's page, once; the old one signs too for a day.
    @Sendable func rotate(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.id(of: "webhook")
        let rotated = try await endpoints.rotateSecret(id, by: context.trainer)
        return try await endpointPage(request, context, id: id, secret: rotated.secret, errors: [], status: .ok)
    }

    @Sendable func delete(request: Request, context: SignedInContext) async throws -> Response {
        try await endpoints.delete(try context.id(of: "webhook"), by: context.trainer)
        return Notice.redirect("/admin/webhooks", "webhookDeleted").response
    }

    @Sendable func replay(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.id(of: "webhook")
        _ = try await endpoints.replay(try context.id("delivery", of: "webhook delivery"), of: id, by: context.trainer)
        return Notice.redirect("/admin/webhooks/\(id.lowercaseHyphenated)", "deliveryReplayed").response
    }
}
