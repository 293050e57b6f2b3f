import Foundation
import HealthwheelCore

/// A trainer write the database refused for a reason the caller can name to the user.
public enum TrainerRepositoryError: Error, Equatable {
    /// Another trainer (in any company) already uses this email.
    case emailTaken
}
