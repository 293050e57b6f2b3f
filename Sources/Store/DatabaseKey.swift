import Foundation
import HealthwheelCore
import StoreContract

/// A raw 256-bit SQLCipher key. Its description never shows the key, so it cannot leak through a log line.
public struct DatabaseKey: Sendable, Equatable, CustomStringConvertible {
    /// 64 lower-case hex characters.
    public let hex: String

    /// Accepts 64 hex digits in either case, surrounding white space (a key file's newline) trimmed; nil otherwise.
    public init?(hex: String) {
        let trimmed = hex.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard trimmed.utf8.count == 64, trimmed.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return nil
        }
        self.hex = trimmed
    }

    /// A fresh random key.
    public static func random() -> DatabaseKey {
        DatabaseKey(hex: SecureRandom.bytes(32).hexString)!
    }

    /// The 32 bytes the hex spells (checked by `init?(hex:)`).
    var bytes: [UInt8] { [UInt8](hex: hex)! }

    /// SQLCipher treats a key of the form `x'<64 hex>'` as raw key material and skips PBKDF2.
    var rawKeySpec: String { "x'\(hex)'" }

    /// Never the key: `DatabaseKey(redacted)`, so interpolating one into a log line is harmless.
    public var description: String { "DatabaseKey(redacted)" }
}
