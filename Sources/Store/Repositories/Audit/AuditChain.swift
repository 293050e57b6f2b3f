import Cryptography
import Foundation
import HealthwheelCore
import StoreContract

/// A row as read from the database; inside `AuditChain`, `Row` is a row of the chain.
typealias SQLRow = Row

/// How rows join the audit trail and how the trail is checked (migration 0015 describes the columns). Each row's
/// hash covers the previous row's hash, its kept fields and the digest of its erasable ones, so altering,
/// removing or inserting a row breaks the chain there, while erasure can still blank whom a row was about.
///
/// The hash is an HMAC under the audit key (`AuditKey`), which the database never holds: rewriting a row and
/// hashing every later one again takes the key, not just write access. Rows cut off the end leave a chain that
/// still follows; a checkpoint of the head kept outside the database (`AuditCheckpointFile`) names them.
enum AuditChain {
    /// What the first row's hash follows.
    static let genesis = [UInt8](repeating: 0, count: 32)

    /// Appends `event` inside the caller's transaction: it commits or rolls back with the change it describes.
    static func append(_ event: AuditEvent, _ db: any SQLConnection) async throws {
        try await append(Entry(event), db)
    }

    /// Appends `entry` inside the caller's transaction: it commits or rolls back with the change it describes.
    /// On SQLite one writer thread writes every row, so reading the last one is enough; on PostgreSQL the row
    /// takes its place from `audit_head` (see `appendingAtHead`).
    static func append(_ entry: Entry, _ db: any SQLConnection) async throws {
        if db.dialect == .postgres {
            let append = try appendingAtHead(entry, key: key(of: db))
            try await db.run("WITH \(append.head) \(append.insert)", append.arguments)
            return
        }
        let key = try key(of: db)
        let last = try await db.query("SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1").first
        let sequence: Int64 = try (last?["seq"] ?? 0) + 1
        let previous: [UInt8] = try last?["hash"] ?? genesis
        try await db.run(
            "INSERT INTO audit_events (\(insertedColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [sequence] + entry.fields + [entry.hash(at: sequence, after: previous, key: key)]
        )
    }

    /// An event's row made ready before its write: the stored fields, with the fresh salt of its subject digest,
    /// and the bytes its hash covers after the sequence. Only the sequence and the hash, which follow from the row
    /// before, are left for `append`, so a write made on the one writer thread (a recorded result) spends none of
    /// that thread's time on the rest.
    struct Entry: Sendable {
        /// The stored values of the columns after `seq` and before `hash`, in `insertedColumns`' order.
        let fields: [any SQLConvertible]
        /// `Row.afterSequence` of the row.
        let afterSequence: [UInt8]

        init(_ event: AuditEvent) {
            let salt = SecureRandom.bytes(16)
            // The sequence is the append's to give: neither the fields nor the bytes after it depend on it.
            let row = Row(
                sequence: 0,
                at: Int64((event.at.timeIntervalSince1970 * 1000).rounded(.down)),
                companyId: event.companyId.lowercaseHyphenated,
                actor: event.actor.kind,
                actorId: event.actor.id?.lowercaseHyphenated,
                action: event.name,
                subjectDigest: subjectDigest(salt: salt, subjectId: event.subjectId, clientId: event.clientId?.lowercaseHyphenated)
            )
            fields = row.fields(event, salt: salt)
            afterSequence = row.afterSequence
        }

        /// `Row.hash` of the row at `sequence`.
        func hash(at sequence: Int64, after previous: [UInt8], key: AuditKey) -> [UInt8] {
            keyedHash(previous, sequence, afterSequence, key)
        }
    }

    /// PostgreSQL: appends `entries` in order inside the caller's transaction, hashed here as SQLite's rows are:
    /// the head's row is locked and read once, then the rows go in and the head moves on in one statement, however
    /// many there are (a group of results recorded together, `GroupedResultInserts`).
    static func appendAll(_ entries: [Entry], _ db: any SQLConnection) async throws {
        guard !entries.isEmpty else { return }
        let key = try key(of: db)
        guard let head = try await db.query("SELECT seq, hash FROM audit_head FOR UPDATE").first else {
            throw StoreError.corrupt("audit_head has no row")
        }
        var sequence: Int64 = try head["seq"]
        var previous: [UInt8] = try head["hash"]
        var values: [any SQLConvertible] = []
        for entry in entries {
            sequence += 1
            previous = entry.hash(at: sequence, after: previous, key: key)
            values += [sequence] + entry.fields + [previous]
        }
        let row = "(" + Array(repeating: "?", count: 11).joined(separator: ", ") + ")"
        try await db.run(
            """
            WITH moved AS (UPDATE audit_head SET seq = ?, hash = ?)
            INSERT INTO audit_events (\(insertedColumns)) VALUES \(Array(repeating: row, count: entries.count).joined(separator: ", "))
            """,
            [sequence, previous] + values
        )
    }

    /// The connection's audit key: every database that writes audit rows is opened with one.
    static func key(of db: any SQLConnection) throws -> AuditKey {
        guard let key = db.auditKey else { throw StoreError.noAuditKey }
        return key
    }

