import Foundation
import HealthwheelCore
import Store
import TestSupport
import Testing

@Suite struct BackupTests {
    @Test func backupWhileWritingIsAnEncryptedConsistentCopy() async throws {
        let folder = TemporaryDirectory()
        let target = TemporaryDirectory()
        defer { withExtendedLifetime((folder, target)) {} }
        let data = folder.dataDirectory
        let database = try openTestDatabase(folder)
        let store = Store(database: database)
        for index in 0..<20 {
            try await store.companies.create(Company(name: "Before \(index)", createdAt: Date()))
        }
        let existing = try database.read { try companyIds($0) }

        let (inserted, progress) = AsyncStream.makeStream(of: Int.self)
        let writer = Task {
            defer { progress.finish() }
            var count = 0
            while !Task.isCancelled {
                try await store.companies.create(Company(name: "During \(count)", createdAt: Date()))
                count += 1
                progress.yield(count)
            }
            return count
        }
        var iterator = inserted.makeAsyncIterator()
        _ = await iterator.next()  // the writer is running

        let backupPath = target.url.appendingPathComponent("copy.db").path
        try data.backup(to: backupPath, environment: keyFileEnvironment)
        writer.cancel()
        let writtenDuring = try await writer.value
        #expect(writtenDuring >= 1)

        let bytes = try Data(contentsOf: URL(fileURLWithPath: backupPath))
        #expect(bytes.prefix(plainSQLiteHeader.count) != plainSQLiteHeader)
        #expect(!exists(backupPath + ".partial"))
        #expect(try permissions(backupPath) == 0o600)

        let copy = try Connection(path: backupPath, key: try keyFromFile(data))
        #expect(try copy.scalar("PRAGMA integrity_check") as String == "ok")
        let copied = try companyIds(copy)
        #expect(existing.isSubset(of: copied))
        let final = try database.read { try companyIds($0) }
        #expect(copied.isSubset(of: final))
    }

    @Test func backupRestoresAsADataFolder() async throws {
        let folder = TemporaryDirectory()
        let restored = TemporaryDirectory()
        defer { withExtendedLifetime((folder, restored)) {} }
        let data = folder.dataDirectory
        let company = Company(name: "Backed up", createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        do {
            let database = try openTestDatabase(folder)
            try await Store(database: database).companies.create(company)
            try data.backup(to: folder.url.appendingPathComponent("copy.db").path, environment: keyFileEnvironment)
        }

        let restoredData = restored.dataDirectory
        try FileManager.default.createDirectory(at: restoredData.url, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder.url.appendingPathComponent("copy.db").path, toPath: restoredData.databasePath)
        let database = try restoredData.openDatabase(migrator: RepositoryRoot.migrator, environment: environment(with: try keyFromFile(data)))
        #expect(try await Store(database: database).companies.find(company.id) == company)
        #expect(!exists(restoredData.keyPath))
    }

    @Test func backupRefusesToOverwriteAnExistingFile() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let database = try openTestDatabase(folder)
        try await database.write { try insertCompany(named: "Gym", into: $0) }
        let destination = folder.url.appendingPathComponent("precious.db").path
        try writeFile("do not overwrite", to: destination)

        let error = #expect(throws: StoreError.self) { try data.backup(to: destination, environment: keyFileEnvironment) }
        #expect(error.isCannotOpen, "\(String(describing: error))")
        #expect(try readText(destination) == "do not overwrite")
    }

    @Test func backupWithAWrongKeyWritesNothing() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        _ = try openTestDatabase(folder)
        let destination = folder.url.appendingPathComponent("copy.db").path

        #expect(throws: StoreError.wrongKey(path: data.databasePath)) {
            try data.backup(to: destination, environment: environment(with: DatabaseKey.random()))
        }
        #expect(!exists(destination))
        #expect(!exists(destination + ".partial"))
    }
}
