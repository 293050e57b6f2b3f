import Foundation
import HealthwheelCore
import StoreContract

struct SQLResultRepository: ResultRepository {
    let database: any SQLDatabase
    /// Every wheel request asks for its stamp first: kept off the database while nothing was written that the
    /// stamp is read from.
    private let wheelStamps: ReadCache<[UUID], WheelStamp?>
    /// Moved for a client by every change to their results. All of them go through this repository, except the
    /// deletions that cascade from deleting the client or the company, which rows of those tables witness.
    private let resultsChanged = KeyedGeneration<UUID>()
    /// PostgreSQL: results recorded at once are committed in groups (nil on SQLite, whose writer groups them all).
    private let groupedInserts: GroupedResultInserts?

    init(database: any SQLDatabase) {
        self.database = database
        groupedInserts =
            database.dialect == .postgres
            ? GroupedResultInserts(database: database, columns: Self.identityColumns + Self.stateColumns) { pending in
                try await Self.insertAlone(pending, database)
            } : nil
        let resultsChanged = resultsChanged
        // Per client: results posted for one client leave every other client's stamp cached.
        wheelStamps = ReadCache { key in database.changeStamp(of: ["clients", "companies"]).map { $0 &+ resultsChanged.current(key[0]) } }
    }

    static let columns = """
        id, client_id, company_id, exercise_owner, exercise_id, category_id, pack_version, trainer_id, values_json, observations,
        subject_sex, subject_age, subject_height, subject_mass, score, score_error, recorded_at, created_at, updated_at, revision
        """

    static func result(_ row: Row, _ db: any SQLConnection) throws -> AssessmentResult {
        var result = AssessmentResult(
            id: try row["id"],
            clientId: try row["client_id"],
            companyId: try row["company_id"],
            exerciseOwner: try row["exercise_owner"],
            exerciseId: try row["exercise_id"],
            categoryId: try row["category_id"],
            packVersion: try row["pack_version"],
            trainerId: try row["trainer_id"],
            values: [:],
            observations: nil,
            recordedAt: try row["recorded_at"],
            createdAt: try row["created_at"]
        )
        result.state = try state(row, db)
        result.updatedAt = try row["updated_at"]
        result.revision = try row["revision"]
        return result
    }

    /// The `stateColumns` of a row of `results` or `result_revisions`.
    static func state(_ row: Row, _ db: any SQLConnection) throws -> ScoredState {
        ScoredState(
            packVersion: try row["pack_version"],
            values: try decodeValues(try db.unsealed(row, "values_json", valuesContext) ?? ""),
            observations: try db.unsealed(row, "observations", observationsContext),
            subject: try subject(row),
            score: try row["score"],
            scoreError: try row["score_error"],
            recordedAt: try row["recorded_at"]
        )
    }

    static func subject(_ row: Row) throws -> Subject? {
        guard let sex = (try row["subject_sex"] as String?).flatMap(Sex.init(rawValue:)), let age: Int = try row["subject_age"] else { return nil }
        return Subject(sex: sex, age: age, height: try row["subject_height"], mass: try row["subject_mass"])
    }

    /// Reads what `encodeValues` writes. Its plain form (`{"key":number,…}`, no escapes, no spaces) is read by
    /// hand, as reports and lists read hundreds of rows at once and `JSONDecoder` was a tenth of a report's time;
    /// anything else goes to `JSONDecoder`.
    static func decodeValues(_ json: String) throws -> [String: Double] {
        if let values = plainValues(json) { return values }
        return try JSONDecoder().decode([String: Double].self, from: Data(json.utf8))
    }

    private static func plainValues(_ json: String) -> [String: Double]? {
        var utf8 = json.utf8[...]
        guard utf8.popFirst() == UInt8(ascii: "{"), utf8.popLast() == UInt8(ascii: "}") else { return nil }
        var values: [String: Double] = [:]
        while !utf8.isEmpty {
            guard utf8.popFirst() == UInt8(ascii: "\""), let close = utf8.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            guard let name = String(utf8[..<close]), !name.utf8.contains(UInt8(ascii: "\\")) else { return nil }
            utf8 = utf8[utf8.index(after: close)...]
            guard utf8.popFirst() == UInt8(ascii: ":") else { return nil }
            let end = utf8.firstIndex(of: UInt8(ascii: ",")) ?? utf8.endIndex
            let text = utf8[..<end]
            guard !text.isEmpty, text.allSatisfy(Self.isNumberByte), let number = String(text).flatMap(Double.init),
                number.isFinite, values.updateValue(number, forKey: name) == nil
            else { return nil }
            utf8 = utf8[end...]
            // A comma must be followed by another pair.
            if utf8.popFirst() != nil && utf8.isEmpty { return nil }
        }
        return values
    }

