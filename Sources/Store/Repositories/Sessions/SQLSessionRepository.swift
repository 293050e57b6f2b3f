import Foundation
import HealthwheelCore
import StoreContract

struct SQLSessionRepository: SessionRepository {
    let database: any SQLDatabase
    private let reads: Reads

    /// How every authenticated request's principal is read.
    private enum Reads {
        /// The embedded file: kept off the database while no session or trainer changed (results posted meanwhile
        /// do not matter to it).
        case cached(ReadCache<[UInt8], LiveSession?>)
        /// A shared database (PostgreSQL) caches nothing: every request reads its session, with the stamps of the
        /// client it names, and the reads of requests that arrive together go in one statement.
        case grouped(GroupedReads<Lookup, LiveSession>)
    }

    struct LiveSession: Sendable {
        var principal: Principal
        var expiresAt: Date { principal.session.end }
    }

    /// Moved by every committed change to sessions or trainers, here and in the trainer repository.
    private let accounts: Generation

    /// Session statements on their way at once, each for any number of requests (`GroupedReads`): one per two
    /// cores. On two, a second lane made statements smaller and the node slower (13.3k warm reads/s against 12.2k).
    static let lanes = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)

    init(database: any SQLDatabase, accounts: Generation) {
        self.database = database
        self.accounts = accounts
        reads =
            database.isShared
            ? .grouped(
                GroupedReads(lanes: Self.lanes, maximumGroup: 32) { lookups in
                    try await database.read { db in try await Self.principals(lookups, db) }
                }
            )
            : .cached(ReadCache(database: database, generation: accounts))
    }

    func create(tokenDigest: [UInt8], trainer: UUID, createdAt: Date, expiresAt: Date) async throws {
        try await database.write { db in
            try await db.run(
                "INSERT INTO sessions (token_hash, trainer_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                tokenDigest,
                trainer,
                createdAt,
                expiresAt
            )
        }
    }

    func principal(tokenDigest: [UInt8], at now: Date, naming client: UUID?) async throws -> Principal? {
        let session: LiveSession?
        switch reads {
        case .grouped(let lookups):
            session = try await lookups.value(for: Lookup(tokenDigest: tokenDigest, client: client))
        case .cached(let principals):
            session = try await principals.value(for: tokenDigest) {
                try await database.read { db in
                    try await db.query("SELECT \(Self.principalColumns) FROM \(Self.principalTables) WHERE s.token_hash = ?", tokenDigest)
                        .first.map { try Self.liveSession($0) }
                }
            }
        }
        guard let session, session.expiresAt > now else { return nil }
        return session.principal
    }

    /// What one request asks a shared database for: its session, and the stamps of the client it names.
    struct Lookup: Hashable, Sendable {
        let tokenDigest: [UInt8]
        let client: UUID?
    }

    /// The sessions of `lookups` (at most `GroupedReads`' group) in one statement, with what the caches of each
    /// request are checked against: the company's list version and threshold, and the named client's results
    /// version (NULL when it is not the company's client, 0 before its first result). Each lookup is a row of
    /// the `VALUES` list with its place, which its answer carries back; no client is '' (no client's id), so that
    /// every list of one length is one prepared statement.
    static func principals(_ lookups: [Lookup], _ db: any SQLConnection) async throws -> [Lookup: LiveSession] {
        let asked = lookups.indices.map { "(?, ?, \($0))" }.joined(separator: ", ")
        var answers: [Lookup: LiveSession] = [:]
        try await db.forEachRow(
            """
            SELECT q.place, \(principalColumns), c.clients_version, c.wheel_flag_below,
                (SELECT coalesce(v.version, 0) FROM clients n LEFT JOIN client_results_versions v ON v.client_id = n.id
                    WHERE n.id = q.client AND n.company_id = t.company_id) AS named_results_version
            FROM (VALUES \(asked)) AS q (token, client, place) JOIN \(principalTables) ON s.token_hash = q.token
            """,
            lookups.flatMap { [$0.tokenDigest, $0.client.map { $0 as any SQLConvertible } ?? ""] }
        ) { row in
            let lookup = lookups[Int(try row["place"] as Int64)]
            var session = try liveSession(row)
            session.principal.freshness.clientsVersion = try row["clients_version"]
            if let client = lookup.client {
                let version: Int64? = try row["named_results_version"]
                let flagBelow: Double = try row["wheel_flag_below"]
                session.principal.freshness.namedClient = ClientStamps(
                    client: client,
                    wheel: version.map { WheelStamp(resultsVersion: $0, flagBelow: flagBelow) }
                )
            }
            answers[lookup] = session
        }
        return answers
    }

    private static let principalColumns = """
        \(SQLTrainerRepository.columns), c.name AS company_name, c.created_at AS company_created_at,
            s.created_at AS session_created_at, s.expires_at AS session_expires_at,
            (SELECT version FROM catalog_version WHERE id = 1) AS catalog_version,
            (SELECT version FROM company_themes WHERE company_id = t.company_id) AS theme_version
        """

    private static let principalTables = "sessions s JOIN trainers t ON t.id = s.trainer_id JOIN companies c ON c.id = t.company_id"

    private static func liveSession(_ row: Row) throws -> LiveSession {
        let trainer = try SQLTrainerRepository.trainer(row)
        return LiveSession(
            principal: Principal(
                trainer: trainer,
                company: Company(id: trainer.companyId, name: try row["company_name"], createdAt: try row["company_created_at"]),
                freshness: Freshness(catalogVersion: try row["catalog_version"] ?? 0, themeVersion: try row["theme_version"] ?? 0),
                session: DateInterval(start: try row["session_created_at"], end: try row["session_expires_at"])
            )
        )
    }

    func delete(tokenDigest: [UInt8]) async throws {
        defer { accounts.advance() }
        try await database.write { db in _ = try await db.run("DELETE FROM sessions WHERE token_hash = ?", tokenDigest) }
    }

    func extend(tokenDigest: [UInt8], until expiresAt: Date) async throws {
        defer { accounts.advance() }
        try await database.write { db in _ = try await db.run("UPDATE sessions SET expires_at = ? WHERE token_hash = ?", expiresAt, tokenDigest) }
    }

    func purgeExpired(at now: Date) async throws -> Int {
        defer { accounts.advance() }
        return try await database.write { db in try await db.run("DELETE FROM sessions WHERE expires_at <= ?", now) }
    }
}
