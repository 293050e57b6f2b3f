import Credentials
import HealthwheelCore
import NIOPosix

/// Argon2id hashing and checking, run on NIO's blocking-work thread pool: each call takes tens of milliseconds
/// and 19 MiB by design, and must not stall the event loops or Swift's cooperative threads. The pool's size also
/// bounds how much memory concurrent logins can take.
public struct PasswordService: PasswordHashing {
    let hasher: PasswordHasher
    let threadPool: NIOThreadPool

    /// `threadPool` is NIO's blocking pool by default; its size bounds how many hashes (19 MiB each) run at once.
    public init(hasher: PasswordHasher = PasswordHasher(), threadPool: NIOThreadPool = .singleton) {
        self.hasher = hasher
        self.threadPool = threadPool
    }

    /// An Argon2id PHC string for a new password (fresh salt), computed off the cooperative pool.
    public func hash(_ password: String) async throws -> String {
        try await threadPool.runIfActive { [hasher] in try hasher.hash(password) }
    }

    /// Checks `password` against `encoded`. With no hash (unknown email) it checks against a throw-away hash
    /// anyway, so a wrong email takes as long as a wrong password and timing reveals nothing.
    public func verify(_ password: String, against encoded: String?) async throws -> Bool {
        try await threadPool.runIfActive { [hasher] in
            let matches = hasher.verify(password, against: encoded ?? Self.decoyHash)
            return matches && encoded != nil
        }
    }

    private static let decoyHash = (try? PasswordHasher().hash(SecureRandom.hex(16))) ?? ""
}
