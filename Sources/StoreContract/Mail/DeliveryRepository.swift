import Foundation
import HealthwheelCore

/// The email outbox.
public protocol DeliveryRepository: Sendable {
    /// Adds a queued delivery with its message, unless the company already accepted `limit` emails in the day
    /// before `delivery.createdAt` (then throws `DailyLimitReached` and stores nothing). The count and the insert
    /// are one transaction, so concurrent requests cannot pass the limit together. With `answer`, the answer to
    /// an `Idempotency-Key` is kept in the same transaction (throws `IdempotencyKeyUsed` when it was answered
    /// meanwhile, storing nothing). `audit` is written with it.
    func enqueue(_ delivery: Delivery, message: [UInt8], dailyLimit limit: Int, keeping answer: IdempotencyRecord?, audit: AuditEvent) async throws
    /// Whether the company already accepted `limit` emails in the day before `now`, and if so when a slot frees.
    func dailyLimitReached(company: UUID, limit: Int, at now: Date) async throws -> DailyLimitReached?
    func find(_ id: UUID, in company: UUID) async throws -> Delivery?
    /// The client's deliveries, newest first.
    func list(client: UUID, in company: UUID, after cursor: Cursor?, limit: Int) async throws -> Page<Delivery>
    /// Up to `limit` queued deliveries due by `now`, the earliest first, marked `sending` with one more attempt
    /// each, with their messages: one transaction. Each claim is a lease of `lease` seconds, renewed by its sender
    /// while it sends (`extendLease`): a `sending` delivery whose lease ran out (its claimer stopped) is claimed
    /// again, by any node, its
    /// `lastError` saying that it may arrive twice if it had been handed over.
    func claimDue(at now: Date, limit: Int, lease: TimeInterval) async throws -> [(Delivery, [UInt8])]
    /// When the earliest queued delivery is due, or the earliest claim's lease runs out, if there is either.
    func nextDue() async throws -> Date?
    /// Records an attempt's outcome: `sent`, `failed`, or `queued` again with the error and the next attempt's time,
    /// with its line in the audit trail (`delivery.sent`, `delivery.failed`, `delivery.changed`, by the server).
    func finish(_ id: UUID, status: Delivery.Status, error: String?, nextAttemptAt: Date?, at now: Date) async throws
    /// Moves the claim's lease on to `until`, if `attempt` is still the delivery's current one and still sending:
    /// a sender renews its claim while the attempt lasts, so a short lease never lets another node take mail
    /// that is being sent, only mail whose sender stopped.
    func extendLease(_ id: UUID, attempt: Int, until: Date) async throws
    /// Records that the current attempt's message is being handed to the mail server (its DATA begins): from
    /// here, a stop may leave a message that arrived but is not marked sent.
    func markHandedOver(_ id: UUID, at now: Date) async throws
    /// Queues again every delivery a stopped server left `sending`: sending again is the safe side. Those
    /// interrupted after the hand-over may have arrived; their `lastError` says so. Returns how many of each. On a
    /// database other nodes share it does nothing: they may be sending those now, and leases decide (`claimDue`).
    func requeueInterrupted(at now: Date) async throws -> (requeued: Int, possiblyDelivered: Int)
}

extension DeliveryRepository {
    /// The next queued delivery due by `now`, claimed as `claimDue(at:limit:lease:)` does with the default lease.
    public func claimDue(at now: Date) async throws -> (Delivery, [UInt8])? {
        try await claimDue(at: now, limit: 1, lease: DeliveryRetryPolicy().claimLease).first
    }

    /// Every delivery about the client, newest first, read page by page (an export, an erasure).
    public func all(client: UUID, in company: UUID) async throws -> [Delivery] {
        var deliveries: [Delivery] = []
        var cursor: Cursor?
        repeat {
            let page = try await list(client: client, in: company, after: cursor, limit: 500)
            deliveries += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return deliveries
    }

    /// The `lastError` of a delivery queued again after a stop during its hand-over.
    public static var possiblyDeliveredNote: String {
        "the server stopped after handing the message to the mail server; sent again, it may arrive twice (with the same Message-ID)"
    }
}
