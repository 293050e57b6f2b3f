import Foundation
import HealthwheelCore

public struct WheelStamp: Sendable, Equatable {
    public var resultsVersion: Int64
    public var flagBelow: Double
}
