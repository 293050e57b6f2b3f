import Foundation
import HealthwheelCore

/// A stored pack version: its owner (`*` for every company, else a company id) and its JSON as imported.
public struct StoredExercisePack: Sendable {
    public var owner: String
    public var pack: ExercisePack
    public var importedAt: Date

    public init(owner: String, pack: ExercisePack, importedAt: Date) {
        self.owner = owner
        self.pack = pack
        self.importedAt = importedAt
    }
}
