import Foundation

/// A response kept for an `Idempotency-Key`, so a retried request gets the first answer.
public struct IdempotentResponse: Sendable, Equatable {
    /// A digest of the request the key was first used with.
    public var fingerprint: String
    public var status: Int
    public var body: [UInt8]

    public init(fingerprint: String, status: Int, body: [UInt8]) {
        self.fingerprint = fingerprint
        self.status = status
        self.body = body
    }
}

/// Responses kept per trainer and key for a day: long enough for any retry.
public protocol IdempotencyRepository: Sendable {
    func find(trainer: UUID, key: String, at now: Date) async throws -> IdempotentResponse?
    /// Keeps the response unless the key already has one (a concurrent retry won); returns the one kept.
    func keep(_ response: IdempotentResponse, trainer: UUID, key: String, at now: Date) async throws -> IdempotentResponse
    /// Forgets keys past their lifetime.
    func deleteExpired(at now: Date) async throws
}

struct SQLCipherIdempotencyRepository: IdempotencyRepository {
    let database: Database

    /// How long a key is remembered.
    static let lifetime: TimeInterval = 24 * 60 * 60

    func find(trainer: UUID, key: String, at now: Date) async throws -> IdempotentResponse? {
        try database.read { db in try Self.find(trainer: trainer, key: key, at: now, db) }
    }

    static func find(trainer: UUID, key: String, at now: Date, _ db: Connection) throws -> IdempotentResponse? {
        try db.query(
            "SELECT fingerprint, status, body FROM idempotent_responses WHERE trainer_id = ? AND key = ? AND created_at >= ?",
            trainer,
            key,
            now.addingTimeInterval(-lifetime)
        ).first.map { row in
            IdempotentResponse(fingerprint: try row["fingerprint"], status: try row["status"], body: try row["body"])
        }
    }

    func keep(_ response: IdempotentResponse, trainer: UUID, key: String, at now: Date) async throws -> IdempotentResponse {
        try database.write { db in
            if let existing = try Self.find(trainer: trainer, key: key, at: now, db) { return existing }
            _ = try db.run("DELETE FROM idempotent_responses WHERE trainer_id = ? AND key = ?", trainer, key)
            try db.run(
                "INSERT INTO idempotent_responses (trainer_id, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                trainer,
                key,
                response.fingerprint,
                response.status,
                response.body,
                now
            )
            return response
        }
    }

    func deleteExpired(at now: Date) async throws {
        try database.write { db in _ = try db.run("DELETE FROM idempotent_responses WHERE created_at < ?", now.addingTimeInterval(-Self.lifetime)) }
    }
}
