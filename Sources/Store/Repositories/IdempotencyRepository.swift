import Foundation

/// A response kept for an `Idempotency-Key`, so a retried request gets the first answer.
public struct IdempotentResponse: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}

/// What claiming a key found.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key is new (or its earlier request failed): the caller does the work, then completes or releases it.
    case claimed
    /// The key's request was done: answer with its response.
    case done(IdempotentResponse)
    /// The key's request is still running.
    case inProgress
    /// The key was used with a different request.
    case mismatch
}

/// Keys of retried POSTs per trainer, remembered for a day: long enough for any retry. A key is claimed before
/// the work and completed with its response after, so two concurrent retries never both do the work.
public protocol IdempotencyRepository: Sendable {
    /// `fingerprint` is a digest of the request, so a key reused for another request is refused, not answered.
    func claim(trainer: UUID, key: String, fingerprint: String, at now: Date) async throws -> IdempotencyClaim
    func complete(trainer: UUID, key: String, with response: IdempotentResponse) async throws
    /// Forgets a claim whose request failed, so a retry can try again.
    func release(trainer: UUID, key: String) async throws
}

struct SQLCipherIdempotencyRepository: IdempotencyRepository {
    let database: Database

    /// How long a key is remembered.
    static let lifetime: TimeInterval = 24 * 60 * 60
    /// A claim left unfinished this long (the process stopped mid-request) may be taken over.
    static let abandonedAfter: TimeInterval = 60
    /// `status` of a claim whose request has not finished.
    static let running = 0

    func claim(trainer: UUID, key: String, fingerprint: String, at now: Date) async throws -> IdempotencyClaim {
        try database.write { db in
            // Expired keys of this trainer go first: the primary key makes this a short range delete.
            _ = try db.run(
                "DELETE FROM idempotent_responses WHERE trainer_id = ? AND created_at < ?",
                trainer,
                now.addingTimeInterval(-Self.lifetime)
            )
            if let row = try db.query(
                "SELECT fingerprint, status, body, created_at FROM idempotent_responses WHERE trainer_id = ? AND key = ?",
                trainer,
                key
            ).first {
                guard try row["fingerprint"] as String == fingerprint else { return .mismatch }
                let status: Int = try row["status"]
                if status != Self.running { return .done(IdempotentResponse(status: status, body: try row["body"])) }
                let claimedAt: Date = try row["created_at"]
                if claimedAt > now.addingTimeInterval(-Self.abandonedAfter) { return .inProgress }
                _ = try db.run("DELETE FROM idempotent_responses WHERE trainer_id = ? AND key = ?", trainer, key)
            }
            try db.run(
                "INSERT INTO idempotent_responses (trainer_id, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                trainer,
                key,
                fingerprint,
                Self.running,
                [UInt8](),
                now
            )
            return .claimed
        }
    }

    func complete(trainer: UUID, key: String, with response: IdempotentResponse) async throws {
        try database.write { db in
            _ = try db.run(
                "UPDATE idempotent_responses SET status = ?, body = ? WHERE trainer_id = ? AND key = ?",
                response.status,
                response.body,
                trainer,
                key
            )
        }
    }

    func release(trainer: UUID, key: String) async throws {
        try database.write { db in
            _ = try db.run("DELETE FROM idempotent_responses WHERE trainer_id = ? AND key = ? AND status = ?", trainer, key, Self.running)
        }
    }
}
