import Foundation

/// Failed logins, by the digest of what they are counted against (an email, a client address). In the database,
/// so that every node behind a balancer counts the same failures and a restart forgets none.
public protocol LoginFailureRepository: Sendable {
    /// When each of `keys` failed after `since`, oldest first; a key without failures is absent.
    func failures(of keys: [[UInt8]], since: Date) async throws -> [[UInt8]: [Date]]
    /// Records a failure of each of `keys` at `now`, and forgets every failure from before `forgetBefore`
    /// (which keeps the table as small as the limit's window).
    func recordFailure(of keys: [[UInt8]], at now: Date, forgetBefore: Date) async throws
    /// Forgets `key`'s failures: a successful login clears its email's count.
    func clear(_ key: [UInt8]) async throws
}
