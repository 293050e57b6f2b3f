import Foundation
import HealthwheelCore
import StoreContract

struct SQLClientRepository: ClientRepository {
    let database: any SQLDatabase
    /// Every list request asks for the company's list version, and every result recorded for a client reads the
    /// client first: both are kept off the database while nothing was written that they are read from.
    private let listVersions: ReadCache<UUID, Int64>
    private let records: ReadCache<[UUID], ClientRecord?>
    /// A search word prefixing this many terms or more is common (see `pageQuery`).
    let commonTerms: Int
    /// What a `ClientRecord` is read from (and the list version, which triggers keep in `companies`).
    static let recordTables = ["clients", "client_photos", "screenings"]

    init(database: any SQLDatabase, commonTerms: Int = 4096) {
        self.database = database
        self.commonTerms = commonTerms
        listVersions = ReadCache(database: database, watching: Self.recordTables + ["companies"])
        records = ReadCache(database: database, watching: Self.recordTables)
    }

    /// A client's own columns: enough for `client(_:)`.
    static let clientColumns = """
        c.id, c.company_id, c.given_name, c.family_name, c.email, c.phone, c.birth_date, c.sex, c.height, c.mass, c.goal,
        c.notes, c.assigned_trainer_id, c.vcard_uid, c.created_at, c.updated_at
        """

    /// The client's columns and the overview a record shows (photo, screening): for `record(_:)`.
    static let columns = """
        \(clientColumns),
        EXISTS (SELECT 1 FROM client_photos p WHERE p.client_id = c.id) AS has_photo,
        (SELECT s.completed_at FROM screenings s WHERE s.client_id = c.id AND s.completed_at IS NOT NULL
            ORDER BY s.completed_at DESC LIMIT 1) AS latest_completed_at,
        (SELECT s.flags FROM screenings s WHERE s.client_id = c.id AND s.completed_at IS NOT NULL
            ORDER BY s.completed_at DESC LIMIT 1) AS latest_flags,
        EXISTS (SELECT 1 FROM screenings s WHERE s.client_id = c.id AND s.status = 'draft') AS has_draft
        """

    static func client(_ row: Row, _ db: any SQLConnection) throws -> Client {
        var client = Client(id: try row["id"], companyId: try row["company_id"], createdAt: try row["created_at"])
        client.givenName = try row["given_name"]
        client.familyName = try row["family_name"]
        client.email = try row["email"]
        client.phone = try row["phone"]
        client.birthDate = (try row["birth_date"] as String?).flatMap { CalendarDate($0) }
        client.sex = try row["sex"]
        client.height = try row["height"]
        client.mass = try row["mass"]
        client.goal = try row["goal"]
        client.notes = try db.unsealed(row, "notes", "clients.notes")
        client.assignedTrainerId = try row["assigned_trainer_id"]
        client.vcardUID = try row["vcard_uid"]
        client.updatedAt = try row["updated_at"]
        return client
    }

    static func record(_ row: Row, _ db: any SQLConnection) throws -> ClientRecord {
        let flags = (try row["latest_flags"] as String?).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        return ClientRecord(
            client: try client(row, db),
            hasPhoto: try row["has_photo"],
            screening: .init(latestCompletedAt: try row["latest_completed_at"], latestCompletedFlags: flags ?? [], hasDraft: try row["has_draft"])
        )
    }

    func create(_ client: Client, audit: AuditEvent) async throws {
        let row = ClientRow(client)
        do {
            try await database.write { db in try await Self.insert(row, audit: audit, db) }
        } catch let error as any UniqueViolationReporting where error.isUniqueViolation {
            throw RecordIdTaken()
        }
    }

    /// The columns a save writes, with their values: one list for INSERT and UPDATE.
    static let editableColumns = [
        "given_name", "family_name", "email", "phone", "birth_date", "sex", "height", "mass", "goal", "notes",
        "assigned_trainer_id", "vcard_uid", "sort_name", "updated_at",
    ]

    static func editableValues(_ row: ClientRow, _ db: any SQLConnection) throws -> [any SQLConvertible] {
        let client = row.client
        return [
            client.givenName, client.familyName, client.email, client.phone, client.birthDate?.description, client.sex,
            client.height, client.mass, client.goal, try db.sealed(client.notes, "clients.notes"), client.assignedTrainerId, client.vcardUID,
            row.sortName,
            client.updatedAt,
        ]
    }

