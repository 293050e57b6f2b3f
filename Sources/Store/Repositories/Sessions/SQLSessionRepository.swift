import Foundation
import HealthwheelCore
import StoreContract

struct SQLSessionRepository: SessionRepository {
    let database: any SQLDatabase
    /// Every authenticated request asks for its principal: kept off the database while no session or trainer
    /// changed (results posted meanwhile do not matter to it).
    private let principals: ReadCache<[UInt8], LiveSession?>

    private struct LiveSession: Sendable {
        var principal: Principal
        var expiresAt: Date { principal.session.end }
    }

    /// Moved by every committed change to sessions or trainers, here and in the trainer repository.
    private let accounts: Generation

    init(database: any SQLDatabase, accounts: Generation) {
        self.database = database
        self.accounts = accounts
        principals = ReadCache(database: database, generation: accounts)
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
        // Shared (PostgreSQL): nothing is cached, and what the request's caches are checked against comes along.
        let shared = database.isShared
        let session = try await principals.value(for: tokenDigest) {
            try await database.read { db in
                try await db.query(
                    """
                    SELECT \(SQLTrainerRepository.columns), c.name AS company_name, c.created_at AS company_created_at,
                        s.created_at AS session_created_at, s.expires_at AS session_expires_at, (SELECT version FROM catalog_version WHERE id = 1) AS catalog_version,
                        (SELECT version FROM company_themes WHERE company_id = t.company_id) AS theme_version\(shared ? Self.sharedStamps : "")
                    FROM sessions s JOIN trainers t ON t.id = s.trainer_id JOIN companies c ON c.id = t.company_id
                    WHERE s.token_hash = ?
                    """,
                    shared ? [client, tokenDigest] : [tokenDigest]
                ).first.map { row in
                    let trainer = try SQLTrainerRepository.trainer(row)
                    let company = Company(id: trainer.companyId, name: try row["company_name"], createdAt: try row["company_created_at"])
                    var principal = Principal(
                        trainer: trainer,
                        company: company,
                        freshness: Freshness(catalogVersion: try row["catalog_version"] ?? 0, themeVersion: try row["theme_version"] ?? 0),
                        session: DateInterval(start: try row["session_created_at"], end: try row["session_expires_at"])
                    )
                    if shared {
                        principal.freshness.clientsVersion = try row["clients_version"]
                        if let client {
                            let version: Int64? = try row["named_results_version"]
                            let flagBelow: Double = try row["wheel_flag_below"]
                            principal.freshness.namedClient = ClientStamps(
                                client: client,
                                wheel: version.map { WheelStamp(resultsVersion: $0, flagBelow: flagBelow) }
                            )
                        }
                    }
                    return LiveSession(principal: principal)
                }
            }
        }
        guard let session, session.expiresAt > now else { return nil }
        return session.principal
    }

    /// The shared database's extra columns: the company's list version and threshold, and the named client's
    /// results version (NULL when it is not the company's client, 0 before its first result).
    private static let sharedStamps = """
        ,
            c.clients_version, c.wheel_flag_below,
            (SELECT coalesce(v.version, 0) FROM clients n LEFT JOIN client_results_versions v ON v.client_id = n.id
                WHERE n.id = ? AND n.company_id = t.company_id) AS named_results_version
        """

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
