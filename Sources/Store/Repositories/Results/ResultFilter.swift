import Foundation
import HealthwheelCore

/// Which results of a client a list shows.
public struct ResultFilter: Sendable {
    public var exerciseId: String?
    public var from: Date?
    public var to: Date?

    public init(exerciseId: String? = nil, from: Date? = nil, to: Date? = nil) {
        self.exerciseId = exerciseId
        self.from = from
        self.to = to
    }
}