    /// A byte of a number's text: a digit, a sign, the decimal point or an exponent mark (a switch, not a set: a
    /// report decodes the values of hundreds of results).
    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    /// `{"key":value,…}` with sorted keys, written by hand: `JSONEncoder` was a measurable share of recording a
    /// result. Swift prints a `Double` as the shortest text that reads back as the same value.
    static func encodeValues(_ values: [String: Double]) throws -> String {
        var json = "{"
        for (index, key) in values.keys.sorted().enumerated() {
            let value = values[key]!
            guard value.isFinite else { throw SQLiteError(code: 20, message: "values.\(key) is not a finite number") }
            if index > 0 { json += "," }
            json += JSONText.quoted(key) + ":" + value.description
        }
        return json + "}"
    }

    /// The columns a save writes after the id, with their values: one list for INSERT and UPDATE.
    static let stateColumns = [
        "pack_version", "values_json", "observations", "subject_sex", "subject_age", "subject_height", "subject_mass", "score",
        "score_error", "recorded_at",
    ]

    static func stateValues(_ state: ScoredState, _ sealer: ColumnSealer?) throws -> [any SQLConvertible] {
        let subject = state.subject
        return [
            state.packVersion, try sealer.sealed(try encodeValues(state.values), valuesContext),
            try sealer.sealed(state.observations, observationsContext), subject?.sex.rawValue, subject?.age, subject?.height,
            subject?.mass, state.score, state.scoreError, state.recordedAt,
        ]
    }

    static let identityColumns = [
        "id", "client_id", "company_id", "exercise_owner", "exercise_id", "category_id", "trainer_id", "created_at", "updated_at", "revision",
    ]

    /// Made once: the writer runs it for every recorded result.
    private static let insert = """
        INSERT INTO results (\((identityColumns + stateColumns).joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: identityColumns.count + stateColumns.count).joined(separator: ", ")))
        """

    func create(_ result: AssessmentResult, keeping answer: IdempotencyRecord?) async throws {
        try await insert(result, keeping: answer, grouped: answer == nil)
    }

    func createWithAppId(_ result: AssessmentResult) async throws {
        do {
            try await insert(result, keeping: nil, grouped: false)
        } catch let error as any UniqueViolationReporting where error.isUniqueViolation {
            throw RecordIdTaken()
        }
    }

    /// Inserts the result with its count and audit row: with the writer's next group when `grouped`, else in a
    /// transaction of its own (with the answer to keep, or an id an app chose, whose clash must undo nothing else).
    private func insert(_ result: AssessmentResult, keeping answer: IdempotencyRecord?, grouped: Bool) async throws {
        let identity: [any SQLConvertible] = [
            result.id, result.clientId, result.companyId, result.exerciseOwner, result.exerciseId, result.categoryId, result.trainerId,
            result.createdAt, result.updatedAt, result.revision,
        ]
        // Encoded (and sealed) before the write: the writer's thread does only the writing.
        let values = identity + (try Self.stateValues(result.state, database.sealer))
        let audit = AuditChain.Entry(Self.audit(.created, result, by: result.trainerId, at: result.createdAt))
        if grouped, let groupedInserts {
            try await groupedInserts.record(.init(values: values, audit: audit))
        } else {
            try await database.write { db in
                if let answer { try await SQLIdempotencyRepository.keep(answer, db) }
                try await db.run(Self.insert, values)
                try await Self.advanceResultsVersion(of: result.clientId, db)
                try await AuditChain.append(audit, db)
            }
        }
        resultsChanged.advance([result.clientId])
    }

    /// PostgreSQL: one result with its count and audit row, in one statement (it reads nothing, so it needs no
    /// transaction of its own): one round trip.
    private static func insertAlone(_ pending: GroupedResultInserts.Pending, _ database: any SQLDatabase) async throws {
        guard let key = database.auditKey else { throw StoreError.noAuditKey }
        let append = AuditChain.appendingAtHead(pending.audit, key: key, after: "counted")
        try await database.writeStatement(
            """
            WITH recorded AS (\(insert) RETURNING client_id),
            counted AS (
                INSERT INTO client_results_versions (client_id, version) SELECT client_id, 1 FROM recorded
                \(countingAnotherResult) RETURNING version
            ),
            \(append.head)
            \(append.insert)
            """,
            pending.values + append.arguments
        )
    }

