import Crypto
import Foundation
import HealthwheelCore

/// How rows join the audit trail and how the trail is checked (migration 0015 describes the columns). Each row's
/// hash covers the previous row's hash, its kept fields and the digest of its erasable ones, so altering,
/// removing or inserting a row breaks the chain there, while erasure can still blank whom a row was about.
enum AuditChain {
    /// What the first row's hash follows.
    static let genesis = [UInt8](repeating: 0, count: 32)

    /// Appends `event` inside the caller's transaction: it commits or rolls back with the change it describes.
    /// On SQLite one writer thread writes every row, so reading the last one is enough; on PostgreSQL the row
    /// takes its place from `audit_head` (see `appendingAtHead`).
    static func append(_ event: AuditEvent, _ db: any SQLConnection) throws {
        if db.dialect == .postgres {
            let append = appendingAtHead(event)
            try db.run("WITH \(append.head) \(append.insert)", append.arguments)
            return
        }
        let last = try db.query("SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1").first
        let sequence: Int64 = try (last?["seq"] ?? 0) + 1
        let previous: [UInt8] = try last?["hash"] ?? genesis
        let (row, salt) = Self.row(for: event, at: sequence)
        try db.run(
            "INSERT INTO audit_events (\(insertedColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [sequence] + row.fields(event, salt: salt) + [row.hash(after: previous)]
        )
    }

    /// PostgreSQL's append, as two parts of one statement: `head`, a WITH entry that moves `audit_head` on by one
    /// row and works out the new hash there (the same bytes as `Row.hash`), and `insert`, the main statement that
    /// stores the row with them. The head's row lock, held to commit, orders appends from every node, so no other
    /// lock is needed for the chain; a caller adding its own WITH entries before `head` names the last of them
    /// in `after`, so that they run (and take their locks) before the head is taken, never while it is held.
    static func appendingAtHead(_ event: AuditEvent, after: String? = nil) -> (head: String, insert: String, arguments: [any SQLConvertible]) {
        let (row, salt) = Self.row(for: event, at: 0)
        let head = """
            head AS (UPDATE audit_head SET seq = seq + 1, hash = sha256(hash || convert_to((seq + 1)::text, 'UTF8') || ?)\(
                after.map { " WHERE EXISTS (SELECT 1 FROM \($0))" } ?? "") RETURNING seq, hash)
            """
        let insert = "INSERT INTO audit_events (\(insertedColumns)) SELECT seq, ?, ?, ?, ?, ?, ?, ?, ?, ?, hash FROM head"
        return (head, insert, [row.afterSequence] + row.fields(event, salt: salt))
    }

    private static let insertedColumns = "seq, at, company_id, actor, actor_id, action, subject_id, client_id, subject_salt, subject_digest, hash"

    /// The hashed fields of `event`'s row at `sequence`, and the fresh salt of its subject digest.
    private static func row(for event: AuditEvent, at sequence: Int64) -> (Row, [UInt8]) {
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        let row = Row(
            sequence: sequence,
            at: Int64((event.at.timeIntervalSince1970 * 1000).rounded(.down)),
            companyId: event.companyId.lowercaseHyphenated,
            actor: event.actor.kind,
            actorId: event.actor.id?.lowercaseHyphenated,
            action: event.name,
            subjectDigest: subjectDigest(salt: salt, subjectId: event.subjectId, clientId: event.clientId?.lowercaseHyphenated)
        )
        return (row, salt)
    }

    /// Blanks whom the company's rows about `client` were about (erasure); their place in the chain stays.
    static func erase(client: UUID, in company: UUID, _ db: any SQLConnection) throws {
        try db.run(
            "UPDATE audit_events SET subject_id = NULL, client_id = NULL, subject_salt = NULL WHERE client_id = ? AND company_id = ?",
            client,
            company
        )
    }

    /// The fields a row's hash covers, as stored.
    struct Row {
        var sequence: Int64
        var at: Int64
        var companyId: String
        var actor: String
        var actorId: String?
        var action: String
        var subjectDigest: [UInt8]

        /// SHA-256 of the previous hash, the kept fields as lines of text, and the subject digest.
        func hash(after previous: [UInt8]) -> [UInt8] {
            var hasher = SHA256()
            hasher.update(data: previous)
            hasher.update(data: Array("\(sequence)".utf8))
            hasher.update(data: afterSequence)
            return Array(hasher.finalize())
        }

        /// What the hash covers after the sequence number: the other fields' lines and the subject digest.
        var afterSequence: [UInt8] {
            Array("\n\(at)\n\(companyId)\n\(actor)\n\(actorId ?? "")\n\(action)\n".utf8) + subjectDigest
        }

        /// The stored values of the columns after `seq` and before `hash`, in `insertedColumns`' order.
        func fields(_ event: AuditEvent, salt: [UInt8]) -> [any SQLConvertible] {
            [at, companyId, actor, actorId, action, event.subjectId, event.clientId, salt, subjectDigest]
        }
    }

    /// SHA-256 of the salt, then the subject and client ids as lines (empty when absent).
    static func subjectDigest(salt: [UInt8], subjectId: String?, clientId: String?) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: salt)
        hasher.update(data: Array("\(subjectId ?? "")\n\(clientId ?? "")\n".utf8))
        return Array(hasher.finalize())
    }

    /// Checks every row from the first, `batch` rows per read so memory stays flat however long the trail. Each
    /// read is the database's own (on PostgreSQL, on its threads), so the caller only suspends.
    static func verify(_ database: any SQLDatabase, batch: Int = 2_000) async throws -> AuditVerification {
        var previous = genesis
        var expected: Int64 = 1
        var checked = 0
        func altered(_ sequence: Int64, _ reason: String) -> AuditVerification {
            AuditVerification(rowsChecked: checked, firstAltered: .init(sequence: sequence, reason: reason))
        }
        while true {
            let rows = try await database.read { db in
                try db.query(
                    """
                    SELECT seq, at, company_id, actor, actor_id, action, subject_id, client_id, subject_salt, subject_digest, hash
                    FROM audit_events WHERE seq >= ? ORDER BY seq LIMIT ?
                    """,
                    expected,
                    batch
                )
            }
            for stored in rows {
                let sequence: Int64 = try stored["seq"]
                guard sequence == expected else {
                    return altered(expected, "row \(expected) is missing")
                }
                let row = Row(
                    sequence: sequence,
                    at: try stored["at"],
                    companyId: try stored["company_id"],
                    actor: try stored["actor"],
                    actorId: try stored["actor_id"],
                    action: try stored["action"],
                    subjectDigest: try stored["subject_digest"]
                )
                let subjectId: String? = try stored["subject_id"]
                let clientId: String? = try stored["client_id"]
                if let salt: [UInt8] = try stored["subject_salt"] {
                    guard subjectDigest(salt: salt, subjectId: subjectId, clientId: clientId) == row.subjectDigest else {
                        return altered(sequence, "its subject or client does not match its digest")
                    }
                } else if subjectId != nil || clientId != nil {
                    return altered(sequence, "it names a subject although it was erased")
                }
                let hash: [UInt8] = try stored["hash"]
                guard row.hash(after: previous) == hash else {
                    return altered(sequence, "its hash does not follow from its fields and the row before")
                }
                previous = hash
                expected += 1
                checked += 1
            }
            if rows.count < batch { return AuditVerification(rowsChecked: checked, firstAltered: nil) }
        }
    }
}
