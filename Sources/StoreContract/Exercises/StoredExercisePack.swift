import Foundation
import HealthwheelCore

/// A stored pack version: its owner (`*` for every company, else a company id) and its JSON as imported.
public struct StoredExercisePack: Sendable {
    /// `*` for a shipped pack every company sees, else the id of the company that uploaded it.
    public var owner: String
    /// The pack as imported, scripts included: kept after a newer version, so any score's script can be reproduced.
    public var pack: ExercisePack
    /// When this version was stored.
    public var importedAt: Date

    /// A pack version as stored, with its owner.
    public init(owner: String, pack: ExercisePack, importedAt: Date) {
        self.owner = owner
        self.pack = pack
        self.importedAt = importedAt
    }
}