    func find(_ id: UUID, in company: UUID) async throws -> AssessmentResult? {
        try await database.read { db in try await Self.find(id, in: company, db) }
    }

    static func find(_ id: UUID, in company: UUID, _ db: any SQLConnection) async throws -> AssessmentResult? {
        try await db.query("SELECT \(columns) FROM results WHERE id = ? AND company_id = ?", id, company).first.map { try result($0, db) }
    }

    func list(client: UUID, in company: UUID, filter: ResultFilter, after cursor: Cursor?, limit: Int) async throws -> Page<AssessmentResult> {
        var conditions = ["client_id = ?", "company_id = ?"]
        var arguments: [any SQLConvertible] = [client, company]
        if let exercise = filter.exerciseId {
            conditions.append("exercise_id = ?")
            arguments.append(exercise)
        }
        if let from = filter.from {
            conditions.append("recorded_at >= ?")
            arguments.append(from)
        }
        if let to = filter.to {
            conditions.append("recorded_at <= ?")
            arguments.append(to)
        }
        if let cursor, let milliseconds = Int64(cursor.sortKey) {
            // Newest first: continue with older results, or the same instant's smaller ids.
            conditions.append("(recorded_at < ? OR (recorded_at = ? AND id < ?))")
            arguments += [milliseconds, milliseconds, cursor.id]
        }
        arguments.append(limit + 1)
        let sql = "SELECT \(Self.columns) FROM results WHERE \(conditions.joined(separator: " AND ")) ORDER BY recorded_at DESC, id DESC LIMIT ?"
        let results = try await database.read { db in try await db.query(sql, arguments).map { try Self.result($0, db) } }
        return Page(fetched: results, limit: limit) { Cursor(sortKey: millisecondsKey($0.recordedAt), id: $0.id) }
    }

    /// A report's results: a client's in a period, newest first (arguments: client, company, from, to, limit).
    /// This and the two below are what a report reads by period; each must read only what its period holds,
    /// however many results lie outside it (their plans are checked on both databases: `ReportQueryPlanTests`).
    static let periodSummaries = """
        SELECT id, exercise_id, recorded_at, values_json, score, observations FROM results
        WHERE client_id = ? AND company_id = ? AND recorded_at >= ? AND recorded_at <= ? ORDER BY recorded_at DESC, id DESC LIMIT ?
        """
    /// A client's newest result of an exercise as of a time (arguments: client, exercise, until).
    static let newestAsOf = """
        SELECT score, values_json, recorded_at FROM results WHERE client_id = ? AND exercise_id = ? AND recorded_at <= ?
        ORDER BY recorded_at DESC, id DESC LIMIT 1
        """
    /// A client's newest scored result of an exercise as of a time (arguments: client, exercise, until).
    static let newestScoredAsOf = """
        SELECT score, values_json, recorded_at FROM results
        WHERE client_id = ? AND exercise_id = ? AND score IS NOT NULL AND recorded_at <= ? ORDER BY recorded_at DESC, id DESC LIMIT 1
        """

    func summaries(client: UUID, in company: UUID, from: Date, to: Date, limit: Int) async throws -> [ResultSummary] {
        try await database.read { db in
            try await db.query(
                Self.periodSummaries,
                client,
                company,
                from,
                to,
                limit
            ).map { row in
                ResultSummary(
                    id: try row["id"],
                    exerciseId: try row["exercise_id"],
                    recordedAt: try row["recorded_at"],
                    values: try Self.decodeValues(try db.unsealed(row, "values_json", Self.valuesContext) ?? ""),
                    score: try row["score"],
                    observations: try db.unsealed(row, "observations", Self.observationsContext)
                )
            }
        }
    }

    func all(client: UUID, in company: UUID) async throws -> [AssessmentResult] {
        // Every result of a client (an export, FHIR, a rescore): thousands for a long-standing one.
        try await database.longRead(for: company) { db in
            try await db.query("SELECT \(Self.columns) FROM results WHERE client_id = ? AND company_id = ? ORDER BY recorded_at, id", client, company)
                .map { try Self.result($0, db) }
        }
    }

