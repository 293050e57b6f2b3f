import Credentials
import Cryptography
import Foundation
import HealthwheelCore
import StoreContract

/// Counts failed logins per email and per client address in a sliding window. Once either is over its limit,
/// every attempt for it is refused until enough failures leave the window, whether or not the email exists, so
/// the answer reveals nothing about accounts.
///
/// The failures are kept in the database (`LoginFailureRepository`), so every node behind a balancer counts the
/// same ones and a restart forgets none; each is stored as the SHA-256 of what it counts, never the email or
/// address itself.
public struct LoginRateLimiter: Sendable {
    /// How many failures, per email and per client address, a window of `window` seconds allows.
    public struct Policy: Sendable {
        /// Seconds: how far back failures count, and at most how long a refused caller waits. 15 minutes by default.
        public var window: TimeInterval
        /// Failures one email may have in a window before its logins are refused (5): slows guessing one password.
        public var failuresPerEmail: Int
        /// Failures one client address may have in a window (30): slows trying many emails from one place.
        public var failuresPerAddress: Int

        /// Defaults: 5 failures per email and 30 per address in 15 minutes.
        public init(window: TimeInterval = 15 * 60, failuresPerEmail: Int = 5, failuresPerAddress: Int = 30) {
            self.window = window
            self.failuresPerEmail = failuresPerEmail
            self.failuresPerAddress = failuresPerAddress
        }
    }

    let policy: Policy
    let failures: any LoginFailureRepository

    /// A limiter counting in `failures` (the store's table, shared by every node on the database).
    public init(policy: Policy, failures: any LoginFailureRepository) {
        self.policy = policy
        self.failures = failures
    }

    /// What the counts say about an attempt now: seconds to wait before trying again (nil if allowed), and
    /// whether the email has failures a success would clear.
    func check(email: String, address: String, now: Date) async throws -> (retryAfter: Int?, emailFailed: Bool) {
        let keys = [(Self.key(email: email), policy.failuresPerEmail), (Self.key(address: address), policy.failuresPerAddress)]
        let recent = try await failures.failures(of: keys.map(\.0), since: now.addingTimeInterval(-policy.window))
        let wait = keys.compactMap { key, limit in Self.wait(failures: recent[key] ?? [], limit: limit, window: policy.window, now: now) }.max()
        return (wait, recent[keys[0].0] != nil)
    }

    func recordFailure(email: String, address: String, now: Date) async throws {
        try await failures.recordFailure(
            of: [Self.key(email: email), Self.key(address: address)],
            at: now,
            forgetBefore: now.addingTimeInterval(-policy.window)
        )
    }

    /// A successful login clears the email's failures (the address keeps its count).
    func recordSuccess(email: String) async throws {
        try await failures.clear(Self.key(email: email))
    }

    /// Seconds until fewer than `limit` of `failures` (oldest first, all inside the window) remain in it; nil when
    /// there are fewer already. With more than `limit` (concurrent failures on several nodes), it is the one that
    /// brings the count under the limit, not the oldest, that must leave.
    static func wait(failures: [Date], limit: Int, window: TimeInterval, now: Date) -> Int? {
        guard failures.count >= limit else { return nil }
        let leaving = failures[failures.count - limit]
        return max(1, Int((window - now.timeIntervalSince(leaving)).rounded(.up)))
    }

    static func key(email: String) -> [UInt8] { SHA256.digest(Array("email:\(email)".utf8)) }
    static func key(address: String) -> [UInt8] { SHA256.digest(Array("address:\(address)".utf8)) }
}
