import Foundation
import HealthwheelCore
import StoreContract

struct SQLAuditRepository: AuditRepository {
    let database: any SQLDatabase
    private static let noId = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    func list(in company: UUID, filter: AuditFilter, after cursor: Cursor?, limit: Int) async throws -> Page<StoredAuditEvent> {
        var conditions = ["company_id = ?"]
        var arguments: [any SQLConvertible] = [company]
        func add(_ condition: String, _ value: (any SQLConvertible)?) {
            guard let value else { return }
            conditions.append(condition)
            arguments.append(value)
        }
        add("client_id = ?", filter.clientId)
        add("actor_id = ?", filter.actorId)
        add("action = ?", filter.action)
        add("at >= ?", filter.from)
        add("at <= ?", filter.to)
        if let cursor {
            // The API hands out sequences only; anything else continues nothing.
            guard let sequence = Int64(cursor.sortKey) else { return Page(items: [], nextCursor: nil) }
            add("seq < ?", sequence)
        }
        arguments.append(limit + 1)
        let events = try await database.longRead(for: company) { [conditions, arguments] db in
            try await db.query(
                """
                SELECT seq, at, company_id, actor, actor_id, action, subject_id, client_id, subject_salt IS NULL AS erased
                FROM audit_events WHERE \(conditions.joined(separator: " AND ")) ORDER BY seq DESC LIMIT ?
                """,
                arguments
            ).map(Self.event)
        }
        // The sequence alone orders the trail: the cursor's id is not needed and left empty.
        return Page(fetched: events, limit: limit) { Cursor(sortKey: String($0.sequence), id: Self.noId) }
    }

    func events(in company: UUID, after sequence: Int64, limit: Int) async throws -> [StoredAuditEvent] {
        try await database.read { db in
            try await db.query(
                """
                SELECT seq, at, company_id, actor, actor_id, action, subject_id, client_id, subject_salt IS NULL AS erased, hash
                FROM audit_events WHERE company_id = ? AND seq > ? ORDER BY seq LIMIT ?
                """,
                company,
                sequence,
                limit
            ).map { row in
                var event = try Self.event(row)
                event.hash = try row["hash"]
                return event
            }
        }
    }

    func position(in company: UUID, checking sequence: Int64) async throws -> AuditPosition {
        try await database.read { db in
            let row = try await db.query(
                """
                SELECT (SELECT seq FROM audit_events WHERE company_id = ? ORDER BY seq DESC LIMIT 1) AS newest,
                    (SELECT hash FROM audit_events WHERE seq = ? AND company_id = ?) AS hash
                """,
                company,
                sequence,
                company
            ).first
            let newest: Int64? = try row?["newest"]
            return AuditPosition(newest: newest ?? 0, hashAtSequence: try row?["hash"])
        }
    }

    func wasRemoved(_ subject: AuditEvent.Subject, _ id: UUID, client: UUID, in company: UUID) async throws -> Bool {
        try await database.read { db in
            try await db.query(
                """
                SELECT 1 AS removed FROM audit_events
                WHERE client_id = ? AND company_id = ? AND subject_id = ? AND action IN (?, ?) LIMIT 1
                """,
                client,
                company,
                id.lowercaseHyphenated,
                "\(subject.rawValue).deleted",
                "\(subject.rawValue).erased"
            ).isEmpty == false
        }
    }

    func record(_ event: AuditEvent) async throws {
        try await database.write { try await AuditChain.append(event, $0) }
    }

    func verify(against checkpoint: AuditHead?) async throws -> AuditVerification {
        try await AuditChain.verify(database, against: checkpoint)
    }

    func head() async throws -> AuditHead? {
        try await database.read { try await AuditChain.head($0) }
    }

    func adoptKey() async throws -> AuditAdoption {
        try await database.write { try await AuditChain.adopt($0) }
    }

    /// A line as read with the columns `list` selects (`action`, `actor`, `actor_id`, … and `erased`).
    static func event(_ row: Row) throws -> StoredAuditEvent {
        let action: String = try row["action"]
        guard let dot = action.firstIndex(of: "."), let subject = AuditEvent.Subject(rawValue: String(action[..<dot])),
            let verb = AuditEvent.Action(rawValue: String(action[action.index(after: dot)...]))
        else { throw StoreError.corrupt("audit_events.action \(action)") }
        let actorKind: String = try row["actor"]
        guard let actor = AuditEvent.Actor(kind: actorKind, id: try row["actor_id"]) else {
            throw StoreError.corrupt("audit_events.actor \(actorKind)")
        }
        return StoredAuditEvent(
            sequence: try row["seq"],
            event: AuditEvent(
                at: try row["at"],
                companyId: try row["company_id"],
                actor: actor,
                action: verb,
                subject: subject,
                subjectId: try row["subject_id"],
                clientId: try row["client_id"]
            ),
            erased: try row["erased"]
        )
    }
}