    /// Inserts a new client with their search terms, moves the company's list version and appends `audit`.
    static func insert(_ row: ClientRow, audit: AuditEvent, _ db: any SQLConnection) async throws {
        let client = row.client
        let values: [any SQLConvertible] = [client.id, client.companyId, client.createdAt] + (try editableValues(row, db))
        if db.dialect == .postgres {
            // One statement, one round trip (an import makes thousands); the list version is moved before the
            // audit trail's head is taken, as every write locks the company's row first.
            let append = AuditChain.appendingAtHead(AuditChain.Entry(audit), key: try AuditChain.key(of: db), after: "listed")
            let terms = searchTermsInsert(of: row, count: row.terms.count)
            try await db.run(
                """
                WITH inserted AS (\(insertSQL) RETURNING company_id),
                \(terms.map { "termed AS (\($0.sql)), " } ?? "")
                listed AS (UPDATE companies SET clients_version = clients_version + 1 WHERE id = (SELECT company_id FROM inserted) RETURNING id),
                \(append.head)
                \(append.insert)
                """,
                values + (terms?.arguments ?? []) + append.arguments
            )
            return
        }
        try await db.run(insertSQL, values)
        // What the insert trigger did before migration 0007: each statement here changes one row, so SQLite needs
        // no statement journal for any of them.
        // OR FAIL: no statement journal for a one-row update (see SQLResultRepository.advanceResultsVersion).
        try await db.run("\(db.dialect.updateOrFail) companies SET clients_version = clients_version + 1 WHERE id = ?", client.companyId)
        try await saveSearchTerms(of: row, db)
        try await AuditChain.append(audit, db)
    }

    private static let insertSQL = """
        INSERT INTO clients (id, company_id, created_at, \(editableColumns.joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: editableColumns.count + 3).joined(separator: ", ")))
        """

    func find(_ id: UUID, in company: UUID, knownVersion: Int64?) async throws -> ClientRecord? {
        // Every change to what a record is read from moves the list version (triggers), so one read when the
        // version was `knownVersion` or later stays current while it stands.
        try await records.value(for: [id, company], known: knownVersion.map { Int(truncatingIfNeeded: $0) }) {
            try await database.read { db in try await Self.find(id, in: company, db) }
        }
    }

    func exists(_ id: UUID, in company: UUID) async throws -> Bool {
        try await find(id, in: company) != nil
    }

    static func find(_ id: UUID, in company: UUID, _ db: any SQLConnection) async throws -> ClientRecord? {
        try await db.query("SELECT \(columns) FROM clients c WHERE c.id = ? AND c.company_id = ?", id, company).first.map { try record($0, db) }
    }

    func list(in company: UUID, query: String?, after cursor: Cursor?, limit: Int) async throws -> Page<ClientRecord> {
        let words = query.map(ClientSearch.queryWords) ?? []
        let commonTerms = self.commonTerms
        // By SQL, a chain's roster can take long to page or search: off Swift's cooperative threads.
        return try await database.longRead(for: company) { db in
            // The page's ids first (index-only work), then the columns, whose per-client subqueries would
            // otherwise run for every match before the sort, not just for the page.
            let (pageQuery, arguments) = try await Self.pageQuery(
                in: company,
                words: words,
                after: cursor,
                limit: limit,
                db,
                commonTerms: commonTerms
            )
            let sql = """
                SELECT \(Self.columns), c.sort_name FROM (\(pageQuery)) page \(db.dialect.orderedJoin) clients c ON c.id = page.id
                ORDER BY c.sort_name, c.id
                """
            let rows = try await db.query(sql, arguments)
            let records = try rows.prefix(limit).map { try Self.record($0, db) }
            let next: Cursor? = rows.count > limit ? try rows[limit - 1].sortKeyCursor() : nil
            return Page(items: records, nextCursor: next)
        }
    }

