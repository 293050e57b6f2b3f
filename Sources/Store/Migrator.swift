import Foundation
import StoreContract

/// One schema step: a plain SQL file `Migrations/NNNN_name.sql`.
public struct Migration: Sendable, Equatable {
    /// `NNNN` from the file name, 1 or more: migrations apply in this order, and `schema_migrations` records each one.
    public let version: Int
    /// The file name without `.sql` (`0004_exercises_and_results`), recorded with the migration and used in messages.
    public let name: String
    /// The file's text, run whole in one transaction; its checksum is recorded, so editing it later is caught.
    public let sql: String

    /// A migration as read from its file; `Migrator(directory:)` makes these from `Migrations/`.
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
///
/// Each migration runs with foreign keys off, as SQLite's procedure for changing a table asks
/// (`Migrations/README.md`): SQLite 3.15 changes a column only by rebuilding the table, and dropping the old table
/// with foreign keys on would delete, through `ON DELETE CASCADE`, every row that refers to it. Before the
/// migration commits, `PRAGMA foreign_key_check` must find no row that refers to nothing; if it finds one, the
/// migration is rolled back whole and `migrate` throws. Foreign keys are on again afterwards, whatever happened.
public struct Migrator: Sendable {
    /// In version order, whatever order they were given in.
    public let migrations: [Migration]

    /// Sorts `migrations` by version; versions are expected to be unique (`init(directory:)` checks they are).
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
    ///
    /// Throws `StoreError.migration` when an applied migration's text has changed, when a migration leaves a row
    /// whose foreign key refers to nothing (that migration is rolled back; earlier ones stay applied), when the
    /// database is newer than this build, or when foreign keys cannot be turned back on.
    @discardableResult
    public func migrate(_ database: SQLiteDatabase, now: Date = Date()) throws -> [String] {
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
                if try await apply(migration, on: connection, now: now) { applied.append(migration.name) }
            }
            // The writer serves every later write: it must not be left without foreign keys.
            let foreignKeys: Int = try connection.scalar("PRAGMA foreign_keys")
            guard foreignKeys == 1 else {
                throw StoreError.migration("foreign keys could not be turned back on after migrating")
            }
            let newest: Int? = try connection.scalar("SELECT max(version) FROM schema_migrations")
            if let newest, newest > (migrations.last?.version ?? 0) {
                throw StoreError.migration("the database is at version \(newest), newer than this build knows: upgrade the server")
            }
            return applied
        }
    }

    /// Applies `migration` in its own transaction unless it is recorded already; returns whether it was applied.
    private func apply(_ migration: Migration, on connection: SQLiteConnection, now: Date) async throws -> Bool {
        // A no-op inside a transaction, so it comes before BEGIN; and back on after COMMIT or ROLLBACK, whatever
        // happened, because this connection goes on serving every write.
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let applied = try await apply(migration, on: connection as any SQLConnection, now: now) {
                let dangling = try danglingReferences(connection)
                if !dangling.isEmpty {
                    throw StoreError.migration(
                        "\(migration.name) would leave rows that refer to nothing, so none of it was applied: "
                            + dangling.joined(separator: "; ")
                    )
                }
            }
            try connection.execute("COMMIT")
            return applied
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Inside the caller's transaction: checks the recorded checksum, or runs the migration, lets `check` judge
    /// what it did, and records it. Returns whether it was applied now.
    func apply(_ migration: Migration, on connection: any SQLConnection, now: Date, check: () throws -> Void = {}) async throws -> Bool {
        let rows = try await connection.query("SELECT checksum FROM schema_migrations WHERE version = ?", migration.version)
        if let row = rows.first {
            let recorded: String = try row["checksum"]
            if recorded != migration.checksum {
                throw StoreError.migration("\(migration.name) was changed after it was applied; add a new migration instead")
            }
            return false
        }
        try await connection.execute(migration.sql)
        try check()
        try await connection.run(
            "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
            migration.version,
            migration.name,
            migration.checksum,
            now
        )
        return true
    }

    /// What `PRAGMA foreign_key_check` finds, one line per broken foreign key: the table, the first offending row
    /// (its rowid and key, which WITHOUT ROWID tables cannot show), the table it should refer to, and how many rows
    /// in all. Empty when every reference holds.
    private func danglingReferences(_ connection: SQLiteConnection) throws -> [String] {
        struct Key: Hashable {
            let table: String
            let parent: String
            let foreignKey: Int
        }
        var firstRow: [Key: Int64?] = [:]
        var counts: [Key: Int] = [:]
        var order: [Key] = []
        for row in try connection.query("PRAGMA foreign_key_check") {
            let key = Key(table: try row["table"], parent: try row["parent"], foreignKey: try row["fkid"])
            if counts[key] == nil {
                order.append(key)
                firstRow[key] = try row["rowid"] as Int64?
            }
            counts[key, default: 0] += 1
        }
        return try order.map { key in
            let count = counts[key] ?? 1
            let more = count > 1 ? " (\(count) \(key.table) rows in all)" : ""
            let columns = try connection.query("PRAGMA foreign_key_list(\(quoted(key.table)))")
                .filter { try $0["id"] as Int == key.foreignKey }
                .map { try $0["from"] as String }
            let names = columns.count == 1 ? columns[0] : "(" + columns.joined(separator: ", ") + ")"
            // SQLite 3.15 reports made-up rowids for WITHOUT ROWID tables (later versions report NULL).
            let hasRowids = (try? connection.query("SELECT rowid FROM \(quoted(key.table)) LIMIT 0")) != nil
            guard hasRowids, let rowid = firstRow[key] ?? nil else {
                return "a \(key.table) row has \(names) with no such row in \(key.parent)\(more)"
            }
            let select = "SELECT " + columns.map(quoted).joined(separator: ", ") + " FROM \(quoted(key.table)) WHERE rowid = ?"
            guard let values = try connection.query(select, rowid).first?.values.map(literal), !values.isEmpty else {
                return "\(key.table) row \(rowid) has \(names) with no such row in \(key.parent)\(more)"
            }
            let shown = values.count == 1 ? values[0] : "(" + values.joined(separator: ", ") + ")"
            return "\(key.table) row \(rowid) has \(names) = \(shown), no such row in \(key.parent)\(more)"
        }
    }
}

/// `name` as an SQL identifier.
private func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// `value` as SQL would write it, for error messages.
private func literal(_ value: SQLValue) -> String {
    switch value {
    case .null: "NULL"
    case .integer(let number): String(number)
    case .real(let number): String(number)
    case .text(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    case .blob(let bytes): "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
    }
}
