import Foundation
import HealthwheelCore

/// Webhook endpoints and their outbox. Endpoints are a company's (admins change them, each change audited);
/// deliveries are written from the audit trail by `fanOut` and sent by whichever node claims them (leases, and
/// `SKIP LOCKED` on PostgreSQL, as the email outbox).
public protocol WebhookRepository: Sendable {
    /// Stores a new endpoint with its signing key, hearing the trail's lines from now on, unless the company has
    /// `limit` endpoints already (false, nothing stored).
    func create(_ endpoint: WebhookEndpoint, secret: [UInt8], limit: Int, audit: AuditEvent) async throws -> Bool
    /// The company's endpoints, oldest first.
    func endpoints(in company: UUID) async throws -> [WebhookEndpoint]
    func endpoint(_ id: UUID, in company: UUID) async throws -> WebhookEndpoint?
    /// Applies `change` to the endpoint (url, events, enabled) with its audit line; nil when it is not the company's.
    func update(
        _ id: UUID,
        in company: UUID,
        audit: AuditEvent,
        _ change: @Sendable (inout WebhookEndpoint) throws -> Void
    ) async throws -> WebhookEndpoint?
    /// Deletes the endpoint and its deliveries; false when it is not the company's.
    func delete(_ id: UUID, in company: UUID, audit: AuditEvent) async throws -> Bool
    /// Signs with `secret` from now on; the current key keeps signing until `previousUntil`.
    func rotateSecret(_ id: UUID, in company: UUID, to secret: [UInt8], previousUntil: Date, audit: AuditEvent) async throws -> WebhookEndpoint?

    /// Reads the audit trail after the outbox's cursor (at most `lines` lines) and queues a delivery, due `now`,
    /// for each event line and endpoint that hears it; moves the cursor. One transaction, one node at a time.
    /// Returns how many deliveries it queued and whether lines are left to read.
    ///
    /// This, `claimDue` and `finish` may commit without waiting for the disk (delivery is at least once): a power
    /// cut may undo their last moments, and then a delivery is sent again, under the same id (a delivery's id is
    /// the same whenever its line is fanned out to its endpoint).
    func fanOut(at now: Date, lines: Int) async throws -> (queued: Int, more: Bool)
    /// Up to `limit` deliveries due by `now` (queued, or sending with a lapsed lease), at most `perCompany` of a
    /// company's in flight at once, marked `sending` with one more attempt and a lease of `lease` seconds.
    func claimDue(at now: Date, limit: Int, perCompany: Int, lease: TimeInterval) async throws -> [ClaimedWebhookDelivery]
    /// When the next delivery falls due, or a claim's lease runs out.
    func nextDue() async throws -> Date?
    /// Records an attempt's outcome: `delivered`, `failed`, or `queued` again for `nextAttemptAt`. With
    /// `disablingEndpoint`, the endpoint is turned off for that reason (a 410) in the same transaction.
    func finish(_ outcome: WebhookAttemptOutcome, at now: Date) async throws
    /// Moves a claim's lease on, while `attempt` is still the delivery's current one.
    func extendLease(_ id: UUID, attempt: Int, until: Date) async throws
    /// The endpoint's deliveries, newest first.
    func deliveries(endpoint: UUID, in company: UUID, after cursor: Cursor?, limit: Int) async throws -> Page<WebhookDelivery>
    /// Queues the delivery again, due now, with a fresh set of attempts and the same message id, unless it is
    /// being sent now.
    func replay(_ id: UUID, endpoint: UUID, in company: UUID, at now: Date) async throws -> WebhookReplay
}

/// What asking to send a delivery again did.
public enum WebhookReplay: Sendable, Equatable {
    case queued(WebhookDelivery)
    /// An attempt is under way: nothing changed.
    case sending
    /// No such delivery of the endpoint.
    case notFound
}

/// A claimed delivery with what sending it takes.
public struct ClaimedWebhookDelivery: Sendable {
    public var delivery: WebhookDelivery
    public var url: String
    /// The keys that sign it: the current one, and the previous one while a rotation lasts.
    public var secrets: [[UInt8]]

    public init(delivery: WebhookDelivery, url: String, secrets: [[UInt8]]) {
        self.delivery = delivery
        self.url = url
        self.secrets = secrets
    }
}

/// What became of an attempt, as the outbox stores it.
public struct WebhookAttemptOutcome: Sendable, Equatable {
    public var id: UUID
    public var status: WebhookDelivery.Status
    /// The receiver's HTTP status; nil when it did not answer.
    public var httpStatus: Int?
    public var error: String?
    public var nextAttemptAt: Date?
    /// Turns the delivery's endpoint off, saying why (it answered 410 Gone).
    public var disablingEndpoint: String?

    public init(id: UUID, status: WebhookDelivery.Status, httpStatus: Int?, error: String?, nextAttemptAt: Date?, disablingEndpoint: String? = nil) {
        self.id = id
        self.status = status
        self.httpStatus = httpStatus
        self.error = error
        self.nextAttemptAt = nextAttemptAt
        self.disablingEndpoint = disablingEndpoint
    }
}
