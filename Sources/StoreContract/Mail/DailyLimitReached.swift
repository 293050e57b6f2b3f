import Foundation
import HealthwheelCore

/// A company's sending allowance was used up: the oldest email of the window frees a slot at `retryAt`.
public struct DailyLimitReached: Error, Equatable, Sendable {
    /// The company's allowance: emails in any 24 hours (`MailSettings.dailyLimit`, 200 by default).
    public let limit: Int
    /// When the oldest email of the past 24 hours turns a day old, freeing a slot: the answer's `Retry-After`.
    public let retryAt: Date

    /// Thrown by the outbox when a company would exceed `limit`; nothing was queued.
    public init(limit: Int, retryAt: Date) {
        self.limit = limit
        self.retryAt = retryAt
    }
}
