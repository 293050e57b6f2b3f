import Foundation
import HealthwheelCore

public enum TrainerRepositoryError: Error, Equatable {
    /// Another trainer (in any company) already uses this email.
    case emailTaken
}
