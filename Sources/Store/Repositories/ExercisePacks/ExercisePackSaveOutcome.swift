import Foundation
import HealthwheelCore

public enum ExercisePackSaveOutcome: Sendable, Equatable {
    case imported
    /// This exact version is already stored, with the same content.
    case unchanged
    /// This version (or a later one) is stored with other content: a changed pack needs a higher version.
    case versionConflict(latest: Int)
}
