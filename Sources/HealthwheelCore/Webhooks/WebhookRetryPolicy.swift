import Foundation

/// When to try a webhook delivery again (the schedule Standard Webhooks and Svix use): after 5 seconds, 5 minutes,
/// 30 minutes, 2, 5, 10, 14, 20 and 24 hours, ten attempts over about three days and a half. Each wait is spread
/// by up to a tenth either way, so a receiver that was down does not get every delayed event in the same second,
/// and a receiver's `Retry-After` is honoured when it asks for longer (up to a day).
public struct WebhookRetryPolicy: Sendable, Equatable {
    /// Waits after failed attempts 1…9; after the tenth failure the delivery has failed.
    public var waits: [TimeInterval] = [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400]
    /// The most a receiver's `Retry-After` may hold a delivery back.
    public var longestRetryAfter: TimeInterval = 86_400

    public init() {}

    /// Attempts in all, the first included.
    public var maxAttempts: Int { waits.count + 1 }

    /// The wait before the next attempt after `attempts` failed ones, nil when none is left. `spread` is a number
    /// in 0..<1 (random, from the caller) placing the wait within ±10 %; `retryAfter` is what the receiver asked.
    public func wait(afterFailedAttempts attempts: Int, spread: Double, retryAfter: TimeInterval? = nil) -> TimeInterval? {
        guard attempts >= 1, attempts <= waits.count else { return nil }
        let scheduled = waits[attempts - 1] * (0.9 + 0.2 * min(max(spread, 0), 1))
        guard let retryAfter, retryAfter > scheduled else { return scheduled }
        return min(retryAfter, longestRetryAfter)
    }
}
