import Foundation
import HealthwheelCore

/// What decides whether a cached wheel is still current; the repository answers nil when the client is not the
/// company's.
public struct WheelStamp: Sendable, Equatable {
    /// Moves on every change to the client's results, in the change's transaction; 0 before the first result.
    public var resultsVersion: Int64
    /// The company's `wheelFlagBelow` now: a changed threshold re-flags slices without any result changing.
    public var flagBelow: Double

    public init(resultsVersion: Int64, flagBelow: Double) {
        self.resultsVersion = resultsVersion
        self.flagBelow = flagBelow
    }
}
