import Dispatch
import Foundation
import StoreContract
import TestSupport
import Testing

@testable import Store

/// The write-ahead log is copied back into the database file by the checkpointer's thread, not by the writer.
@Suite(.sqlcipherOnly) struct CheckpointerTests {
    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// A database of one table, `notes`, whose log is checkpointed past `threshold` frames; and its file's path.
    static func notesDatabase(in folder: TemporaryDirectory, checkpointingAfter threshold: Int) throws -> (SQLiteDatabase, String) {
        let path = folder.url.appendingPathComponent("notes.db").path
        let database = try SQLiteDatabase(path: path, key: .random(), auditKey: nil, readers: 1, checkpointAfterFrames: threshold)
        try database.withWriter { db in try db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)") }
        return (database, path)
    }

    @Test func theLogIsCheckpointedIntoTheDatabaseFileOnceItPassesTheThreshold() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let (database, path) = try Self.notesDatabase(in: folder, checkpointingAfter: 50)
        let sizeBefore = Self.fileSize(path)

        // About 300 pages of rows, far past the threshold. The writer's WAL hook replaced SQLite's own automatic
        // checkpoints, so only the checkpointer can grow the database file.
        let text = String(repeating: "x", count: 4_000)
        for _ in 0..<300 {
            try await database.write { db in try await db.run("INSERT INTO notes (text) VALUES (?)", text) }
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while Self.fileSize(path) < sizeBefore + 300 * 4_096, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(database.checkpointCount > 0)
        #expect(Self.fileSize(path) >= sizeBefore + 300 * 4_096)
        #expect(try database.readBlocking { db in try await db.scalar("SELECT count(*) FROM notes") as Int } == 300)
        #expect(try database.readBlocking { db in try await db.scalar("PRAGMA integrity_check") as String } == "ok")
    }

    @Test func truncatingTheLogLeavesItEmptyAndTheRowsInTheFile() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let (database, path) = try Self.notesDatabase(in: folder, checkpointingAfter: 100_000)
        for _ in 0..<20 {
            try await database.write { db in try await db.run("INSERT INTO notes (text) VALUES (?)", String(repeating: "z", count: 2_000)) }
        }
        #expect(Self.fileSize(path + "-wal") > 20 * 1_024, "the rows are in the log alone")
        #expect(try await database.truncateLog())
        #expect(Self.fileSize(path + "-wal") == 0)
        #expect(try database.readBlocking { db in try await db.scalar("SELECT count(*) FROM notes") as Int } == 20)
        try await database.write { db in try await db.run("INSERT INTO notes (text) VALUES ('after')") }
        #expect(try database.readBlocking { db in try await db.scalar("SELECT count(*) FROM notes") as Int } == 21, "the log starts over")
    }

    @Test func aTruncationReadersHoldUpIsFinishedByTheCheckpointerOnceTheyLetGo() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let (database, path) = try Self.notesDatabase(in: folder, checkpointingAfter: 100_000)
        for _ in 0..<10 {
            try await database.write { db in try await db.run("INSERT INTO notes (text) VALUES (?)", String(repeating: "r", count: 2_000)) }
        }
        // A reader holds a snapshot that needs the log until the test lets it go: longer than the writer waits.
        let reading = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let reader = Thread {
            try? database.readBlocking { db in
                try await db.execute("BEGIN")
                _ = try await db.scalar("SELECT count(*) FROM notes") as Int
                reading.signal()
                release.wait()
                try await db.execute("COMMIT")
            }
        }
        reader.start()
        reading.wait()
        #expect(try await database.truncateLog() == false, "busy: handed to the checkpointer")
        #expect(database.checkpointer.isTruncationPending)
        #expect(Self.fileSize(path + "-wal") > 0)
        release.signal()
        let deadline = ContinuousClock.now + .seconds(20)
        while database.checkpointer.isTruncationPending, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!database.checkpointer.isTruncationPending)
        #expect(Self.fileSize(path + "-wal") == 0)
        #expect(try database.readBlocking { db in try await db.scalar("SELECT count(*) FROM notes") as Int } == 10)
    }

    @Test func belowTheThresholdNothingIsCheckpointed() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let (database, _) = try Self.notesDatabase(in: folder, checkpointingAfter: 100_000)
        for _ in 0..<20 {
            try await database.write { db in try await db.run("INSERT INTO notes (text) VALUES (?)", "short") }
        }
        #expect(database.checkpointCount == 0)
    }

    @Test func underSteadyWritesTheLogStartsOverInsteadOfGrowing() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let (database, path) = try Self.notesDatabase(in: folder, checkpointingAfter: 20)
        // 1,500 commits of at least two pages each: a log that never started over would pass 12 MB.
        let text = String(repeating: "y", count: 3_000)
        for _ in 0..<1_500 {
            try await database.write { db in try await db.run("INSERT INTO notes (text) VALUES (?)", text) }
        }
        #expect(Self.fileSize(path + "-wal") < 2_000_000)
        #expect(try database.readBlocking { db in try await db.scalar("SELECT count(*) FROM notes") as Int } == 1_500)
    }
}
