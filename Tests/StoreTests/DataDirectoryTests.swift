import Foundation
import HealthwheelCore
import Store
import StoreContract
import TestSupport
import Testing

@Suite(.sqlcipherOnly) struct EncryptionAtRestTests {
    @Test func newDatabaseFileIsNotAPlainSQLiteFile() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let marker = "Plaintext-Marker-Gym-4711"
        do {
            let database = try openTestDatabase(folder)
            try await database.write { try await insertCompany(named: marker, into: $0) }
        }

        let bytes = try Data(contentsOf: URL(fileURLWithPath: data.databasePath))
        #expect(bytes.count >= 1024)
        #expect(bytes.prefix(plainSQLiteHeader.count) != plainSQLiteHeader)
        #expect(bytes.range(of: Data(marker.utf8)) == nil, "the company name is readable in the file")
        #expect(bytes.range(of: Data("CREATE TABLE".utf8)) == nil, "the schema is readable in the file")
    }

    @Test func keyFileHolds64HexCharactersAndANewline() throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        _ = try openTestDatabase(folder)

        let text = try readText(folder.dataDirectory.keyPath)
        #expect(text.hasSuffix("\n"))
        let hex = text.dropLast()
        #expect(hex.count == 64)
        #expect(hex.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test func keyFileIsReadableByItsOwnerOnly() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        _ = try openTestDatabase(folder)
        #expect(try permissions(folder.dataDirectory.keyPath) == 0o600)
    }

    @Test func databaseFilesAreReadableByTheirOwnerOnly() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let database = try openTestDatabase(folder)
        try await database.write { try await insertCompany(named: "Gym", into: $0) }

        #expect(try permissions(data.databasePath) == 0o600)
        for derived in [data.databasePath + "-wal", data.databasePath + "-shm"] where exists(derived) {
            #expect(try permissions(derived) == 0o600, "\(derived)")
        }
        #expect(try permissions(data.url.path) == 0o700)
        withExtendedLifetime(database) {}
    }

    @Test func newKeyFileKeyOpensTheDatabase() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        do {
            let database = try openTestDatabase(folder)
            try await database.write { try await insertCompany(named: "Gym", into: $0) }
        }
        let connection = try SQLiteConnection(path: data.databasePath, key: try keyFromFile(data))
        #expect(try connection.scalar("SELECT count(*) FROM companies") as Int == 1)
    }
}

@Suite(.sqlcipherOnly) struct KeySourceTests {
    @Test func environmentKeyIsUsedInsteadOfAKeyFile() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let key = DatabaseKey.random()
        do {
            let database = try data.openDatabase(migrator: RepositoryRoot.migrator, environment: environment(with: key))
            try await database.write { try await insertCompany(named: "Gym", into: $0) }
        }

        #expect(!exists(data.keyPath))
        let connection = try SQLiteConnection(path: data.databasePath, key: key)
        #expect(try connection.scalar("SELECT count(*) FROM companies") as Int == 1)
    }

    @Test func environmentKeyReopensTheDatabaseItCreated() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let key = DatabaseKey.random()
        do {
            let database = try data.openDatabase(migrator: RepositoryRoot.migrator, environment: environment(with: key))
            try await database.write { try await insertCompany(named: "Gym", into: $0) }
        }
        // Upper case is the same key.
        let reopened = try data.openDatabase(migrator: RepositoryRoot.migrator, environment: [DataDirectory.keyVariable: key.hex.uppercased()])
        #expect(try reopened.readBlocking { try await $0.scalar("SELECT count(*) FROM companies") as Int } == 1)
    }

    @Test(arguments: [
        String(repeating: "a", count: 63),
        String(repeating: "a", count: 65),
        String(repeating: "g", count: 64),
        String(repeating: "a", count: 62) + " z",
    ])
    func invalidEnvironmentKeyThrowsInvalidKeyAndCreatesNothing(value: String) throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        #expect(throws: StoreError.invalidKey(source: DataDirectory.keyVariable)) {
            try data.openDatabase(migrator: RepositoryRoot.migrator, environment: [DataDirectory.keyVariable: value])
        }
        #expect(!exists(data.url.path))
    }

    @Test func invalidKeyFileThrowsInvalidKey() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        _ = try openTestDatabase(folder)
        try writeFile(String(repeating: "0", count: 63) + "\n", to: data.keyPath)

        #expect(throws: StoreError.invalidKey(source: data.keyPath)) {
            try data.openDatabase(migrator: RepositoryRoot.migrator, environment: keyFileEnvironment)
        }
    }

    @Test func existingDatabaseWithoutAnyKeyThrowsMissingKeyAndCreatesNoKey() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        do {
            let database = try openTestDatabase(folder)
            try await database.write { try await insertCompany(named: "Gym", into: $0) }
        }
        try FileManager.default.removeItem(atPath: data.keyPath)
        let before = try snapshot(data)

        #expect(throws: StoreError.missingKey(databasePath: data.databasePath, keyPath: data.keyPath)) {
            try data.openDatabase(migrator: RepositoryRoot.migrator, environment: keyFileEnvironment)
        }
        #expect(!exists(data.keyPath))
        #expect(try snapshot(data) == before)
    }

    @Test func keyDescriptionNeverShowsTheKey() {
        let key = DatabaseKey.random()
        #expect(!String(describing: key).contains(key.hex))
        #expect(!String(reflecting: key).contains(key.hex.prefix(16)))
        #expect(!"\(key)".contains(key.hex))
    }
}

