import Cryptography
import Foundation
import HealthwheelCore

/// A webhook endpoint's signing secret, as Standard Webhooks writes it: `whsec_` and the base64 of 24 random
/// bytes (the HMAC key). Shown to the admin once, when made; the server keeps it sealed to sign with.
public struct WebhookSecret: Sendable, Equatable, CustomStringConvertible {
    public static let prefix = "whsec_"
    /// The HMAC key.
    public let key: [UInt8]

    /// A new secret of 24 random bytes.
    public static func generate() -> WebhookSecret {
        WebhookSecret(key: SecureRandom.bytes(24))
    }

    public init(key: [UInt8]) {
        self.key = key
    }

    /// Reads `whsec_…` (standard base64 with its padding); nil for anything else or a key under 16 bytes.
    public init?(_ text: String) {
        guard text.hasPrefix(Self.prefix), let key = Data(base64Encoded: String(text.dropFirst(Self.prefix.count))), key.count >= 16 else {
            return nil
        }
        self.key = Array(key)
    }

    /// The secret as the admin copies it.
    public var description: String { Self.prefix + Data(key).base64EncodedString() }
}

/// Standard Webhooks' signature (https://www.standardwebhooks.com): the `webhook-signature` header is `v1,`
/// and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, one per secret, separated by spaces,
/// so that while an endpoint's secret is rotated both the old and the new sign and a receiver holding either
/// accepts the delivery.
public enum WebhookSignature {
    /// The header's value for a message signed with each of `secrets`.
    public static func header(id: String, timestamp: Int64, body: [UInt8], secrets: [WebhookSecret]) -> String {
        let content = Array("\(id).\(timestamp).".utf8) + body
        return secrets.map { "v1," + Data(HMACSHA256(key: $0.key).code(content)).base64EncodedString() }.joined(separator: " ")
    }

    /// Whether `header` holds a signature by `secret` of the message, and `timestamp` is within `tolerance` of
    /// `now` (a receiver's check, as the specification gives it: five minutes, against replays).
    public static func verify(
        header: String,
        id: String,
        timestamp: Int64,
        body: [UInt8],
        secret: WebhookSecret,
        now: Date,
        tolerance: TimeInterval = 300
    ) -> Bool {
        guard abs(now.timeIntervalSince1970 - Double(timestamp)) <= tolerance else { return false }
        let expected = Self.header(id: id, timestamp: timestamp, body: body, secrets: [secret])
        return header.split(separator: " ").contains { constantTimeEqual(Array($0.utf8), Array(expected.utf8)) }
    }

    private static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
