import Foundation
import HealthwheelCore

/// A result a trainer records for a client, as sent.
public struct NewResult: Sendable {
    /// The client measured; must be one of the trainer's company's clients with a completed screening.
    public var clientId: UUID
    /// An exercise of a pack the company sees (`push-ups`); which version scores it is the catalog's current one.
    public var exerciseId: String
    /// The values, observations and date as sent; `values` is required for a new result.
    public var edit: ResultEdit
    /// Replace this trainer's result of the same exercise recorded within the correction window, if any.
    public var amendRecent: Bool
    /// The id an app chose for it, recording offline (`AppChosenIds`); nil: the server chooses.
    public var id: UUID?
    /// When an app recorded it offline: the result is dated then (its `recordedAt`), and the screening gate and
    /// the quick-correction window apply as they would have at that moment. Nil: now.
    public var takenAt: Date?

    /// A request as decoded by the API (or built by the demo): nothing is checked until `AssessmentResults.record`.
    public init(clientId: UUID, exerciseId: String, edit: ResultEdit, amendRecent: Bool, id: UUID? = nil, takenAt: Date? = nil) {
        self.id = id
        self.takenAt = takenAt
        self.clientId = clientId
        self.exerciseId = exerciseId
        self.edit = edit
        self.amendRecent = amendRecent
    }
}
