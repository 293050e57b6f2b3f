import Foundation
import HealthwheelCore

public struct WheelResults: Sendable {
    public var resultsVersion: Int64
    public var scored: [String: HealthWheel.Latest]
    public var newest: [String: HealthWheel.Latest]
}
