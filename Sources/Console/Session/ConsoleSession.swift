import Credentials
import Cryptography
import Foundation
import HealthwheelCore

/// A signed-in browser's session: the API's session (a sliding one), named by the token its cookie holds.
struct ConsoleSession: Sendable {
    /// What the store keys the session by; signing out deletes it.
    let tokenDigest: [UInt8]
    /// The token every state-changing form of this session carries (`csrf`): derived from the session's secret
    /// token, so it is bound to the session, needs no storage, and changes with each sign-in.
    let csrfToken: String

    init(token: String, tokenDigest: [UInt8]) {
        self.tokenDigest = tokenDigest
        csrfToken = Self.csrfToken(for: token)
    }

    static func csrfToken(for sessionToken: String) -> String {
        Base64URL.encode(SHA256.digest(Array("healthwheel console csrf\n\(sessionToken)".utf8)))
    }

    /// Whether `sent` is this session's CSRF token, compared in constant time.
    func accepts(csrf sent: String?) -> Bool {
        guard let sent else { return false }
        return ConstantTime.equal(Array(sent.utf8), Array(csrfToken.utf8))
    }
}

/// Comparisons whose time does not tell how much of a secret matched.
enum ConstantTime {
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
