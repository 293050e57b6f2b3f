import Foundation
import Store
import StoreContract
import TestSupport
import Testing

@Suite(.sqlcipherOnly) struct RekeyTests {
    /// A data folder (key file) holding one company named `name`, closed again.
    private func populatedFolder(companyName name: String = "Before rekey") async throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        let database = try openTestDatabase(folder)
        try await database.write { try await insertCompany(named: name, into: $0) }
        return folder
    }

    private func companyNames(_ database: SQLiteDatabase) throws -> [String] {
        try database.readBlocking { db in try await db.query("SELECT name FROM companies").map { try $0["name"] } }
    }

    @Test func rekeyedDatabaseOpensWithTheNewKeyFileAndKeepsItsData() async throws {
        let folder = try await populatedFolder()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let oldKeyText = try readText(data.keyPath)

        let newKey = try data.rekey(environment: keyFileEnvironment)

        let newKeyText = try readText(data.keyPath)
        #expect(newKeyText != oldKeyText)
        #expect(newKeyText == newKey.hex + "\n")
        #expect(try permissions(data.keyPath) == 0o600)
        #expect(!exists(data.keyPath + ".new"))
        let reopened = try data.openDatabase(migrator: RepositoryRoot.migrator, environment: keyFileEnvironment)
        #expect(try companyNames(reopened) == ["Before rekey"])
    }

    @Test func oldKeyNoLongerOpensARekeyedDatabase() async throws {
        let folder = try await populatedFolder()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let oldKey = try keyFromFile(data)

        _ = try data.rekey(environment: keyFileEnvironment)

        #expect(throws: StoreError.wrongKey(path: data.databasePath)) {
            try data.openDatabase(migrator: RepositoryRoot.migrator, environment: environment(with: oldKey))
        }
    }

    @Test func rekeyedFileIsStillEncrypted() async throws {
        let folder = try await populatedFolder(companyName: "Rekey-Plaintext-Marker")
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        _ = try data.rekey(environment: keyFileEnvironment)

        for name in try FileManager.default.contentsOfDirectory(atPath: data.url.path) where name.hasPrefix("healthwheel.db") {
            let bytes = try Data(contentsOf: data.url.appendingPathComponent(name))
            #expect(bytes.prefix(plainSQLiteHeader.count) != plainSQLiteHeader, "\(name)")
            #expect(bytes.range(of: Data("Rekey-Plaintext-Marker".utf8)) == nil, "\(name)")
        }
    }

    @Test func rekeyWhileTheFolderIsLockedThrowsBusyAndChangesNoFile() async throws {
        let folder = try await populatedFolder()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let lock = try data.lock(purpose: "a running server")
        let before = try snapshot(data)

        let error = #expect(throws: StoreError.self) { try data.rekey(environment: keyFileEnvironment) }
        #expect(error.isBusy, "\(String(describing: error))")
        #expect(try snapshot(data) == before)
        withExtendedLifetime(lock) {}
    }

    @Test func lockIsExclusiveUntilReleased() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        do {
            let lock = try data.lock(purpose: "first")
            let error = #expect(throws: StoreError.self) { try data.lock(purpose: "second") }
            #expect(error.isBusy)
            withExtendedLifetime(lock) {}
        }
        _ = try data.lock(purpose: "after release")
    }

    @Test func interruptedRekeyIsFinishedOnTheNextOpen() async throws {
        let folder = try await populatedFolder()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let oldKeyText = try readText(data.keyPath)
        let newKey = try data.rekey(environment: keyFileEnvironment)

        // As if the process died after re-encrypting but before renaming the pending key over the key file.
        try writeFile(oldKeyText, to: data.keyPath)
        try writeFile(newKey.hex + "\n", to: data.keyPath + ".new")

        let reopened = try data.openDatabase(migrator: RepositoryRoot.migrator, environment: keyFileEnvironment)
        #expect(try companyNames(reopened) == ["Before rekey"])
        #expect(try readText(data.keyPath) == newKey.hex + "\n")
        #expect(!exists(data.keyPath + ".new"))
    }

    @Test func pendingKeyThatDoesNotOpenTheDatabaseIsDiscarded() async throws {
        let folder = try await populatedFolder()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let keyText = try readText(data.keyPath)
        // As if the process died after writing the pending key but before re-encrypting.
        try writeFile(DatabaseKey.random().hex + "\n", to: data.keyPath + ".new")

        let reopened = try data.openDatabase(migrator: RepositoryRoot.migrator, environment: keyFileEnvironment)
        #expect(try companyNames(reopened) == ["Before rekey"])
        #expect(try readText(data.keyPath) == keyText)
        #expect(!exists(data.keyPath + ".new"))
    }

    @Test func rekeyWithAnEnvironmentKeyWritesNoKeyFile() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let oldKey = DatabaseKey.random()
        do {
            let database = try data.openDatabase(migrator: RepositoryRoot.migrator, environment: environment(with: oldKey))
            try await database.write { try await insertCompany(named: "Before rekey", into: $0) }
        }

        let newKey = try data.rekey(environment: environment(with: oldKey))

        #expect(newKey != oldKey)
        #expect(!exists(data.keyPath))
        #expect(!exists(data.keyPath + ".new"))
        #expect(throws: StoreError.wrongKey(path: data.databasePath)) {
            try data.openDatabase(migrator: RepositoryRoot.migrator, environment: environment(with: oldKey))
        }
        let reopened = try data.openDatabase(migrator: RepositoryRoot.migrator, environment: environment(with: newKey))
        #expect(try companyNames(reopened) == ["Before rekey"])
    }

    @Test func rekeyedDatabaseIsBackInWriteAheadLogging() async throws {
        let folder = try await populatedFolder()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        _ = try data.rekey(environment: keyFileEnvironment)
        let connection = try data.openConnection(environment: keyFileEnvironment)
        #expect(try connection.scalar("PRAGMA journal_mode") as String == "wal")
    }

    /// `rekey` treats an empty HEALTHWHEEL_DB_KEY as unset (key file); so must the recovery of an interrupted rekey.
    @Test func interruptedRekeyIsFinishedWhenTheKeyVariableIsSetButEmpty() async throws {
        let folder = try await populatedFolder()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let emptyVariable = [DataDirectory.keyVariable: ""]
        let oldKeyText = try readText(data.keyPath)
        let newKey = try data.rekey(environment: emptyVariable)
        try writeFile(oldKeyText, to: data.keyPath)
        try writeFile(newKey.hex + "\n", to: data.keyPath + ".new")

        let reopened = try data.openDatabase(migrator: RepositoryRoot.migrator, environment: emptyVariable)
        #expect(try companyNames(reopened) == ["Before rekey"])
        #expect(try readText(data.keyPath) == newKey.hex + "\n")
        #expect(!exists(data.keyPath + ".new"))
    }

    /// While a rekey holds the folder lock, `healthwheel.key.new` may be the only copy of the key the database is
    /// being re-encrypted under: opening the database (e.g. `migrate`, `trainer create`) must not delete it.
    @Test func openingWhileARekeyHoldsTheLockKeepsThePendingKey() async throws {
        let folder = try await populatedFolder()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let rekeyInProgress = try data.lock(purpose: "rekey")
        let pendingKeyText = DatabaseKey.random().hex + "\n"
        try writeFile(pendingKeyText, to: data.keyPath + ".new")

        // Refusing with `busy` or opening under the old key are both fine; discarding the pending key is not.
        _ = try? data.openDatabase(migrator: RepositoryRoot.migrator, environment: keyFileEnvironment)

        #expect(exists(data.keyPath + ".new"))
        #expect((try? readText(data.keyPath + ".new")) == pendingKeyText)
        withExtendedLifetime(rekeyInProgress) {}
    }
}
