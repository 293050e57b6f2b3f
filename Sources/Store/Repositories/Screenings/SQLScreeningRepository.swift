import Foundation
import HealthwheelCore
import StoreContract

struct SQLScreeningRepository: ScreeningRepository {
    let database: any SQLDatabase

    static let columns = """
        s.id, s.client_id, s.questionnaire_id, s.questionnaire_version, s.status, s.answers, s.flags, s.created_at,
        s.created_by, s.updated_at, s.completed_at, s.completed_by
        """
    static let fromClient = "FROM screenings s JOIN clients c ON c.id = s.client_id"

    static func screening(_ row: Row, _ db: any SQLConnection) throws -> Screening {
        let decoder = JSONDecoder()
        return Screening(
            id: try row["id"],
            clientId: try row["client_id"],
            questionnaireId: try row["questionnaire_id"],
            questionnaireVersion: try row["questionnaire_version"],
            status: try row["status"],
            answers: try decoder.decode([String: JSONValue].self, from: Data((try db.unsealed(row, "answers", "screenings.answers") ?? "").utf8)),
            flags: try decoder.decode([String].self, from: Data((try row["flags"] as String).utf8)),
            createdAt: try row["created_at"],
            createdBy: try row["created_by"],
            updatedAt: try row["updated_at"],
            completedAt: try row["completed_at"],
            completedBy: try row["completed_by"]
        )
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func create(_ screening: Screening, in company: UUID, audit: AuditEvent) async throws -> Bool {
        do {
            return try await insert(screening, in: company, audit: audit)
        } catch let error as any UniqueViolationReporting where error.isUniqueViolation {
            throw RecordIdTaken()
        }
    }

    private func insert(_ screening: Screening, in company: UUID, audit: AuditEvent) async throws -> Bool {
        try await database.write { db in
            try await db.lockCompany(company)
            guard try await db.query("SELECT 1 FROM clients WHERE id = ? AND company_id = ?", screening.clientId, company).first != nil else {
                return false
            }
            try await db.run(
                """
                INSERT INTO screenings (id, client_id, questionnaire_id, questionnaire_version, status, answers, flags,
                    created_at, created_by, updated_at, completed_at, completed_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                screening.id,
                screening.clientId,
                screening.questionnaireId,
                screening.questionnaireVersion,
                screening.status,
                try db.sealed(try Self.json(screening.answers), "screenings.answers"),
                try Self.json(screening.flags),
                screening.createdAt,
                screening.createdBy,
                screening.updatedAt,
                screening.completedAt,
                screening.completedBy
            )
            try await AuditChain.append(audit, db)
            return true
        }
    }

    func find(_ id: UUID, client: UUID, in company: UUID) async throws -> Screening? {
        try await database.read { db in try await Self.find(id, client: client, in: company, db) }
    }

    static func find(_ id: UUID, client: UUID, in company: UUID, _ db: any SQLConnection) async throws -> Screening? {
        try await db.query("SELECT \(columns) \(fromClient) WHERE s.id = ? AND s.client_id = ? AND c.company_id = ?", id, client, company)
            .first.map { try screening($0, db) }
    }

    func list(client: UUID, in company: UUID) async throws -> [Screening] {
        try await database.read { db in
            try await db.query(
                "SELECT \(Self.columns) \(Self.fromClient) WHERE s.client_id = ? AND c.company_id = ? ORDER BY s.created_at DESC, s.id",
                client,
                company
            ).map { try Self.screening($0, db) }
        }
    }

    func update(
        _ id: UUID,
        client clientId: UUID,
        in company: UUID,
        audit: AuditEvent,
        _ change: (Screening, Client) throws -> (screening: Screening, revisions: [AnswerRevision], client: Client?)
    ) async throws -> Screening? {
        try await database.write { db in
            try await db.lockCompany(company)
            guard let screening = try await Self.find(id, client: clientId, in: company, db),
                let client = try await SQLClientRepository.find(clientId, in: company, db)?.client
            else { return nil }
            let result = try change(screening, client)
            let updated = result.screening
            try await db.run(
                """
                UPDATE screenings SET status = ?, answers = ?, flags = ?, updated_at = ?, completed_at = ?, completed_by = ?
                WHERE id = ?
                """,
                updated.status,
                try db.sealed(try Self.json(updated.answers), "screenings.answers"),
                try Self.json(updated.flags),
                updated.updatedAt,
                updated.completedAt,
                updated.completedBy,
                id
            )
            for revision in result.revisions {
                try await db.run(
                    """
                    INSERT INTO screening_revisions (screening_id, field, old_value, new_value, changed_by, changed_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    id,
                    revision.field,
                    try db.sealed(try Self.json(revision.oldValue), "screening_revisions.old_value"),
                    try db.sealed(try Self.json(revision.newValue), "screening_revisions.new_value"),
                    revision.changedBy,
                    revision.changedAt
                )
            }
            if let changedClient = result.client, changedClient != client {
                try await SQLClientRepository.save(ClientRow(changedClient), db)
            }
            try await AuditChain.append(audit, db)
            return updated
        }
    }

    func history(of id: UUID, client: UUID, in company: UUID) async throws -> [AnswerRevision]? {
        try await database.read { db in
            guard try await Self.find(id, client: client, in: company, db) != nil else { return nil }
            let decoder = JSONDecoder()
            return try await db.query(
                "SELECT field, old_value, new_value, changed_by, changed_at FROM screening_revisions WHERE screening_id = ? ORDER BY id",
                id
            ).map { row in
                AnswerRevision(
                    field: try row["field"],
                    oldValue: try decoder.decode(
                        JSONValue.self,
                        from: Data((try db.unsealed(row, "old_value", "screening_revisions.old_value") ?? "").utf8)
                    ),
                    newValue: try decoder.decode(
                        JSONValue.self,
                        from: Data((try db.unsealed(row, "new_value", "screening_revisions.new_value") ?? "").utf8)
                    ),
                    changedBy: try row["changed_by"],
                    changedAt: try row["changed_at"]
                )
            }
        }
    }
}

extension Screening.Status: SQLConvertible {}
