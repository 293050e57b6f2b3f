import Foundation
import HealthwheelCore
import Store
import StoreContract
import TestSupport
import Testing

@Suite(.sqlcipherOnly) struct BackupTests {
    @Test func backupWhileWritingIsAnEncryptedConsistentCopy() async throws {
        let folder = TemporaryDirectory()
        let target = TemporaryDirectory()
        defer { withExtendedLifetime((folder, target)) {} }
        let data = folder.dataDirectory
        let database = try openTestDatabase(folder)
        let store = Repositories(database: database)
        for index in 0..<20 {
            try await store.companies.create(Company(name: "Before \(index)", createdAt: Date()))
        }
        let existing = try database.readBlocking { try await companyIds($0) }

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

        let backupFolder = target.url.appendingPathComponent("backup").path
        try data.backup(to: backupFolder, environment: keyFileEnvironment)
        let backupPath = DataDirectory(path: backupFolder).databasePath
        writer.cancel()
        let writtenDuring = try await writer.value
        #expect(writtenDuring >= 1)

        let bytes = try Data(contentsOf: URL(fileURLWithPath: backupPath))
        #expect(bytes.prefix(plainSQLiteHeader.count) != plainSQLiteHeader)
        #expect(!exists(backupFolder + ".partial"))
        #expect(try permissions(backupPath) == 0o600)
        #expect(try permissions(backupFolder) == 0o700)

        let copy = try SQLiteConnection(path: backupPath, key: try keyFromFile(data))
        #expect(try copy.scalar("PRAGMA integrity_check") as String == "ok")
        let copied = try await companyIds(copy)
        #expect(existing.isSubset(of: copied))
        let final = try database.readBlocking { try await companyIds($0) }
        #expect(copied.isSubset(of: final))
    }

    @Test func aBackupWithMediaRestoresIntoANewFolderAndServesTheSameBytes() async throws {
        let folder = TemporaryDirectory()
        let restored = TemporaryDirectory()
        defer { withExtendedLifetime((folder, restored)) {} }
        let data = folder.dataDirectory
        let (fixture, result) = try await ResultRepositoryTests.setUp(in: folder)
        let storage = try SealedMediaFiles(root: data.mediaFolder, chunkSize: 4_096)
        let bytes = MediaStoreTests.bytes(50_000)
        var kept: [(MediaFile, MediaKey)] = []
        for index in 0..<3 {
            let key = MediaKey.random()
            var file = MediaStoreTests.media(result, bytes: bytes.count, at: fixture.clock.now)
            let stored = try MediaStoreTests.write(bytes, storage, id: file.id, key: key)
            file.sha256 = stored.sha256
            if index == 0 {
                let preview = try storage.create(file.id, key: key, variant: .preview)
                try Array(bytes.prefix(3_000)).withUnsafeBytes { try preview.write($0) }
                file.previewBytes = try preview.finish().length
                let small = try storage.create(file.id, key: key, variant: .small)
                try Array(bytes.prefix(1_000)).withUnsafeBytes { try small.write($0) }
                file.smallPreviewBytes = try small.finish().length
            }
            try await fixture.store.media.insert(file, key: key, quota: 1 << 30, audit: .byTest)
            kept.append((file, key))
            if index == 2 { try storage.remove([file.id]) }  // deleted from disk after the rows were read: gone
        }
        let backup = folder.url.appendingPathComponent("backup").path
        try data.backup(to: backup, environment: keyFileEnvironment)

        let restoredData = restored.dataDirectory
        let key = try keyFromFile(data)
        try restoredData.restore(from: backup, environment: environment(with: key))
        let database = try restoredData.openDatabase(migrator: RepositoryRoot.migrator, environment: environment(with: key))
        let store = Repositories(database: database)
        #expect(try await store.companies.find(result.companyId) != nil)
        let restoredStorage = try SealedMediaFiles(root: restoredData.mediaFolder)
        for (file, key) in kept.prefix(2) {
            let found = try #require(try await store.media.find(file.id, in: file.companyId))
            #expect(found.file == file && found.key == key)
            #expect(try restoredStorage.open(file.id, key: found.key, length: file.bytes).read(0..<file.bytes) == bytes)
        }
        let (first, firstKey) = kept[0]
        let preview = try restoredStorage.open(first.id, key: firstKey, length: 3_000, variant: .preview)
        #expect(try preview.read(0..<3_000) == Array(bytes.prefix(3_000)), "the preview came along")
        let small = try restoredStorage.open(first.id, key: firstKey, length: 1_000, variant: .small)
        #expect(try small.read(0..<1_000) == Array(bytes.prefix(1_000)), "the small preview came along")
        #expect(throws: MediaUnreadable.self, "a length that is not the original's does not open it") {
            try restoredStorage.open(first.id, key: firstKey, length: 3_000, variant: .original).read(0..<10) == []
        }
        #expect(try await store.media.find(kept[2].0.id, in: result.companyId) == nil, "a file gone before its copy is gone from the copy")
        #expect(!exists(restoredData.keyPath))
    }

    @Test func aRestoreNeedsAKeyAnEmptyFolderAndABackup() async throws {
        let folder = TemporaryDirectory()
        let other = TemporaryDirectory()
        defer { withExtendedLifetime((folder, other)) {} }
        let data = folder.dataDirectory
        _ = try openTestDatabase(folder)
        let backup = folder.url.appendingPathComponent("backup").path
        try data.backup(to: backup, environment: keyFileEnvironment)
        let target = other.dataDirectory
        #expect(throws: StoreError.self) { try target.restore(from: backup, environment: [:]) }
        #expect(throws: StoreError.self) { try target.restore(from: backup, environment: environment(with: DatabaseKey.random())) }
        #expect(!exists(target.databasePath), "a key that does not open it leaves nothing")
        #expect(throws: StoreError.self) { try target.restore(from: other.url.path, environment: environment(with: try keyFromFile(data))) }
        #expect(throws: StoreError.self) { try data.restore(from: backup, environment: environment(with: try keyFromFile(data))) }
    }

    @Test func backupRefusesToOverwriteAnExistingFile() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let data = folder.dataDirectory
        let database = try openTestDatabase(folder)
        try await database.write { try await insertCompany(named: "Gym", into: $0) }
        let destination = folder.url.appendingPathComponent("precious").path
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
