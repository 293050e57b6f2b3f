import Credentials
import Foundation
import HealthwheelCore
import StoreContract
import Webhooks

/// A company's webhook endpoints, for its admins: registering one (its secret shown once), changing, turning off
/// and on, deleting, rotating the secret, reading its delivery log and replaying a delivery. Every change is
/// audited; another company's endpoint is `notFound`.
public struct WebhookEndpoints: Sendable {
    let webhooks: any WebhookRepository
    let poster: WebhookPoster
    let sender: WebhookSender
    let clock: any WallClock

    init(store: Repositories, settings: WebhookSettings, sender: WebhookSender, clock: any WallClock) {
        webhooks = store.webhooks
        poster = WebhookPoster(settings: settings.poster)
        self.sender = sender
        self.clock = clock
    }

    /// An endpoint with its secret, as the admin sees it once: when it is registered and when it is rotated.
    public struct WithSecret: Sendable {
        public var endpoint: WebhookEndpoint
        /// `whsec_…`: the receiver's key to check signatures with.
        public var secret: String
    }

    /// What an admin may change; nil leaves it as it is.
    public struct Change: Sendable {
        public var url: String?
        public var events: [String]?
        public var enabled: Bool?

        public init(url: String? = nil, events: [String]? = nil, enabled: Bool? = nil) {
            self.url = url
            self.events = events
            self.enabled = enabled
        }
    }

    public func register(url: String, events: [String], by trainer: Trainer) async throws -> WithSecret {
        try trainer.requireAdmin(to: "register webhooks")
        let kinds = try check(url: url, events: events)
        let now = clock.now
        let endpoint = WebhookEndpoint(companyId: trainer.companyId, url: url, events: kinds, createdAt: now, updatedAt: now)
        let secret = WebhookSecret.generate()
        let audit = AuditEvent.company(
            .created,
            .webhook,
            id: endpoint.id.lowercaseHyphenated,
            in: trainer.companyId,
            by: .trainer(trainer.id),
            at: now
        )
        guard try await webhooks.create(endpoint, secret: secret.key, limit: WebhookEndpoint.maxPerCompany, audit: audit) else {
            throw ServiceError.conflict(
                slug: "too-many-webhooks",
                detail: "a company may have at most \(WebhookEndpoint.maxPerCompany) webhook endpoints: delete one first"
            )
        }
        return WithSecret(endpoint: endpoint, secret: secret.description)
    }

    public func list(by trainer: Trainer) async throws -> [WebhookEndpoint] {
        try trainer.requireAdmin(to: "read webhooks")
        return try await webhooks.endpoints(in: trainer.companyId)
    }

    /// The endpoint, looked up before the role is checked: another company's id is `notFound` for everyone.
    public func endpoint(_ id: UUID, by trainer: Trainer) async throws -> WebhookEndpoint {
        guard let endpoint = try await webhooks.endpoint(id, in: trainer.companyId) else { throw ServiceError.notFound("webhook") }
        try trainer.requireAdmin(to: "read webhooks")
        return endpoint
    }

    /// Applies `change`; turning an endpoint on again clears why the server had turned it off.
    public func update(_ id: UUID, with change: Change, by trainer: Trainer) async throws -> WebhookEndpoint {
        let current = try await endpoint(id, by: trainer)
        let kinds = try check(url: change.url ?? current.url, events: change.events ?? current.events.map(\.rawValue))
        let now = clock.now
        let audit = AuditEvent.company(.changed, .webhook, id: id.lowercaseHyphenated, in: trainer.companyId, by: .trainer(trainer.id), at: now)
        let updated = try await webhooks.update(id, in: trainer.companyId, audit: audit) { endpoint in
            if let url = change.url { endpoint.url = url }
            endpoint.events = kinds
            if let enabled = change.enabled {
                endpoint.enabled = enabled
                endpoint.disabledReason = nil
            }
            endpoint.updatedAt = now
        }
        guard let updated else { throw ServiceError.notFound("webhook") }
        return updated
    }

    public func delete(_ id: UUID, by trainer: Trainer) async throws {
        _ = try await endpoint(id, by: trainer)
        let audit = AuditEvent.company(.deleted, .webhook, id: id.lowercaseHyphenated, in: trainer.companyId, by: .trainer(trainer.id), at: clock.now)
        guard try await webhooks.delete(id, in: trainer.companyId, audit: audit) else { throw ServiceError.notFound("webhook") }
    }

    /// A new secret signs from now on; the one it replaces also signs for a day, while the receiver moves over.
    public func rotateSecret(_ id: UUID, by trainer: Trainer) async throws -> WithSecret {
        _ = try await endpoint(id, by: trainer)
        let now = clock.now
        let secret = WebhookSecret.generate()
        let audit = AuditEvent.company(.changed, .webhook, id: id.lowercaseHyphenated, in: trainer.companyId, by: .trainer(trainer.id), at: now)
        guard
            let endpoint = try await webhooks.rotateSecret(
                id,
                in: trainer.companyId,
                to: secret.key,
                previousUntil: now.addingTimeInterval(WebhookEndpoint.rotationOverlap),
                audit: audit
            )
        else { throw ServiceError.notFound("webhook") }
        return WithSecret(endpoint: endpoint, secret: secret.description)
    }

    /// The endpoint's deliveries, newest first.
    public func deliveries(of id: UUID, after cursor: Cursor?, limit: Int, by trainer: Trainer) async throws -> Page<WebhookDelivery> {
        _ = try await endpoint(id, by: trainer)
        return try await webhooks.deliveries(endpoint: id, in: trainer.companyId, after: cursor, limit: limit)
    }

    /// Sends a delivery again (the same message id, attempts from the start), at once.
    public func replay(_ delivery: UUID, of id: UUID, by trainer: Trainer) async throws -> WebhookDelivery {
        let endpoint = try await endpoint(id, by: trainer)
        guard endpoint.enabled else {
            throw ServiceError.conflict(slug: "webhook-disabled", detail: "this endpoint is turned off: turn it on to replay its deliveries")
        }
        switch try await webhooks.replay(delivery, endpoint: id, in: trainer.companyId, at: clock.now) {
        case .queued(let replayed):
            sender.wake()
            return replayed
        case .sending: throw ServiceError.conflict(slug: "delivery-in-flight", detail: "this delivery is being sent now: wait for its outcome")
        case .notFound: throw ServiceError.notFound("webhook delivery")
        }
    }

    /// The events named, or every problem with the URL and the names.
    private func check(url: String, events: [String]) throws -> [WebhookEvent.Kind] {
        var errors: [FieldError] = []
        if let refusal = poster.refusal(ofURL: url) { errors.append(FieldError("url", refusal)) }
        let known = Set(WebhookEvent.Kind.allCases.map(\.rawValue))
        for (index, name) in events.enumerated() where !known.contains(name) {
            errors.append(
                FieldError("events[\(index)]", "is not an event: use one of \(WebhookEvent.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            )
        }
        if events.isEmpty { errors.append(FieldError("events", "must name at least one event")) }
        guard errors.isEmpty else { throw ServiceError.invalid(errors) }
        return events.compactMap(WebhookEvent.Kind.init(rawValue:))
    }
}
