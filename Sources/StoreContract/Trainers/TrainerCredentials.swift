import Foundation
import HealthwheelCore

/// A trainer together with the stored password hash, for login only.
public struct TrainerCredentials: Sendable {
    /// The trainer whose email was given at login.
    public var trainer: Trainer
    /// An Argon2id PHC string (`$argon2id$v=19$m=…`), its parameters and salt included.
    public var passwordHash: String

    public init(trainer: Trainer, passwordHash: String) {
        self.trainer = trainer
        self.passwordHash = passwordHash
    }
}
