import Foundation
import HealthwheelCore

/// The email outbox.
public protocol DeliveryRepository: Sendable {
    /// Adds a queued delivery with its message, unless the company already accepted `limit` emails in the day
    /// before `delivery.createdAt` (then throws `DailyLimitReached` and stores nothing). The count and the insert
    /// are one transaction, so concurrent requests cannot pass the limit together. With `answer`, the answer to
    /// an `Idempotency-Key` is kept in the same transaction (throws `IdempotencyKeyUsed` when it was answered
    /// meanwhile, storing nothing).
    func enqueue(_ delivery: Delivery, message: [UInt8], dailyLimit limit: Int, keeping answer: IdempotencyRecord?) async throws
    /// Whether the company already accepted `limit` emails in the day before `now`, and if so when a slot frees.
    func dailyLimitReached(company: UUID, limit: Int, at now: Date) async throws -> DailyLimitReached?
    func find(_ id: UUID, in company: UUID) async throws -> Delivery?
    /// The client's deliveries, newest first.
    func list(client: UUID, in company: UUID, after cursor: Cursor?, limit: Int) async throws -> Page<Delivery>
    /// The next queued delivery due by `now`, marked `sending` with one more attempt, with its message.
    func claimDue(at now: Date) async throws -> (Delivery, [UInt8])?
    /// When the earliest queued delivery is due, if any is queued.
    func nextDue() async throws -> Date?
    /// Records an attempt's outcome: `sent`, `failed`, or `queued` again with the error and the next attempt's time.
    func finish(_ id: UUID, status: Delivery.Status, error: String?, nextAttemptAt: Date?, at now: Date) async throws
    /// Queues again every delivery a stopped server left `sending` (it may or may not have reached the server:
    /// sending again is the safe side). Returns how many.
    func requeueInterrupted(at now: Date) async throws -> Int
}