    /// PostgreSQL's append, as two parts of one statement: `head`, a WITH entry that moves `audit_head` on by one
    /// row and works out the new hash there (the same bytes as `Row.hash`: HMAC from the key's pads, see
    /// `AuditKey.pads`), and `insert`, the main statement that stores the row with them. The head's row lock, held
    /// to commit, orders appends from every node, so no other lock is needed for the chain; a caller adding its
    /// own WITH entries before `head` names the last of them in `after`, so that they run (and take their locks)
    /// before the head is taken, never while it is held.
    static func appendingAtHead(
        _ entry: Entry,
        key: AuditKey,
        after: String? = nil
    ) -> (head: String, insert: String, arguments: [any SQLConvertible]) {
        let head = """
            head AS (UPDATE audit_head SET seq = seq + 1, hash = \(keyedHashSQL)\(
                after.map { " WHERE EXISTS (SELECT 1 FROM \($0))" } ?? "") RETURNING seq, hash)
            """
        let insert = "INSERT INTO audit_events (\(insertedColumns)) SELECT seq, ?, ?, ?, ?, ?, ?, ?, ?, ?, hash FROM head"
        let (inner, outer) = key.pads
        return (head, insert, [outer, inner, entry.afterSequence] + entry.fields)
    }

    /// HMAC-SHA-256 in PostgreSQL's SQL over the previous hash, the new sequence and the row's other fields; its
    /// arguments are the outer pad, the inner pad and `Row.afterSequence`.
    private static let keyedHashSQL = "sha256(?::bytea || sha256(?::bytea || hash || convert_to((seq + 1)::text, 'UTF8') || ?))"

    private static let insertedColumns = "seq, at, company_id, actor, actor_id, action, subject_id, client_id, subject_salt, subject_digest, hash"

