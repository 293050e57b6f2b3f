import Foundation
import StoreContract

struct SQLIdempotencyRepository: IdempotencyRepository {
    let database: any SQLDatabase

    /// How long a key is remembered.
    static let lifetime: TimeInterval = 24 * 60 * 60
    /// `status` of a claim written by builds before keys were kept with their work: such a claim never finished.
    static let unfinished = 0

    func find(trainer: UUID, key: String, fingerprint: String, at now: Date) async throws -> IdempotencyLookup {
        try await database.read { db in try await Self.lookup(trainer: trainer, key: key, fingerprint: fingerprint, at: now, db) }
    }

    static func lookup(trainer: UUID, key: String, fingerprint: String, at now: Date, _ db: any SQLConnection) async throws -> IdempotencyLookup {
        guard
            let row = try await db.query(
                "SELECT fingerprint, status, body FROM idempotent_responses WHERE trainer_id = ? AND key = ? AND created_at >= ?",
                trainer,
                key,
                now.addingTimeInterval(-lifetime)
            ).first
        else { return .new }
        let status: Int = try row["status"]
        if status == unfinished { return .new }
        guard try row["fingerprint"] as String == fingerprint else { return .mismatch }
        return .done(IdempotentResponse(status: status, body: try db.unsealedBytes(row, "body", bodyContext) ?? []))
    }

    /// Inside the write that does the work: throws `IdempotencyKeyUsed` when the key is taken (nothing is
    /// written then), else stores the record. Expired keys of the trainer go first (a short primary-key range).
    static func keep(_ record: IdempotencyRecord, _ db: any SQLConnection) async throws {
        let earlier = try await lookup(trainer: record.trainer, key: record.key, fingerprint: record.fingerprint, at: record.createdAt, db)
        guard earlier == .new else { throw IdempotencyKeyUsed(earlier: earlier) }
        // Only what `lookup` counts as absent: a row another node committed meanwhile stays.
        _ = try await db.run(
            "DELETE FROM idempotent_responses WHERE trainer_id = ? AND (created_at < ? OR (key = ? AND status = ?))",
            record.trainer,
            record.createdAt.addingTimeInterval(-lifetime),
            record.key,
            unfinished
        )
        // On PostgreSQL another node may have kept the same key since `lookup` (writes there run side by side):
        // its row wins, and this request is told about it as if `lookup` had found it.
        let inserted = try await db.run(
            """
            INSERT INTO idempotent_responses (trainer_id, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)\(
                db.dialect == .postgres ? " ON CONFLICT (trainer_id, key) DO NOTHING" : "")
            """,
            record.trainer,
            record.key,
            record.fingerprint,
            record.response.status,
            try db.sealed(bytes: record.response.body, bodyContext),
            record.createdAt
        )
        if inserted == 0 {
            let earlier = try await lookup(trainer: record.trainer, key: record.key, fingerprint: record.fingerprint, at: record.createdAt, db)
            throw IdempotencyKeyUsed(earlier: earlier)
        }
    }

    /// A kept answer is sealed where the database is not encrypted: it holds a result's values or a client.
    static let bodyContext = "idempotent_responses.body"

    /// Deletes the company's kept answers whose JSON names `client` (by id, in either case): an erasure must not
    /// leave a replayable copy of them. Read and matched here, as the answers may be sealed.
    static func forget(naming client: UUID, in company: UUID, _ db: any SQLConnection) async throws {
        let kept = try await db.query(
            "SELECT r.trainer_id, r.key, r.body FROM idempotent_responses r JOIN trainers t ON t.id = r.trainer_id WHERE t.company_id = ?",
            company
        )
        let names = [client.uppercaseHyphenated, client.lowercaseHyphenated]
        for row in kept {
            let body = String(decoding: try db.unsealedBytes(row, "body", bodyContext) ?? [], as: UTF8.self)
            guard names.contains(where: body.contains) else { continue }
            let trainer: String = try row["trainer_id"]
            let key: String = try row["key"]
            try await db.run("DELETE FROM idempotent_responses WHERE trainer_id = ? AND key = ?", trainer, key)
        }
    }
}
