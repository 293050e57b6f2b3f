import Foundation
import HealthwheelCore

/// A result a trainer records for a client, as sent.
public struct NewResult: Sendable {
    public var clientId: UUID
    public var exerciseId: String
    public var edit: ResultEdit
    /// Replace this trainer's result of the same exercise recorded within the correction window, if any.
    public var amendRecent: Bool

    public init(clientId: UUID, exerciseId: String, edit: ResultEdit, amendRecent: Bool) {
        self.clientId = clientId
        self.exerciseId = exerciseId
        self.edit = edit
        self.amendRecent = amendRecent
    }
}
