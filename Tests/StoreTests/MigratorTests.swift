import Foundation
import Store
import StoreContract
import TestSupport
import Testing

@Suite(.sqlcipherOnly) struct MigrationTests {
    /// A fresh, empty encrypted database in `folder` (no migrations applied yet).
    private func emptyDatabase(_ folder: TemporaryDirectory) throws -> SQLiteDatabase {
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        return try SQLiteDatabase(path: folder.url.appendingPathComponent("empty.db").path, key: DatabaseKey.random(), auditKey: nil)
    }

    private func recordedMigrations(_ database: SQLiteDatabase) throws -> [(version: Int, name: String)] {
        try database.readBlocking { db in
            try await db.query("SELECT version, name FROM schema_migrations ORDER BY version").map { row in
                (version: try row["version"] as Int, name: try row["name"] as String)
            }
        }
    }

    @Test func firstMigrationAppliesEveryMigrationInOrder() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try emptyDatabase(folder)
        let migrator = RepositoryRoot.migrator
        #expect(!migrator.migrations.isEmpty)

        let applied = try migrator.migrate(database)
        #expect(applied == migrator.migrations.map(\.name))
        let recorded = try recordedMigrations(database)
        #expect(recorded.map(\.version) == migrator.migrations.map(\.version))
        #expect(recorded.map(\.name) == migrator.migrations.map(\.name))
    }

    @Test func migratingAgainAppliesNothing() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        let migrator = RepositoryRoot.migrator

        #expect(try migrator.migrate(database).isEmpty)
        #expect(try migrator.migrate(database).isEmpty)
        let recorded = try recordedMigrations(database)
        #expect(recorded.count == migrator.migrations.count)
        #expect(Set(recorded.map(\.version)).count == recorded.count)
    }

    @Test func reopeningAMigratedFolderAppliesNothing() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        do { _ = try openTestDatabase(folder) }
        let reopened = try openTestDatabase(folder)
        #expect(try recordedMigrations(reopened).count == RepositoryRoot.migrator.migrations.count)
    }

    @Test func changedTextOfAnAppliedMigrationIsRefused() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        var migrations = RepositoryRoot.migrator.migrations
        let first = migrations[0]
        migrations[0] = Migration(version: first.version, name: first.name, sql: first.sql + "\n-- edited after landing\n")

        let error = #expect(throws: StoreError.self) { try Migrator(migrations: migrations).migrate(database) }
        #expect(error.isMigration, "\(String(describing: error))")
    }

    @Test func databaseNewerThanTheMigratorIsRefused() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        let newer = (RepositoryRoot.migrator.migrations.last?.version ?? 0) + 1
        try await database.write { db in
            try await db.run(
                "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                newer,
                "from_a_newer_build",
                "0",
                Date()
            )
        }

        let error = #expect(throws: StoreError.self) { try RepositoryRoot.migrator.migrate(database) }
        #expect(error.isMigration, "\(String(describing: error))")
    }

    @Test func failingMigrationIsRolledBackAndNotRecorded() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try emptyDatabase(folder)
        let migrator = Migrator(migrations: [
            Migration(version: 1, name: "0001_good", sql: "CREATE TABLE good (x INTEGER);"),
            Migration(version: 2, name: "0002_bad", sql: "CREATE TABLE half (x INTEGER); INSERT INTO missing_table VALUES (1);"),
        ])

        #expect(throws: (any Error).self) { try migrator.migrate(database) }
        #expect(try recordedMigrations(database).map(\.version) == [1])
        let tables: [String] = try database.readBlocking { db in
            try await db.query("SELECT name FROM sqlite_master WHERE type = 'table'").map { try $0["name"] }
        }
        #expect(tables.contains("good"))
        #expect(!tables.contains("half"))
    }

    @Test func migrationsAreAppliedInVersionOrderWhateverTheirInputOrder() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try emptyDatabase(folder)
        let migrator = Migrator(migrations: [
            Migration(version: 2, name: "0002_add_row", sql: "INSERT INTO things VALUES (1);"),
            Migration(version: 1, name: "0001_things", sql: "CREATE TABLE things (x INTEGER);"),
        ])
        #expect(try migrator.migrate(database) == ["0001_things", "0002_add_row"])
    }
}

@Suite(.sqlcipherOnly) struct MigrationDirectoryTests {
    private func directory(with files: [String: String]) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        for (name, text) in files {
            try Data(text.utf8).write(to: folder.url.appendingPathComponent(name))
        }
        return folder
    }

    @Test func readsSQLFilesInVersionOrderAndIgnoresOtherFiles() async throws {
        let folder = try directory(with: [
            "0002_second.sql": "CREATE TABLE b (x);",
            "0001_first.sql": "CREATE TABLE a (x);",
            "0010_tenth.sql": "CREATE TABLE c (x);",
            "README.md": "not a migration",
        ])
        let migrator = try Migrator(directory: folder.url)
        #expect(migrator.migrations.map(\.version) == [1, 2, 10])
        #expect(migrator.migrations.map(\.name) == ["0001_first", "0002_second", "0010_tenth"])
        #expect(migrator.migrations.first?.sql == "CREATE TABLE a (x);")
    }

    @Test(arguments: ["first.sql", "0001.sql", "abcd_first.sql", "0000_zero.sql", "-001_negative.sql"])
    func rejectsABadlyNamedFile(badName: String) throws {
        let folder = try directory(with: ["0001_good.sql": "SELECT 1;", badName: "SELECT 1;"])
        let error = #expect(throws: StoreError.self) { try Migrator(directory: folder.url) }
        #expect(error.isMigration, "\(String(describing: error))")
    }

    @Test func rejectsDuplicateVersions() async throws {
        let folder = try directory(with: ["0001_first.sql": "SELECT 1;", "0001_also_first.sql": "SELECT 2;"])
        let error = #expect(throws: StoreError.self) { try Migrator(directory: folder.url) }
        #expect(error.isMigration, "\(String(describing: error))")
    }

    @Test func rejectsTheSameVersionWrittenDifferently() async throws {
        let folder = try directory(with: ["0001_first.sql": "SELECT 1;", "1_again.sql": "SELECT 2;"])
        let error = #expect(throws: StoreError.self) { try Migrator(directory: folder.url) }
        #expect(error.isMigration, "\(String(describing: error))")
    }

    @Test func repositoryMigrationsFolderIsValid() async throws {
        let migrator = try Migrator(directory: RepositoryRoot.migrations)
        #expect(!migrator.migrations.isEmpty)
        #expect(migrator.migrations.map(\.version) == migrator.migrations.map(\.version).sorted())
    }
}