    func latest(client: UUID, exerciseId: String, trainer: UUID, createdSince since: Date) async throws -> AssessmentResult? {
        try await database.read { db in
            try await db.query(
                """
                SELECT \(Self.columns) FROM results WHERE client_id = ? AND exercise_id = ? AND trainer_id = ? AND created_at >= ?
                ORDER BY created_at DESC, id DESC LIMIT 1
                """,
                client,
                exerciseId,
                trainer,
                since
            ).first.map { try Self.result($0, db) }
        }
    }

    func latest(client: UUID, exerciseId: String, trainer: UUID, takenWithin period: ClosedRange<Date>) async throws -> AssessmentResult? {
        try await database.read { db in
            try await db.query(
                """
                SELECT \(Self.columns) FROM results WHERE client_id = ? AND exercise_id = ? AND trainer_id = ? AND recorded_at >= ?
                    AND recorded_at <= ?
                ORDER BY recorded_at DESC, id DESC LIMIT 1
                """,
                client,
                exerciseId,
                trainer,
                period.lowerBound,
                period.upperBound
            ).first.map { try Self.result($0, db) }
        }
    }

    func replace(
        _ changes: [(before: AssessmentResult, after: AssessmentResult)],
        by trainer: UUID,
        reason: AssessmentResult.ChangeReason,
        at now: Date,
        keeping answer: IdempotencyRecord?
    ) async throws -> [AssessmentResult?] {
        let revisionColumns = ["result_id", "revision"] + Self.stateColumns + ["replaced_at", "replaced_by", "reason"]
        let insertRevision =
            "INSERT INTO result_revisions (\(revisionColumns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: revisionColumns.count).joined(separator: ", ")))"
        // Only the revision read: a change committed since (on another node) leaves this one unsaved.
        let update =
            "UPDATE results SET \((Self.stateColumns + ["updated_at", "revision"]).map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ? AND revision = ?"
        defer { resultsChanged.advance(Set(changes.map(\.before.clientId))) }
        return try await database.write { db in
            let saved = try await changes.asyncMap { change -> AssessmentResult? in
                let before = change.before
                guard let stored = try await Self.find(before.id, in: before.companyId, db), stored.revision == before.revision else { return nil }
                var after = change.after
                after.revision = stored.revision + 1
                after.updatedAt = now
                let values = (try Self.stateValues(after.state, db.sealer)) + [after.updatedAt, after.revision, before.id, stored.revision]
                guard try await db.run(update, values) == 1 else { return nil }
                try await db.run(
                    insertRevision,
                    [before.id, stored.revision] + (try Self.stateValues(stored.state, db.sealer)) + [now, trainer, reason.rawValue]
                )
                try await AuditChain.append(Self.audit(.changed, after, by: trainer, at: now), db)
                return after
            }
            if let answer, saved.allSatisfy({ $0 != nil }) { try await SQLIdempotencyRepository.keep(answer, db) }
            return saved
        }
    }

    func delete(_ id: UUID, in company: UUID, by trainer: UUID, at now: Date) async throws -> Bool {
        let client = try await database.write { db -> UUID? in
            guard
                let client: UUID = try await db.query("SELECT client_id FROM results WHERE id = ? AND company_id = ?", id, company).first?[
                    "client_id"
                ],
                try await db.run("DELETE FROM results WHERE id = ?", id) == 1
            else { return nil }
            try await AuditChain.append(.about(client, in: company, .deleted, .result, id: id, by: .trainer(trainer), at: now), db)
            return client
        }
        guard let client else { return false }
        resultsChanged.advance([client])
        return true
    }

    /// A result's line in the audit trail: who recorded or changed it is in the result and the change.
    private static func audit(_ action: AuditEvent.Action, _ result: AssessmentResult, by trainer: UUID, at: Date) -> AuditEvent {
        .about(result.clientId, in: result.companyId, action, .result, id: result.id, by: .trainer(trainer), at: at)
    }

    func revisions(of id: UUID) async throws -> [AssessmentResult.Revision] {
        try await database.read { db in
            try await db.query("SELECT \(Self.revisionColumns) FROM result_revisions WHERE result_id = ? ORDER BY revision", id)
                .map { try Self.revision($0, db) }
        }
    }

    func revisions(client: UUID, in company: UUID) async throws -> [UUID: [AssessmentResult.Revision]] {
        try await database.longRead(for: company) { db in
            let rows = try await db.query(
                """
                SELECT result_id, \(Self.revisionColumns) FROM result_revisions
                WHERE result_id IN (SELECT id FROM results WHERE client_id = ? AND company_id = ?) ORDER BY result_id, revision
                """,
                client,
                company
            )
            var revisions: [UUID: [AssessmentResult.Revision]] = [:]
            for row in rows { revisions[try row["result_id"], default: []].append(try Self.revision(row, db)) }
            return revisions
        }
    }

