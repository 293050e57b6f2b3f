import Foundation
import HealthwheelCore

/// Which results of a client a list shows.
public struct ResultFilter: Sendable {
    /// Only results of this exercise (`push-ups`); nil for all.
    public var exerciseId: String?
    /// Only results measured at or after this instant (`recordedAt`, inclusive); nil for no lower bound.
    public var from: Date?
    /// Only results measured at or before this instant (inclusive); nil for no upper bound.
    public var to: Date?

    /// No filter by default: every result of the client.
    public init(exerciseId: String? = nil, from: Date? = nil, to: Date? = nil) {
        self.exerciseId = exerciseId
        self.from = from
        self.to = to
    }
}