@Suite(.sqlcipherOnly) struct WrongKeyTests {
    @Test func wrongKeyLeavesTheFileByteForByteUnchanged() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        do {
            let database = try openTestDatabase(folder)
            let store = Repositories(database: database)
            try await store.companies.create(Company(name: "Before the wrong key", createdAt: Date()))
        }
        let before = try snapshot(data)
        #expect(before.keys.contains("healthwheel.db"))

        #expect(throws: StoreError.wrongKey(path: data.databasePath)) {
            try data.openDatabase(migrator: RepositoryRoot.migrator, environment: environment(with: DatabaseKey.random()))
        }
        let after = try snapshot(data)
        #expect(after.keys.sorted() == before.keys.sorted())
        #expect(after == before)
    }

    @Test func wrongKeyInTheKeyFileLeavesEveryFileUnchanged() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        do {
            let database = try openTestDatabase(folder)
            try await database.write { try await insertCompany(named: "Gym", into: $0) }
        }
        try writeFile(DatabaseKey.random().hex + "\n", to: data.keyPath)
        let before = try snapshot(data)

        #expect(throws: StoreError.wrongKey(path: data.databasePath)) {
            try data.openDatabase(migrator: RepositoryRoot.migrator, environment: keyFileEnvironment)
        }
        #expect(try snapshot(data) == before)
    }

    @Test func wrongKeyOnASingleConnectionThrowsWrongKey() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        _ = try openTestDatabase(folder)
        #expect(throws: StoreError.wrongKey(path: data.databasePath)) {
            try data.openConnection(environment: environment(with: DatabaseKey.random()))
        }
    }

    /// After a crash the folder also holds `-wal` and `-shm` files with committed but not yet checkpointed pages.
    @Test func wrongKeyAfterACrashLeavesEveryFileUnchanged() async throws {
        let folder = TemporaryDirectory()
        let crashed = TemporaryDirectory()
        defer { withExtendedLifetime((folder, crashed)) {} }
        let data = folder.dataDirectory
        let copy = crashed.dataDirectory
        let database = try openTestDatabase(folder)
        try await database.write { try await insertCompany(named: "Only in the log", into: $0) }
        // Copying the files of an open database is what a kill -9 leaves behind.
        try FileManager.default.createDirectory(at: copy.url, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: data.url.path) {
            try FileManager.default.copyItem(at: data.url.appendingPathComponent(name), to: copy.url.appendingPathComponent(name))
        }
        withExtendedLifetime(database) {}
        let before = try snapshot(copy)
        try #require(before.keys.contains("healthwheel.db-wal"))

        #expect(throws: StoreError.wrongKey(path: copy.databasePath)) {
            try copy.openDatabase(migrator: RepositoryRoot.migrator, environment: environment(with: DatabaseKey.random()))
        }
        let after = try snapshot(copy)
        #expect(after.keys.sorted() == before.keys.sorted())
        #expect(after == before)
    }
}

/// `DataDirectory.check` (the CLI's `healthwheel check`): SQLite's integrity and foreign-key checks of the file.
@Suite(.sqlcipherOnly) struct DataDirectoryCheckTests {
    @Test func aSoundFilePassesAndAnOrphanRowIsNamed() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        do { _ = try openTestDatabase(folder) }
        #expect(try folder.dataDirectory.check(environment: keyFileEnvironment) == [])

        // A trainer whose company is gone, written with the foreign keys off as only a damaged file would hold it.
        let connection = try folder.dataDirectory.openConnection(environment: keyFileEnvironment)
        _ = try await connection.run("PRAGMA foreign_keys = OFF")
        _ = try await connection.run(
            "INSERT INTO trainers (id, company_id, email, name, role, password_hash, created_at, updated_at) VALUES ('t', 'no-such-company', 'a@b.c', 'A', 'trainer', 'x', 0, 0)"
        )
        let problems = try folder.dataDirectory.check(environment: keyFileEnvironment)
        #expect(problems.count == 1 && problems[0].contains("trainers") && problems[0].contains("companies"), "\(problems)")
    }
}
