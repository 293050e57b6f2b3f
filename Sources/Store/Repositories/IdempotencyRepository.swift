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

/// A key and the answer to keep for it, handed to the write that does the request's work: the answer is stored
/// in the same transaction as the work, so after a crash either both are there (a retry is answered from the
/// key) or neither is (a retry does the work). There is no "in progress" state that a dead process could leave.
public struct IdempotencyRecord: Sendable, Equatable {
    public var trainer: UUID
    public var key: String
    /// A digest of the request, so a key reused for another request is refused, not answered.
    public var fingerprint: String
    public var response: IdempotentResponse
    public var createdAt: Date

    public init(trainer: UUID, key: String, fingerprint: String, response: IdempotentResponse, createdAt: Date) {
        self.trainer = trainer
        self.key = key
        self.fingerprint = fingerprint
        self.response = response
        self.createdAt = createdAt
    }
}

/// What an earlier request with the same key left.
public enum IdempotencyLookup: Sendable, Equatable {
    /// Nothing: do the work.
    case new
    /// The same request was done: answer with its response.
    case done(IdempotentResponse)
    /// The key was used with a different request.
    case mismatch
}

/// Thrown by a write given an `IdempotencyRecord` whose key an earlier request (a concurrent retry) already
/// answered: the write stored nothing.
public struct IdempotencyKeyUsed: Error, Sendable, Equatable {
    public var earlier: IdempotencyLookup

    public init(earlier: IdempotencyLookup) {
        self.earlier = earlier
    }
}

/// Keys of retried POSTs per trainer, remembered for a day: long enough for any retry.
public protocol IdempotencyRepository: Sendable {
    /// Looks the key up before the work, so a retry of a finished request is answered at once.
    func find(trainer: UUID, key: String, fingerprint: String, at now: Date) async throws -> IdempotencyLookup
}

struct SQLCipherIdempotencyRepository: IdempotencyRepository {
    let database: Database

    /// How long a key is remembered.
    static let lifetime: TimeInterval = 24 * 60 * 60
    /// `status` of a claim written by builds before keys were kept with their work: such a claim never finished.
    static let unfinished = 0

    func find(trainer: UUID, key: String, fingerprint: String, at now: Date) async throws -> IdempotencyLookup {
        try database.read { db in try Self.lookup(trainer: trainer, key: key, fingerprint: fingerprint, at: now, db) }
    }

    static func lookup(trainer: UUID, key: String, fingerprint: String, at now: Date, _ db: Connection) throws -> IdempotencyLookup {
        guard
            let row = try db.query(
                "SELECT fingerprint, status, body FROM idempotent_responses WHERE trainer_id = ? AND key = ? AND created_at >= ?",
                trainer,
                key,
                now.addingTimeInterval(-lifetime)
            ).first
        else { return .new }
        let status: Int = try row["status"]
        if status == unfinished { return .new }
        guard try row["fingerprint"] as String == fingerprint else { return .mismatch }
        return .done(IdempotentResponse(status: status, body: try row["body"]))
    }

    /// Inside the write that does the work: throws `IdempotencyKeyUsed` when the key is taken (nothing is
    /// written then), else stores the record. Expired keys of the trainer go first (a short primary-key range).
    static func keep(_ record: IdempotencyRecord, _ db: Connection) throws {
        let earlier = try lookup(trainer: record.trainer, key: record.key, fingerprint: record.fingerprint, at: record.createdAt, db)
        guard earlier == .new else { throw IdempotencyKeyUsed(earlier: earlier) }
        _ = try db.run(
            "DELETE FROM idempotent_responses WHERE trainer_id = ? AND (created_at < ? OR key = ?)",
            record.trainer,
            record.createdAt.addingTimeInterval(-lifetime),
            record.key
        )
        try db.run(
            "INSERT INTO idempotent_responses (trainer_id, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            record.trainer,
            record.key,
            record.fingerprint,
            record.response.status,
            record.response.body,
            record.createdAt
        )
    }
}
