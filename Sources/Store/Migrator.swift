import Foundation

/// One schema step: a plain SQL file `Migrations/NNNN_name.sql`.
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// FNV-1a of the text: detects a landed migration that was edited afterwards (never edit one; add a new one).
    var checksum: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sql.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

/// Applies migrations in order, each in its own transaction, and records them in `schema_migrations`.
/// Safe to run again (applied ones are skipped) and from two processes at once (each step re-checks under the
/// write lock).
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// Reads every `NNNN_name.sql` in `directory`.
    public init(directory: URL) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sql") }
        var migrations: [Migration] = []
        for file in files {
            let stem = file.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"), let version = Int(stem[..<underscore]), version > 0 else {
                throw StoreError.migration("\(file): name must be NNNN_description.sql")
            }
            if let clash = migrations.first(where: { $0.version == version }) {
                throw StoreError.migration("\(file) and \(clash.name) share version \(version)")
            }
            let sql = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            migrations.append(Migration(version: version, name: String(stem), sql: sql))
        }
        self.init(migrations: migrations)
    }

    /// Applies what is missing; returns the names of the migrations applied now.
    @discardableResult
    public func migrate(_ database: Database, now: Date = Date()) throws -> [String] {
        try database.withWriter { connection in
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    checksum TEXT NOT NULL,
                    applied_at INTEGER NOT NULL
                )
                """
            )
            var applied: [String] = []
            for migration in migrations {
                let didApply = try connection.transaction { () throws -> Bool in
                    let rows = try connection.query("SELECT checksum FROM schema_migrations WHERE version = ?", migration.version)
                    if let row = rows.first {
                        let recorded: String = try row["checksum"]
                        if recorded != migration.checksum {
                            throw StoreError.migration("\(migration.name) was changed after it was applied; add a new migration instead")
                        }
                        return false
                    }
                    try connection.execute(migration.sql)
                    try connection.run(
                        "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                        migration.version,
                        migration.name,
                        migration.checksum,
                        now
                    )
                    return true
                }
                if didApply { applied.append(migration.name) }
            }
            let newest: Int? = try connection.scalar("SELECT max(version) FROM schema_migrations")
            if let newest, newest > (migrations.last?.version ?? 0) {
                throw StoreError.migration("the database is at version \(newest), newer than this build knows: upgrade the server")
            }
            return applied
        }
    }
}
