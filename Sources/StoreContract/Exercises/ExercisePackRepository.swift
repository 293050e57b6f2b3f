import Foundation
import HealthwheelCore

/// Every version of every pack. Versions are never replaced or deleted, so each stored score stays reproducible.
public protocol ExercisePackRepository: Sendable {
    /// Stores each pack as a new version for `owner`, in one transaction. If any would replace or go behind what is
    /// stored (`versionConflict`), nothing is saved at all, and the outcomes say which pack was at fault. Each pack
    /// stored gets the audit line `audit` makes of it (nil for the shipped packs, which are no company's act).
    func save(_ packs: [ExercisePack], owner: String, at now: Date, audit: ((ExercisePack) -> AuditEvent)?) async throws -> [ExercisePackSaveOutcome]
    /// The latest version of each pack of every owner.
    func latestVersions() async throws -> [StoredExercisePack]
    /// A number that moves with every pack stored, in the storing transaction (also read with each session).
    func catalogVersion() async throws -> Int64
    func find(owner: String, id: String, version: Int) async throws -> ExercisePack?
}
