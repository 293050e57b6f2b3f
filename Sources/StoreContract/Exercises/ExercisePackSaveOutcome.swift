import Foundation
import HealthwheelCore

/// What saving a pack version did: an import of an unchanged pack is harmless, a changed one needs a new version.
public enum ExercisePackSaveOutcome: Sendable, Equatable {
    /// The version was new and is stored now.
    case imported
    /// This exact version is already stored, with the same content.
    case unchanged
    /// This version (or a later one) is stored with other content: a changed pack needs a higher version.
    case versionConflict(latest: Int)
}
