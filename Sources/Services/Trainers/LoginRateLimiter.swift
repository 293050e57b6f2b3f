import Foundation
import HealthwheelCore
import Synchronization

/// Counts failed logins per email and per client address in a sliding window. Once either is over its limit,
/// every attempt for it is refused until the oldest failure leaves the window, whether or not the email exists,
/// so the answer reveals nothing about accounts.
///
/// Held in memory: one server process is the unit of deployment for the embedded store. (Several stateless
/// nodes behind PostgreSQL would move this table into the shared database.)
public final class LoginRateLimiter: Sendable {
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

    enum Key: Hashable {
        case email(String)
        case address(String)
    }

    private let policy: Policy
    private let failures = Mutex<[Key: [Date]]>([:])
    /// Beyond this many tracked keys the oldest data is dropped first, bounding memory under a spray attack.
    private let maxTrackedKeys = 100_000

    /// One limiter per `Sessions`, so per process; its counts are lost on restart.
    public init(policy: Policy) {
        self.policy = policy
    }

    /// Seconds to wait before trying again, or nil if an attempt is allowed now.
    func retryAfter(email: String, address: String, now: Date) -> Int? {
        failures.withLock { table in
            [(Key.email(email), policy.failuresPerEmail), (Key.address(address), policy.failuresPerAddress)]
                .compactMap { key, limit -> Int? in
                    let recent = (table[key] ?? []).filter { now.timeIntervalSince($0) < policy.window }
                    guard recent.count >= limit, let oldest = recent.first else { return nil }
                    return max(1, Int((policy.window - now.timeIntervalSince(oldest)).rounded(.up)))
                }
                .max()
        }
    }

    func recordFailure(email: String, address: String, now: Date) {
        failures.withLock { table in
            if table.count >= maxTrackedKeys { prune(&table, now: now) }
            for key in [Key.email(email), Key.address(address)] {
                table[key, default: []].removeAll { now.timeIntervalSince($0) >= policy.window }
                table[key, default: []].append(now)
            }
        }
    }

    /// A successful login clears the email's failures (the address keeps its count).
    func recordSuccess(email: String) {
        _ = failures.withLock { $0.removeValue(forKey: .email(email)) }
    }

    private func prune(_ table: inout [Key: [Date]], now: Date) {
        table = table.filter { _, times in times.contains { now.timeIntervalSince($0) < policy.window } }
        if table.count >= maxTrackedKeys { table.removeAll() }
    }
}
