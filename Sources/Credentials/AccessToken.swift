import Cryptography
import HealthwheelCore

/// A bearer token: 32 random bytes shown to the client once, base64url-encoded. Only its SHA-256 digest is
/// stored, so a copy of the database does not hand out working tokens.
public struct AccessToken: Sendable, Equatable {
    /// The token as the client sends it in `Authorization: Bearer …`; 43 base64url characters for a generated one.
    public let value: String

    /// Wraps a token a client sent, to compute its digest; nothing is checked.
    public init(value: String) {
        self.value = value
    }

    /// A new token of 32 random bytes (256 bits): for a login, shown once.
    public static func generate() -> AccessToken {
        AccessToken(value: Base64URL.encode(SecureRandom.bytes(32)))
    }

    /// The digest that is stored and looked up.
    public var digest: [UInt8] { SHA256.digest(Array(value.utf8)) }
}

/// A readable password for the demo login: 20 characters from an alphabet without look-alikes (about 110 bits).
public enum GeneratedPassword {
    static let alphabet = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    /// A new password of `length` characters (20 by default): the demo admin's, printed once at first start.
    public static func make(length: Int = 20) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }
}