    private static let revisionColumns = "revision, \(stateColumns.joined(separator: ", ")), replaced_at, replaced_by, reason"

    private static func revision(_ row: Row, _ db: any SQLConnection) throws -> AssessmentResult.Revision {
        AssessmentResult.Revision(
            revision: try row["revision"],
            state: try state(row, db),
            replacedAt: try row["replaced_at"],
            replacedBy: try row["replaced_by"],
            reason: AssessmentResult.ChangeReason(rawValue: try row["reason"]) ?? .edit
        )
    }

    func wheelStamp(client: UUID, in company: UUID) async throws -> WheelStamp? {
        try await wheelStamps.value(for: [client, company]) { try await readWheelStamp(client: client, in: company) }
    }

    private func readWheelStamp(client: UUID, in company: UUID) async throws -> WheelStamp? {
        try await database.read { db in
            try await db.query(
                """
                SELECT v.version, co.wheel_flag_below FROM clients c JOIN companies co ON co.id = c.company_id
                LEFT JOIN client_results_versions v ON v.client_id = c.id WHERE c.id = ? AND c.company_id = ?
                """,
                client,
                company
            ).first.map { row in WheelStamp(resultsVersion: try row["version"] ?? 0, flagBelow: try row["wheel_flag_below"]) }
        }
    }

    /// What the insert trigger did before migration 0007, for the one path that inserts results: each statement
    /// changes one row, so SQLite needs no statement journal for any of them.
    static func advanceResultsVersion(of client: UUID, _ db: any SQLConnection) async throws {
        if db.dialect == .postgres {
            // Two first results of one client on two nodes would both find no row to update.
            try await db.run("INSERT INTO client_results_versions (client_id, version) VALUES (?, 1) \(countingAnotherResult)", client)
            return
        }
        // OR FAIL: an UPDATE that may abort needs a statement journal inside a transaction, and SQLCipher encrypts
        // every page copied into it; a one-row update has nothing of its own to undo, so FAIL is ABORT here.
        if try await db.run("\(db.dialect.updateOrFail) client_results_versions SET version = version + 1 WHERE client_id = ?", client) == 0 {
            try await db.run("INSERT INTO client_results_versions (client_id, version) VALUES (?, 1)", client)
        }
    }

    /// PostgreSQL: a client's first result creates its version row, every later one moves it on.
    private static let countingAnotherResult = "ON CONFLICT (client_id) DO UPDATE SET version = client_results_versions.version + 1"

    static func resultsVersion(of client: UUID, _ db: any SQLConnection) async throws -> Int64 {
        try await db.query("SELECT version FROM client_results_versions WHERE client_id = ?", client).first.map { try $0["version"] } ?? 0
    }

    func latestForWheel(client: UUID, exerciseIds: [String], asOf: Date?) async throws -> WheelResults {
        // Far in the future when not given: the same query (and plan) either way.
        let until = asOf ?? .distantFuture
        return try await database.read { db in
            // One snapshot: the version read must describe exactly the results read.
            try await db.inSnapshot {
                var results = WheelResults(resultsVersion: try await Self.resultsVersion(of: client, db), scored: [:], newest: [:])
                for exercise in exerciseIds {
                    let newestRows = try await db.query(
                        Self.newestAsOf,
                        client,
                        exercise,
                        until
                    )
                    guard let row = newestRows.first else { continue }
                    let latest = try Self.latest(row, db)
                    results.newest[exercise] = latest
                    if latest.score != nil {
                        results.scored[exercise] = latest
                        continue
                    }
                    let scoredRows = try await db.query(
                        Self.newestScoredAsOf,
                        client,
                        exercise,
                        until
                    )
                    if let row = scoredRows.first { results.scored[exercise] = try Self.latest(row, db) }
                }
                return results
            }
        }
    }

    static func latest(_ row: Row, _ db: any SQLConnection) throws -> HealthWheel.Latest {
        HealthWheel.Latest(
            score: try row["score"],
            values: try decodeValues(try db.unsealed(row, "values_json", valuesContext) ?? ""),
            recordedAt: try row["recorded_at"]
        )
    }

    /// What sealed values and observations are bound to: a result's and its revisions' alike.
    static let valuesContext = "results.values_json"
    static let observationsContext = "results.observations"
}
