import CArgon2
import HealthwheelCore

/// Argon2id password hashing through Debian's libargon2 (the reference implementation).
///
/// Hashes are PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`), so the parameters travel with each hash
/// and can be raised later without breaking old ones.
public struct PasswordHasher: Sendable {
    /// Memory cost in KiB, iterations and lanes. The defaults are OWASP's first recommendation.
    public var memoryKiB: UInt32
    /// Passes over memory (2 by default): more is slower for an attacker and for every login alike.
    public var iterations: UInt32
    /// Lanes (1 by default, as OWASP recommends): the work of one hash is split into this many independent parts.
    public var parallelism: UInt32

    static let saltLength = 16
    static let hashLength = 32

    /// OWASP's first recommendation by default: 19 MiB, 2 passes, 1 lane. Stored hashes keep their own parameters.
    public init(memoryKiB: UInt32 = 19_456, iterations: UInt32 = 2, parallelism: UInt32 = 1) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }

    /// What libargon2 reported when hashing failed (out of memory, a bad parameter).
    public struct Failure: Error, CustomStringConvertible {
        /// libargon2's `ARGON2_*` error code (negative).
        public let code: Int32
        /// libargon2's own message for `code`.
        public var description: String { "argon2: " + String(cString: argon2_error_message(code)) }
    }

    /// Hashes `password` with a fresh random salt. Takes tens of milliseconds by design: call it off the
    /// event loop.
    public func hash(_ password: String) throws -> String {
        let salt = SecureRandom.bytes(Self.saltLength)
        let length = argon2_encodedlen(
            iterations,
            memoryKiB,
            parallelism,
            UInt32(Self.saltLength),
            UInt32(Self.hashLength),
            Argon2_id
        )
        var encoded = [CChar](repeating: 0, count: length)
        let password = Array(password.utf8)
        let code = argon2id_hash_encoded(
            iterations,
            memoryKiB,
            parallelism,
            password,
            password.count,
            salt,
            salt.count,
            Self.hashLength,
            &encoded,
            length
        )
        guard code == ARGON2_OK.rawValue else { throw Failure(code: code) }
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True when `password` matches `encoded`. A malformed hash simply does not match.
    public func verify(_ password: String, against encoded: String) -> Bool {
        let password = Array(password.utf8)
        return argon2id_verify(encoded, password, password.count) == ARGON2_OK.rawValue
    }
}
