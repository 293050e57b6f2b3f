import Foundation
import HealthwheelCore

/// A trainer together with the stored password hash, for login only.
public struct TrainerCredentials: Sendable {
    public var trainer: Trainer
    public var passwordHash: String
}
