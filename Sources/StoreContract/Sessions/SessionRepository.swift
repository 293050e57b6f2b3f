import Foundation
import HealthwheelCore

/// Login sessions, keyed by the SHA-256 digest of their bearer token.
public protocol SessionRepository: Sendable {
    func create(tokenDigest: [UInt8], trainer: UUID, createdAt: Date, expiresAt: Date) async throws
    /// The caller behind a live (unexpired) session: the per-request check, one indexed read. Where the database
    /// is shared, the read also brings the company's client list version and `client`'s wheel stamp.
    func principal(tokenDigest: [UInt8], at now: Date, naming client: UUID?) async throws -> Principal?
    func delete(tokenDigest: [UInt8]) async throws
    /// Moves a live session's end to `expiresAt` (a sliding session, kept while it is used).
    func extend(tokenDigest: [UInt8], until expiresAt: Date) async throws
    /// Removes sessions that expired before `now`; returns how many.
    @discardableResult func purgeExpired(at now: Date) async throws -> Int
}

extension SessionRepository {
    /// The caller behind a live session, for a request that names no client.
    public func principal(tokenDigest: [UInt8], at now: Date) async throws -> Principal? {
        try await principal(tokenDigest: tokenDigest, at: now, naming: nil)
    }
}
