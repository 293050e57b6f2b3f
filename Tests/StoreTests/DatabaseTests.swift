import Foundation
import StoreContract
import Synchronization
import TestSupport
import Testing

@testable import Store

@Suite(.sqlcipherOnly) struct DatabaseTests {
    private struct Abort: Error {}

    private func companyCount(_ database: SQLiteDatabase) throws -> Int {
        try database.readBlocking { try await $0.scalar("SELECT count(*) FROM companies") }
    }

    /// A long read (a chain's roster searched by SQL, an export) waits on the store's own threads: with more of
    /// them held than Swift has cooperative threads (one per core), another request's read still runs at once.
    /// Run inline, as every read was, the held reads took every cooperative thread and the server stood still.
    @Test func longReadsWaitOnTheStoresThreadsNotTheCallers() async throws {
        let folder = TemporaryDirectory()
        let database = try openTestDatabase(folder)
        let gate = DispatchSemaphore(value: 0)
        let held = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<held {
                group.addTask {
                    try await database.longRead(for: UUID()) { db in
                        gate.wait()
                        _ = try await db.query("SELECT count(*) FROM companies")
                        return osThreadName()
                    }
                }
            }
            let quick: Int = try await database.read { try await $0.scalar("SELECT 2") }
            #expect(quick == 2)
            for _ in 0..<held { gate.signal() }
            for try await thread in group { #expect(thread == "hw-reader") }
        }
    }

    /// Long reads are taken from each company's line in turn: company B's one read runs after at most one more of
    /// company A's, however many A queued first (first come, first served ran it after all of them).
    @Test func longReadsTakeCompaniesInTurn() {
        let reads = LongReads(threads: 1)
        defer { reads.close() }
        let (gate, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let order = Mutex<[String]>([])
        let (a, b) = (UUID(), UUID())
        reads.run(for: a) {
            gate.wait()  // holds the only thread while the rest queue
            order.withLock { $0.append("a0") }
            done.signal()
        }
        for index in 1...5 {
            reads.run(for: a) {
                order.withLock { $0.append("a\(index)") }
                done.signal()
            }
        }
        reads.run(for: b) {
            order.withLock { $0.append("b") }
            done.signal()
        }
        gate.signal()
        for _ in 0..<7 { done.wait() }
        let ran = order.withLock { $0 }
        #expect(ran.count == 7)
        #expect((ran.firstIndex(of: "b") ?? 7) <= 2, "\(ran)")
    }

    @Test func writeRollsBackEverythingWhenTheBodyThrows() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)

        await #expect(throws: Abort.self) {
            try await database.write { db in
                try await insertCompany(named: "First", into: db)
                try await insertCompany(named: "Second", into: db)
                throw Abort()
            }
        }
        #expect(try companyCount(database) == 0)
        // The writer is usable again: the failed transaction did not stay open.
        try await database.write { try await insertCompany(named: "Third", into: $0) }
        #expect(try companyCount(database) == 1)
    }

    @Test func textIsStoredAndReadWholeWithNULsAndEmpty() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        let texts = ["before\u{0}after", "", "\u{0}", "Zoë 🏋️"]
        for text in texts {
            let read: String = try database.readBlocking { try await $0.scalar("SELECT ?", text) }
            #expect(read == text)
            let isNull: Int64 = try database.readBlocking { try await $0.scalar("SELECT ? IS NULL", text) }
            #expect(isNull == 0)
        }
        let matches: Int64 = try database.readBlocking { try await $0.scalar("SELECT ? = 'before'", "before\u{0}after") }
        #expect(matches == 0)
    }

    @Test func rolledBackWriteIsNotInTheFileAfterReopening() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        do {
            let database = try openTestDatabase(folder)
            _ = try? await database.write { db in
                try await insertCompany(named: "Never", into: db)
                throw Abort()
            }
        }
        #expect(try companyCount(try openTestDatabase(folder)) == 0)
    }

    @Test func readsAfterACommittedWriteSeeIt() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        let id = UUID()

        try await database.write { db in try await db.run("INSERT INTO companies (id, name, created_at) VALUES (?, ?, ?)", id, "Gym", Date()) }
        let names: [String] = try database.readBlocking { db in
            try await db.query("SELECT name FROM companies WHERE id = ?", id).map { try $0["name"] }
        }
        #expect(names == ["Gym"])
    }

    @Test func writeReturnsTheBodysResult() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        let changed = try await database.write { db in
            try await insertCompany(named: "A", into: db)
            return try await db.run("UPDATE companies SET name = 'B'")
        }
        #expect(changed == 1)
    }

    @Test func readConnectionsCannotWrite() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        #expect(throws: SQLiteError.self) {
            try database.readBlocking { try await insertCompany(named: "Sneaky", into: $0) }
        }
        #expect(try companyCount(database) == 0)
    }

    @Test func foreignKeysAreEnforced() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        await #expect(throws: SQLiteError.self) {
            try await database.write { db in
                try await db.run(
                    """
                    INSERT INTO trainers (id, company_id, email, name, role, password_hash, created_at, updated_at)
                    VALUES (?, ?, 'x@example.com', 'X', 'trainer', 'h', 0, 0)
                    """,
                    UUID(),
                    UUID()
                )
            }
        }
    }

    @Test func databaseUsesWriteAheadLogging() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        let mode: String = try database.withWriter { try $0.scalar("PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test func manyParallelReadsAllSucceed() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openPooledDatabase(folder, readers: 2)
        try await database.write { db in
            for index in 0..<3 { try await insertCompany(named: "Gym \(index)", into: db) }
        }
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask { try database.readBlocking { try await $0.scalar("SELECT count(*) FROM companies") } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 3, count: 16))
    }

    /// `read`'s documentation suggests BEGIN/COMMIT inside the body; a body that throws in between must not hand
    /// the next caller a reader stuck on an old snapshot.
    @Test func readerLeftInsideATransactionByAFailingBodyDoesNotServeStaleData() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openPooledDatabase(folder, readers: 1)
        #expect(throws: Abort.self) {
            try database.readBlocking { db in
                try await db.execute("BEGIN")
                _ = try await db.scalar("SELECT count(*) FROM companies") as Int
                throw Abort()
            }
        }
        try await database.write { try await insertCompany(named: "Gym", into: $0) }
        #expect(try companyCount(database) == 1)
    }
}

/// The calling thread's name as the kernel keeps it (`/proc/thread-self/comm`), which `top -H` shows: a store
/// thread once kept the name it inherited from the dispatch worker that started it ("oot.default-qos").
private func osThreadName() -> String {
    ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
}

private func openPooledDatabase(_ folder: TemporaryDirectory, readers: Int) throws -> SQLiteDatabase {
    try folder.dataDirectory.openDatabase(migrator: RepositoryRoot.migrator, environment: keyFileEnvironment, readers: readers)
}