    /// The query for a page's client ids, in list order, and its arguments. A search scans the term range of its
    /// rarest word, checks the other words against the terms the same rows carry, and sorts only the matches: its
    /// cost is that range. A word with `commonTerms` terms or more ("s" among 100,000 clients) would make that
    /// range most of the roster; when every word is that common, the list is walked in order instead, each client
    /// checked by an index seek per word, and the walk stops at the page's end: matches are dense there. Ranges are
    /// counted only up to the rarest so far, so choosing costs no more than the scan it saves.
    static func pageQuery(
        in company: UUID,
        words: [String],
        after cursor: Cursor?,
        limit: Int,
        _ db: any SQLConnection,
        commonTerms: Int
    ) async throws -> (sql: String, arguments: [any SQLConvertible]) {
        var arguments: [any SQLConvertible] = [company]
        var driving: String?
        var rarest = commonTerms
        // Longest first: usually the rarest, which makes the other counts stop early.
        for word in words.sorted(by: { $0.count > $1.count }) where driving != word {
            let countUpTo: Int = rarest
            let counted: Int64 = try await db.scalar(
                "SELECT count(*) FROM (SELECT 1 FROM client_search_terms WHERE company_id = ? AND term >= ? AND term < ? LIMIT ?) AS range",
                company,
                word,
                word + "\u{10FFFF}",
                countUpTo
            )
            if counted < Int64(rarest) {
                rarest = Int(counted)
                driving = word
            }
        }
        let pageQuery: String
        if let driving {
            var conditions = ["t.company_id = ?", "t.term >= ?", "t.term < ?"]
            arguments += [driving, driving + "\u{10FFFF}"]
            for word in words where word != driving {
                conditions.append("instr(t.all_terms, ?) > 0")
                arguments.append(" " + word)
            }
            if let cursor {
                conditions.append("(t.sort_name > ? OR (t.sort_name = ? AND t.client_id > ?))")
                arguments += [cursor.sortKey, cursor.sortKey, cursor.id]
            }
            pageQuery = """
                SELECT DISTINCT t.client_id AS id, t.sort_name FROM client_search_terms t
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY t.sort_name, t.client_id LIMIT ?
                """
        } else {
            var conditions = ["c.company_id = ?"]
            if let cursor {
                conditions.append("(c.sort_name > ? OR (c.sort_name = ? AND c.id > ?))")
                arguments += [cursor.sortKey, cursor.sortKey, cursor.id]
            }
            for word in words {
                conditions.append("EXISTS (SELECT 1 FROM client_search_terms t WHERE t.client_id = c.id AND t.term >= ? AND t.term < ?)")
                arguments += [word, word + "\u{10FFFF}"]
            }
            pageQuery = "SELECT c.id FROM clients c WHERE \(conditions.joined(separator: " AND ")) ORDER BY c.sort_name, c.id LIMIT ?"
        }
        arguments.append(limit + 1)
        return (pageQuery, arguments)
    }

    func all(in company: UUID) async throws -> [Client] {
        try await database.longRead(for: company) { db in
            try await db.query("SELECT \(Self.clientColumns) FROM clients c WHERE c.company_id = ? ORDER BY c.sort_name, c.id", company).map {
                try Self.client($0, db)
            }
        }
    }

    func listVersion(of company: UUID) async throws -> Int64 {
        try await listVersions.value(for: company) { try await database.read { db in try await Self.listVersion(of: company, db) } }
    }

    static func listVersion(of company: UUID, _ db: any SQLConnection) async throws -> Int64 {
        let version: Int64? = try await db.scalar("SELECT clients_version FROM companies WHERE id = ?", company)
        return version ?? 0
    }

    func scan(
        of company: UUID,
        ifAtMost maximum: Int,
        _ each: (ClientRecord, _ sortName: String) throws -> Void
    ) throws -> (version: Int64, count: Int) {
        try database.readBlocking { db in
            // The version first: rows read after it can only be newer, so a list labelled with it is never stale.
            let version = try await Self.listVersion(of: company, db)
            // Counting stops one past the maximum, so a roster of any size costs at most that many index entries.
            let countUpTo: Int = maximum + 1
            let counted: Int64 = try await db.scalar(
                "SELECT count(*) FROM (SELECT 1 FROM clients WHERE company_id = ? LIMIT ?) AS roster",
                company,
                countUpTo
            )
            guard counted <= Int64(maximum) else { return (version, Int(counted)) }
            var count = 0
            let sql = "SELECT \(Self.columns), c.sort_name FROM clients c WHERE c.company_id = ? ORDER BY c.sort_name, c.id"
            try await db.forEachRow(sql, [company]) { row in
                try each(try Self.record(row, db), try row["sort_name"])
                count += 1
            }
            // The scan filled this reader's page cache with the whole roster, pushing out the pages requests use:
            // let it go (16 MB) rather than keep it.
            if db.dialect == .sqlite { try await db.execute("PRAGMA shrink_memory") }
            return (version, count)
        }
    }

    func update(_ id: UUID, in company: UUID, audit: AuditEvent, _ change: (inout Client) throws -> Void) async throws -> ClientRecord? {
        try await database.write { db in
            try await db.lockCompany(company)
            guard var client = try await Self.find(id, in: company, db)?.client else { return nil }
            try change(&client)
            try await Self.save(ClientRow(client), db)
            try await AuditChain.append(audit, db)
            return try await Self.find(id, in: company, db)
        }
    }

