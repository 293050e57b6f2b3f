#if PostgreSQL
import Foundation
import StoreContract

extension Migrator {
    /// Applies what is missing to a PostgreSQL database, each migration in its own transaction, under a session
    /// advisory lock: nodes that start together wait for the first, which migrates once; the others find every
    /// migration applied. Checksums and the "newer than this build" refusal work as on SQLite. Also proves the
    /// data key: a database whose sealed columns were written under another key is refused before anything
    /// changes.
    @discardableResult
    public func migrate(_ database: PostgreSQLDatabase, now: Date = Date()) throws -> [String] {
        try database.withConnectionBlocking { connection in
            try await connection.execute("SELECT pg_advisory_lock(\(PostgreSQLDatabase.migrationLock))")
            do {
                let applied = try await migrate(on: connection, url: database.url, now: now)
                try await connection.execute("SELECT pg_advisory_unlock(\(PostgreSQLDatabase.migrationLock))")
                return applied
            } catch {
                try? await connection.execute("SELECT pg_advisory_unlock(\(PostgreSQLDatabase.migrationLock))")
                throw error
            }
        }
    }

    /// `migrate`'s work, under the lock.
    private func migrate(on connection: PostgreSQLConnection, url: PostgreSQLURL, now: Date) async throws -> [String] {
        try await connection.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version BIGINT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                checksum TEXT NOT NULL,
                applied_at BIGINT NOT NULL
            )
            """
        )
        let newest: Int? = try await connection.scalar("SELECT max(version) FROM schema_migrations")
        if let newest, newest > (migrations.last?.version ?? 0) {
            throw StoreError.migration("the database is at version \(newest), newer than this build knows: upgrade the server")
        }
        // A node with another key is refused before it migrates anything (once the check exists).
        let hasKeyCheck: Bool = try await connection.scalar("SELECT to_regclass('data_key_check') IS NOT NULL")
        if hasKeyCheck { try await proveDataKey(connection, url: url) }
        var applied: [String] = []
        for migration in migrations {
            try await connection.execute("BEGIN")
            do {
                if try await apply(migration, on: connection, now: now) { applied.append(migration.name) }
                try await connection.execute("COMMIT")
            } catch {
                try? await connection.execute("ROLLBACK")
                throw error
            }
        }
        if !hasKeyCheck { try await proveDataKey(connection, url: url) }
        return applied
    }

    /// The first node seals a known text into `data_key_check`; every later start must open it.
    private func proveDataKey(_ connection: PostgreSQLConnection, url: PostgreSQLURL) async throws {
        let context = "data_key_check.sealed"
        let known = "healthwheel data key"
        if let row = try await connection.query("SELECT sealed FROM data_key_check WHERE id = 1").first {
            guard (try? connection.unsealed(row, "sealed", context)) == known else { throw StoreError.wrongDataKey(url: url.description) }
        } else {
            try await connection.run(
                "INSERT INTO data_key_check (id, sealed) VALUES (1, ?) ON CONFLICT DO NOTHING",
                [try connection.sealed(known, context)]
            )
        }
    }
}
#endif