    /// Blanks whom the company's rows about `client` were about (erasure); their place in the chain stays.
    static func erase(client: UUID, in company: UUID, _ db: any SQLConnection) async throws {
        try await db.run(
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

        /// The hashed fields of a row as read (`selectRows`' columns).
        init(_ stored: SQLRow) throws {
            sequence = try stored["seq"]
            at = try stored["at"]
            companyId = try stored["company_id"]
            actor = try stored["actor"]
            actorId = try stored["actor_id"]
            action = try stored["action"]
            subjectDigest = try stored["subject_digest"]
        }

        init(sequence: Int64, at: Int64, companyId: String, actor: String, actorId: String?, action: String, subjectDigest: [UInt8]) {
            self.sequence = sequence
            self.at = at
            self.companyId = companyId
            self.actor = actor
            self.actorId = actorId
            self.action = action
            self.subjectDigest = subjectDigest
        }

        /// HMAC-SHA-256 under `key` of the previous hash, the sequence, the kept fields as lines of text, and the
        /// subject digest.
        func hash(after previous: [UInt8], key: AuditKey) -> [UInt8] {
            keyedHash(previous, sequence, afterSequence, key)
        }

        /// The same bytes under plain SHA-256: how rows were chained before the chain was keyed (see `adopt`).
        func unkeyedHash(after previous: [UInt8]) -> [UInt8] {
            SHA256.digest(previous + Array("\(sequence)".utf8) + afterSequence)
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

    /// HMAC-SHA-256 under `key` of the previous hash, the sequence as text and what the row's hash covers after it.
    private static func keyedHash(_ previous: [UInt8], _ sequence: Int64, _ afterSequence: [UInt8], _ key: AuditKey) -> [UInt8] {
        key.mac(previous, Array("\(sequence)".utf8), afterSequence)
    }

    /// SHA-256 of the salt, then the subject and client ids as lines (empty when absent).
    static func subjectDigest(salt: [UInt8], subjectId: String?, clientId: String?) -> [UInt8] {
        SHA256.digest(salt + Array("\(subjectId ?? "")\n\(clientId ?? "")\n".utf8))
    }

    /// Checks every row from the first, `batch` rows per read so memory stays flat however long the trail, and
    /// then the trail's end against `checkpoint` (a head kept outside the database): rows it names that are gone,
    /// or a row there with another hash, are reported. Each read is the database's own (on PostgreSQL, on its
    /// threads), so the caller only suspends.
    static func verify(_ database: any SQLDatabase, against checkpoint: AuditHead? = nil, batch: Int = 2_000) async throws -> AuditVerification {
        guard let key = database.auditKey else { throw StoreError.noAuditKey }
        var walk = Walk(checkpoint: checkpoint) { row, previous in row.hash(after: previous, key: key) }
        while true {
            let from = walk.expected
            let rows = try await database.read { db in try await db.query(selectRows, from, batch) }
            if let altered = try walk.follow(rows) { return altered }
            if rows.count < batch { return walk.end() }
        }
    }

    private static let selectRows = """
        SELECT seq, at, company_id, actor, actor_id, action, subject_id, client_id, subject_salt, subject_digest, hash
        FROM audit_events WHERE seq >= ? ORDER BY seq LIMIT ?
        """

    /// Following the chain row by row: what the next row must be, and what has been checked.
    struct Walk {
        let checkpoint: AuditHead?
        let hash: (Row, [UInt8]) -> [UInt8]
        var previous = genesis
        var expected: Int64 = 1
        var checked = 0
        /// The stored hash of the row the checkpoint names, once passed.
        var atCheckpoint: [UInt8]?

        init(checkpoint: AuditHead?, hash: @escaping (Row, [UInt8]) -> [UInt8]) {
            self.checkpoint = checkpoint
            self.hash = hash
        }

        func altered(_ sequence: Int64, _ reason: String) -> AuditVerification {
            AuditVerification(rowsChecked: checked, firstAltered: .init(sequence: sequence, reason: reason))
        }

        /// The first row of `rows` that does not follow, as a verification; nil when all do.
        mutating func follow(_ rows: [SQLRow]) throws -> AuditVerification? {
            for stored in rows {
                let row = try Row(stored)
                let sequence = row.sequence
                guard sequence == expected else { return altered(expected, "row \(expected) is missing") }
                let subjectId: String? = try stored["subject_id"]
                let clientId: String? = try stored["client_id"]
                if let salt: [UInt8] = try stored["subject_salt"] {
                    guard subjectDigest(salt: salt, subjectId: subjectId, clientId: clientId) == row.subjectDigest else {
                        return altered(sequence, "its subject or client does not match its digest")
                    }
                } else if subjectId != nil || clientId != nil {
                    return altered(sequence, "it names a subject although it was erased")
                }
                let stored: [UInt8] = try stored["hash"]
                guard hash(row, previous) == stored else {
                    return altered(sequence, "its hash does not follow from its fields and the row before under the audit key")
                }
                if sequence == checkpoint?.sequence { atCheckpoint = stored }
                previous = stored
                expected += 1
                checked += 1
            }
            return nil
        }

        /// The whole trail followed: intact, unless the checkpoint names rows past its end or another hash.
        func end() -> AuditVerification {
            if let checkpoint {
                let last = expected - 1
                if checkpoint.sequence > last {
                    let missing = last + 1 == checkpoint.sequence ? "row \(checkpoint.sequence) is" : "rows \(last + 1) to \(checkpoint.sequence) are"
                    return altered(last + 1, "\(missing) missing: the trail ends at row \(last), its checkpointed head is row \(checkpoint.sequence)")
                }
                if let atCheckpoint, atCheckpoint != checkpoint.hash {
                    return altered(checkpoint.sequence, "its hash is not the one its checkpoint kept")
                }
            }
            return AuditVerification(rowsChecked: checked, firstAltered: nil)
        }
    }

    /// The trail's newest row: its place and hash, what a checkpoint keeps. Nil for an empty trail.
    static func head(_ db: any SQLConnection) async throws -> AuditHead? {
        try await db.query("SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1").first.map { row in
            AuditHead(sequence: try row["seq"], hash: try row["hash"])
        }
    }

    /// Makes the trail the connection's key's (at start-up, once migrations ran), in one write transaction:
    /// - a trail already keyed under this key: nothing to do; under another: `StoreError.wrongAuditKey`;
    /// - an empty trail, or one that follows under this key (its mark was lost): the key's mark is stored;
    /// - a trail chained before keys existed (plain SHA-256) that follows as such: each row's hash is made again
    ///   under the key, in order, and the mark stored;
    /// - anything else is left as it is, unmarked, and reported: `audit verify` names where it breaks.
    static func adopt(_ db: any SQLConnection) async throws -> AuditAdoption {
        let key = try key(of: db)
        // On PostgreSQL the head's lock orders this against every append and against other nodes starting.
        if db.dialect == .postgres { try await db.run("SELECT 1 FROM audit_head FOR UPDATE") }
        if let stored: [UInt8] = try await db.query("SELECT key_check FROM audit_key").first?["key_check"] {
            guard stored == key.check else { throw StoreError.wrongAuditKey }
            return .unchanged
        }
        let rows = try await db.query(selectRows, 1, Int64.max)
        var keyed = Walk(checkpoint: nil) { row, previous in row.hash(after: previous, key: key) }
        if try keyed.follow(rows) == nil {
            try await db.run("INSERT INTO audit_key (key_check) VALUES (?)", key.check)
            return .marked(rows: rows.count)
        }
        var unkeyed = Walk(checkpoint: nil) { row, previous in row.unkeyedHash(after: previous) }
        if let broken = try unkeyed.follow(rows) { return .broken(broken) }
        // Every row follows under plain SHA-256: the same chain again, keyed.
        var previous = genesis
        for stored in rows {
            let row = try Row(stored)
            previous = row.hash(after: previous, key: key)
            try await db.run("UPDATE audit_events SET hash = ? WHERE seq = ?", previous, row.sequence)
        }
        if db.dialect == .postgres { try await db.run("UPDATE audit_head SET hash = ?", previous) }
        try await db.run("INSERT INTO audit_key (key_check) VALUES (?)", key.check)
        return .rekeyed(rows: rows.count)
    }
}