    /// Writes every editable column of the client and refreshes its search terms.
    static func save(_ row: ClientRow, _ db: any SQLConnection) async throws {
        let client = row.client
        try await db.run(
            "UPDATE clients SET \(editableColumns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ? AND company_id = ?",
            try editableValues(row, db) + [client.id, client.companyId]
        )
        try await db.run("DELETE FROM client_search_terms WHERE client_id = ?", client.id)
        try await saveSearchTerms(of: row, db)
    }

    static func saveSearchTerms(of row: ClientRow, _ db: any SQLConnection) async throws {
        // One row per statement on SQLite (a one-row insert needs no statement journal, which SQLCipher would
        // encrypt); on PostgreSQL each statement is a round trip, so a client's terms go in one.
        let perStatement = db.dialect == .sqlite ? 1 : max(1, row.terms.count)
        for start in stride(from: 0, to: row.terms.count, by: perStatement) {
            guard let insert = searchTermsInsert(of: row, from: start, count: perStatement) else { continue }
            try await db.run(insert.sql, insert.arguments)
        }
    }

    /// The insert of `row`'s search terms from `start`, `count` of them at most; nil when there are none.
    private static func searchTermsInsert(of row: ClientRow, from start: Int = 0, count: Int) -> (sql: String, arguments: [any SQLConvertible])? {
        let terms = row.terms[start..<min(start + count, row.terms.count)]
        guard !terms.isEmpty else { return nil }
        return (
            "INSERT INTO client_search_terms (company_id, term, client_id, sort_name, all_terms) VALUES "
                + Array(repeating: "(?, ?, ?, ?, ?)", count: terms.count).joined(separator: ", "),
            terms.flatMap { term -> [any SQLConvertible] in [row.client.companyId, term, row.client.id, row.sortName, row.allTerms] }
        )
    }

    func delete(_ id: UUID, in company: UUID, audit: AuditEvent) async throws -> Bool {
        try await database.write { db in
            try await db.lockCompany(company)
            // Screenings, revisions, photo and search terms go with it (ON DELETE CASCADE), in this one transaction.
            guard try await db.run("DELETE FROM clients WHERE id = ? AND company_id = ?", id, company) > 0 else { return false }
            try await AuditChain.append(audit, db)
            return true
        }
    }

    func erase(_ id: UUID, in company: UUID, audit: AuditEvent) async throws -> Bool {
        let erased = try await database.write { db in
            try await db.lockCompany(company)
            guard try await db.run("DELETE FROM clients WHERE id = ? AND company_id = ?", id, company) > 0 else { return false }
            // A kept answer is the JSON of a result or of the client itself, which names them by id.
            try await SQLIdempotencyRepository.forget(naming: id, in: company, db)
            try await SQLWebhookRepository.erase(client: id, db)
            try await AuditChain.erase(client: id, in: company, db)
            try await AuditChain.append(audit, db)
            return true
        }
        if erased { records.forget { $0.contains(id) } }
        return erased
    }

    func purgeErased() async throws {
        try await database.purgeDeleted(from: Self.erasedTables)
    }

    /// Every table an erasure deletes rows from, directly or by cascade.
    static let erasedTables = [
        "clients", "client_photos", "client_search_terms", "screenings", "screening_revisions", "results", "result_revisions",
        "client_results_versions", "media", "deliveries", "delivery_messages", "idempotent_responses", "audit_events",
        "webhook_deliveries",
    ]

    func photo(of id: UUID, in company: UUID) async throws -> ClientPhoto? {
        try await database.read { db in
            try await db.query(
                "SELECT p.content_type, p.bytes FROM client_photos p JOIN clients c ON c.id = p.client_id WHERE c.id = ? AND c.company_id = ?",
                id,
                company
            ).first.map { ClientPhoto(contentType: try $0["content_type"], bytes: try db.unsealedBytes($0, "bytes", "client_photos.bytes") ?? []) }
        }
    }

    func setPhoto(_ photo: ClientPhoto?, of id: UUID, in company: UUID, at now: Date, audit: AuditEvent) async throws -> Bool {
        try await database.write { db in
            try await db.lockCompany(company)
            guard try await db.query("SELECT 1 FROM clients WHERE id = ? AND company_id = ?", id, company).first != nil else { return false }
            try await db.run("DELETE FROM client_photos WHERE client_id = ?", id)
            if let photo {
                try await db.run(
                    "INSERT INTO client_photos (client_id, content_type, bytes, updated_at) VALUES (?, ?, ?, ?)",
                    id,
                    photo.contentType,
                    try db.sealed(bytes: photo.bytes, "client_photos.bytes"),
                    now
                )
            }
            try await db.run("UPDATE clients SET updated_at = ? WHERE id = ?", now, id)
            try await AuditChain.append(audit, db)
            return true
        }
    }

