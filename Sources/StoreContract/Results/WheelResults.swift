import Foundation
import HealthwheelCore

/// What a client's wheel is made from, read in one snapshot: per exercise, the newest scored result and the
/// newest result of all, up to a date.
public struct WheelResults: Sendable {
    /// The client's results version in the same snapshot: a wheel drawn from these results is cached under it.
    public var resultsVersion: Int64
    /// The newest result with a score, by exercise id; absent for an exercise with no scored result.
    public var scored: [String: HealthWheel.Latest]
    /// The newest result, scored or not, by exercise id; absent for an exercise with no result.
    public var newest: [String: HealthWheel.Latest]

    public init(resultsVersion: Int64, scored: [String: HealthWheel.Latest], newest: [String: HealthWheel.Latest]) {
        self.resultsVersion = resultsVersion
        self.scored = scored
        self.newest = newest
    }
}
