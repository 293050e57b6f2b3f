import Foundation
import HealthwheelCore

/// A company's sending allowance was used up: the oldest email of the window frees a slot at `retryAt`.
public struct DailyLimitReached: Error, Equatable, Sendable {
    public let limit: Int
    public let retryAt: Date

    public init(limit: Int, retryAt: Date) {
        self.limit = limit
        self.retryAt = retryAt
    }
}
