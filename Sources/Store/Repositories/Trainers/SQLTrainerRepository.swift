import Foundation
import HealthwheelCore
import StoreContract

struct SQLTrainerRepository: TrainerRepository {
    let database: any SQLDatabase
    /// Moved after every change to a trainer: cached principals are read again.
    let accounts: Generation

    static let columns = "t.id, t.company_id, t.email, t.name, t.role, t.created_at, t.updated_at"

    static func trainer(_ row: Row) throws -> Trainer {
        Trainer(
            id: try row["id"],
            companyId: try row["company_id"],
            email: try row["email"],
            name: try row["name"],
            role: try row["role"],
            createdAt: try row["created_at"],
            updatedAt: try row["updated_at"]
        )
    }

    func create(_ trainer: Trainer, passwordHash: String, audit: AuditEvent) async throws {
        try await database.write { db in
            try await Self.mapUniqueViolation {
                try await db.run(
                    """
                    INSERT INTO trainers (id, company_id, email, name, role, password_hash, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    trainer.id,
                    trainer.companyId,
                    trainer.email,
                    trainer.name,
                    trainer.role,
                    passwordHash,
                    trainer.createdAt,
                    trainer.updatedAt
                )
            }
            try await AuditChain.append(audit, db)
        }
    }

    func find(_ id: UUID, in company: UUID) async throws -> Trainer? {
        try await database.read { db in try await Self.find(id, in: company, db) }
    }

    static func find(_ id: UUID, in company: UUID, _ db: any SQLConnection) async throws -> Trainer? {
        try await db.query("SELECT \(columns) FROM trainers t WHERE t.id = ? AND t.company_id = ?", id, company).first.map(trainer)
    }

    func credentials(email: String, in company: UUID?, limit: Int) async throws -> [TrainerCredentials] {
        try await database.read { db in
            try await db.query(
                """
                SELECT \(Self.columns), t.password_hash FROM trainers t
                WHERE t.email = ?1 AND (t.company_id = ?2 OR ?2 IS NULL) ORDER BY t.company_id LIMIT ?3
                """,
                email,
                company,
                limit
            ).map { TrainerCredentials(trainer: try Self.trainer($0), passwordHash: try $0["password_hash"]) }
        }
    }

    func credentials(id: UUID, in company: UUID) async throws -> TrainerCredentials? {
        try await database.read { db in
            try await db.query("SELECT \(Self.columns), t.password_hash FROM trainers t WHERE t.id = ? AND t.company_id = ?", id, company)
                .first.map { TrainerCredentials(trainer: try Self.trainer($0), passwordHash: try $0["password_hash"]) }
        }
    }

    func list(in company: UUID, after cursor: Cursor?, limit: Int) async throws -> Page<Trainer> {
        let rows = try await database.read { db in
            if let cursor {
                return try await db.query(
                    """
                    SELECT \(Self.columns) FROM trainers t
                    WHERE t.company_id = ?1
                      AND (t.name > ?2 COLLATE NOCASE OR (t.name = ?2 COLLATE NOCASE AND t.id > ?3))
                    ORDER BY t.name COLLATE NOCASE, t.id LIMIT ?4
                    """,
                    company,
                    cursor.sortKey,
                    cursor.id,
                    limit + 1
                )
            }
            return try await db.query(
                "SELECT \(Self.columns) FROM trainers t WHERE t.company_id = ? ORDER BY t.name COLLATE NOCASE, t.id LIMIT ?",
                company,
                limit + 1
            )
        }
        let trainers = try rows.prefix(limit).map(Self.trainer)
        let next = rows.count > limit ? trainers.last.map { Cursor(sortKey: $0.name, id: $0.id) } : nil
        return Page(items: trainers, nextCursor: next)
    }

    func update(
        _ id: UUID,
        in company: UUID,
        newPasswordHash: String?,
        keepingSession: [UInt8]?,
        audit: AuditEvent,
        _ change: (inout Trainer, _ adminCount: Int) throws -> Void
    ) async throws -> Trainer? {
        defer { accounts.advance() }
        return try await database.write { db in
            try await db.lockCompany(company)
            guard var trainer = try await Self.find(id, in: company, db) else { return nil }
            try await change(&trainer, try Self.adminCount(company, db))
            try await Self.mapUniqueViolation {
                try await db.run(
                    "UPDATE trainers SET email = ?, name = ?, role = ?, updated_at = ? WHERE id = ? AND company_id = ?",
                    trainer.email,
                    trainer.name,
                    trainer.role,
                    trainer.updatedAt,
                    id,
                    company
                )
            }
            if let newPasswordHash {
                try await db.run("UPDATE trainers SET password_hash = ? WHERE id = ?", newPasswordHash, id)
                try await db.run("DELETE FROM sessions WHERE trainer_id = ? AND token_hash \(db.dialect.isDistinctFrom) ?", id, keepingSession)
            }
            try await AuditChain.append(audit, db)
            // What was saved, not what the closure left: only email, name, role and updatedAt are editable.
            return try await Self.find(id, in: company, db)
        }
    }

    func delete(_ id: UUID, in company: UUID, audit: AuditEvent, _ check: (Trainer, _ adminCount: Int) throws -> Void) async throws -> Bool {
        defer { accounts.advance() }
        return try await database.write { db in
            try await db.lockCompany(company)
            guard let trainer = try await Self.find(id, in: company, db) else { return false }
            try await check(trainer, try Self.adminCount(company, db))
            try await db.run("DELETE FROM trainers WHERE id = ? AND company_id = ?", id, company)
            try await AuditChain.append(audit, db)
            return true
        }
    }

    private static func adminCount(_ company: UUID, _ db: any SQLConnection) async throws -> Int {
        try await db.scalar("SELECT count(*) FROM trainers WHERE company_id = ? AND role = 'admin'", company)
    }

    private static func mapUniqueViolation(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as any UniqueViolationReporting where error.isUniqueViolation {
            throw TrainerRepositoryError.emailTaken
        }
    }
}

extension Role: SQLConvertible {}
