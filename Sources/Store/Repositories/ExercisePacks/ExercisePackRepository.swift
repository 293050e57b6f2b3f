import Foundation
import HealthwheelCore

/// Every version of every pack. Versions are never replaced or deleted, so each stored score stays reproducible.
public protocol ExercisePackRepository: Sendable {
    /// Stores each pack as a new version for `owner`, in one transaction. If any would replace or go behind what is
    /// stored (`versionConflict`), nothing is saved at all, and the outcomes say which pack was at fault.
    func save(_ packs: [ExercisePack], owner: String, at now: Date) async throws -> [ExercisePackSaveOutcome]
    /// The latest version of each pack of every owner.
    func latestVersions() async throws -> [StoredExercisePack]
    func find(owner: String, id: String, version: Int) async throws -> ExercisePack?
}