    func matches(_ keys: Set<ClientMatchKey>, in company: UUID) async throws -> [ClientMatchKey: Client] {
        var uids: [String] = []
        var emails: [String] = []
        var fullNames: [String] = []
        for key in keys {
            switch key {
            case .uid(let value): uids.append(value)
            case .email(let value): emails.append(value)
            case .fullName(let value): fullNames.append(value)
            }
        }
        let lookups: [(expression: String, values: [String], key: (String) -> ClientMatchKey)] = [
            (Self.matchExpressions.uid, uids, ClientMatchKey.uid),
            (Self.matchExpressions.email, emails, ClientMatchKey.email),
            (Self.matchExpressions.fullName, fullNames, ClientMatchKey.fullName),
        ]
        return try await database.read { db in
            var found: [ClientMatchKey: Client] = [:]
            for lookup in lookups {
                // Slices of one size, a short one padded with its last value again: one statement text and one
                // set of parameter types, prepared once, whatever the chunk (and SQLite 3.15 binds at most 999).
                for start in stride(from: 0, to: lookup.values.count, by: Self.matchSlice) {
                    let slice = lookup.values[start..<min(start + Self.matchSlice, lookup.values.count)]
                    guard let last = slice.last else { continue }
                    var arguments: [any SQLConvertible] = [company]
                    arguments += slice.map { $0 }
                    arguments += repeatElement(last, count: Self.matchSlice - slice.count).map { $0 }
                    let rows = try await db.query(Self.matchQuery(by: lookup.expression), arguments)
                    for row in rows {
                        let client = try Self.client(row, db)
                        let key = lookup.key(try row["match_key"])
                        if let earlier = found[key], (earlier.createdAt, earlier.id.uuidString) <= (client.createdAt, client.id.uuidString) {
                            continue
                        }
                        found[key] = client
                    }
                }
            }
            return found
        }
    }

    /// What each kind of key is compared with: each has an index of its own, led by the company.
    static let matchExpressions = (
        uid: "c.vcard_uid", email: "c.email", fullName: "trim(coalesce(c.given_name, '') || ' ' || coalesce(c.family_name, ''))"
    )

    /// The clients of a company (the first parameter) whose `expression` is one of `matchSlice` values.
    static func matchQuery(by expression: String) -> String {
        """
        SELECT \(clientColumns), \(expression) AS match_key FROM clients c
        WHERE c.company_id = ? AND \(expression) IN (\(Array(repeating: "?", count: matchSlice).joined(separator: ", ")))
        """
    }

    /// Values per match statement.
    static let matchSlice = 100
}

extension SQLClientRepository {
    func saveEach(_ saves: [ClientSave], at now: Date) async -> [Result<Void, any Error>] {
        // The rows are prepared here, on the caller's thread: folding names for the search terms was a fifth of
        // the writer thread's time in a large import.
        let outcomes = await database.writeEach(saves.map { ($0, ClientRow($0.client)) }) { item, db in
            try await Self.save(item.0, item.1, at: now, db)
        }
        await database.refreshStatistics(of: ["clients", "client_search_terms"])
        return outcomes
    }

    private static func save(_ save: ClientSave, _ row: ClientRow, at now: Date, _ db: any SQLConnection) async throws {
        let client = save.client
        try await db.lockCompany(client.companyId)
        let audit = AuditEvent.about(
            client.id,
            in: client.companyId,
            save.isNew ? .created : .changed,
            .client,
            id: client.id,
            by: save.actor,
            at: now
        )
        if save.isNew {
            try await insert(row, audit: audit, db)
        } else {
            try await Self.save(row, db)
            try await AuditChain.append(audit, db)
        }
        if let photo = save.photo {
            try await db.run("DELETE FROM client_photos WHERE client_id = ?", client.id)
            try await db.run(
                "INSERT INTO client_photos (client_id, content_type, bytes, updated_at) VALUES (?, ?, ?, ?)",
                client.id,
                photo.contentType,
                try db.sealed(bytes: photo.bytes, "client_photos.bytes"),
                now
            )
        }
    }
}

extension Row {
    /// The list cursor after this row (its sort key and id).
    fileprivate func sortKeyCursor() throws -> Cursor {
        Cursor(sortKey: try self["sort_name"], id: try self["id"])
    }
}

extension Sex: SQLConvertible {}
