import Cryptography
import Foundation
import StoreContract

/// The secret the audit trail's chain is keyed under (HMAC-SHA-256). It is never stored in the database: from
/// `HEALTHWHEEL_AUDIT_KEY` or `healthwheel.audit.key` beside it (`DataDirectory.resolveAuditKey`). So someone who
/// can write the database, its key in hand, still cannot rewrite a line and hash the lines after it again unseen.
public struct AuditKey: Sendable, CustomStringConvertible {
    let bytes: [UInt8]
    /// The key padded to SHA-256's block and XORed with HMAC's inner and outer constants (RFC 2104), so that
    /// PostgreSQL, which has SHA-256 but no HMAC without an extension, computes the same code in SQL:
    /// `sha256(outer || sha256(inner || message))`. Worked out once, not per append.
    var pads: (inner: [UInt8], outer: [UInt8]) { hmac.pads }
    private let hmac: HMACSHA256

    /// A key of 32 bytes, as the key files and the variable hold it (64 hex characters).
    public init(_ key: DatabaseKey) {
        bytes = key.bytes
        hmac = HMACSHA256(key: bytes)
    }

    /// HMAC-SHA-256 of `parts`, one after another.
    func mac(_ parts: [UInt8]...) -> [UInt8] { hmac.code(of: parts) }

    /// What the database keeps to tell the key it was written under from another (`audit_key.key_check`): a code
    /// of a fixed text, from which the key cannot be worked out.
    var check: [UInt8] { mac(Array("healthwheel audit key check".utf8)) }

    /// Never the key.
    public var description: String { "AuditKey(redacted)" }
}
