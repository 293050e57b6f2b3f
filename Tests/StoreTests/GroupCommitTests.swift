import Foundation
import Store
import StoreContract
import TestSupport
import Testing

/// The writer thread's batches: one COMMIT per batch, a job that throws undone alone, and nobody told "done"
/// before the COMMIT.
@Suite(.sqlcipherOnly) struct GroupCommitTests {
    private struct Refused: Error, Equatable {
        var name: String
    }

    private func companyNames(_ database: SQLiteDatabase) throws -> Set<String> {
        try database.readBlocking { db in Set(try await db.query("SELECT name FROM companies").map { try $0["name"] as String }) }
    }

    @Test func jobThatThrowsInsideABatchLeavesTheOthersCommitted() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        let before = database.writeStatistics

        let outcomes = await database.writeEach(["A", "B", "C", "D"]) { name, db -> String in
            try await insertCompany(named: name, into: db)
            if name == "B" || name == "D" { throw Refused(name: name) }  // after writing: its savepoint undoes it
            return name
        }

        #expect(try outcomes[0].get() == "A")
        #expect(throws: Refused(name: "B")) { try outcomes[1].get() }
        #expect(try outcomes[2].get() == "C")
        #expect(throws: Refused(name: "D")) { try outcomes[3].get() }
        #expect(try companyNames(database) == ["A", "C"])
        // The batch ran again with savepoints after B threw: A and C are stored once each, not twice.
        #expect(try database.readBlocking { db in try await db.scalar("SELECT count(*) FROM companies") as Int } == 2)
        // All four were queued at once, so they shared one transaction: one commit for the two that stood.
        let after = database.writeStatistics
        #expect(after.commits - before.commits == 1)
        #expect(after.jobs - before.jobs == 2)
    }

    @Test func aLoneJobThatThrowsKeepsNothingAndTheWriterGoesOn() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)

        await #expect(throws: Refused(name: "alone")) {
            try await database.write { db in
                try await insertCompany(named: "alone", into: db)
                throw Refused(name: "alone")
            }
        }
        #expect(try companyNames(database).isEmpty)
        try await database.write { try await insertCompany(named: "Next", into: $0) }
        #expect(try companyNames(database) == ["Next"])
    }

    @Test func failedCommitFailsEveryJobOfItsBatchAndKeepsNothing() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)

        // A deferred foreign key is only checked by COMMIT: the second job makes the whole batch's COMMIT fail.
        let outcomes = await database.writeEach([0, 1]) { index, db in
            if index == 0 {
                try await insertCompany(named: "Innocent", into: db)
            } else {
                try await db.execute("PRAGMA defer_foreign_keys = ON")
                try await db.run(
                    """
                    INSERT INTO trainers (id, company_id, email, name, role, password_hash, created_at, updated_at)
                    VALUES (?, ?, 'orphan@example.com', 'Orphan', 'trainer', 'h', 0, 0)
                    """,
                    UUID(),
                    UUID()
                )
            }
        }

        #expect(throws: SQLiteError.self) { try outcomes[0].get() }
        #expect(throws: SQLiteError.self) { try outcomes[1].get() }
        #expect(try companyNames(database).isEmpty)
        // The writer goes on with a clean connection.
        try await database.write { try await insertCompany(named: "Next", into: $0) }
        #expect(try companyNames(database) == ["Next"])
    }

    @Test func manyConcurrentWritersAreAllAcknowledgedAndAllPresent() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        let names = (0..<64).map { "Gym \($0)" }

        let acknowledged = try await withThrowingTaskGroup(of: String.self) { group in
            for name in names {
                group.addTask {
                    try await database.write { try await insertCompany(named: name, into: $0) }
                    // Durable before the caller hears of it: a fresh reader sees it at once.
                    #expect(try database.readBlocking { try await $0.scalar("SELECT count(*) FROM companies WHERE name = ?", name) } == 1)
                    return name
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }

        #expect(acknowledged == Set(names))
        #expect(try companyNames(database) == Set(names))
        #expect(database.writeStatistics.jobs >= names.count)
    }

    @Test func acknowledgedWritesSurviveReopening() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        do {
            let database = try openTestDatabase(folder)
            _ = await database.writeEach(Array(0..<300)) { index, db in try await insertCompany(named: "Gym \(index)", into: db) }
        }
        #expect(try companyNames(try openTestDatabase(folder)).count == 300)
    }

    @Test func writeReturnsOptionalValuesAsTheyWere() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        let nothing: Int? = try await database.write { _ in nil }
        let something: Int? = try await database.write { _ in 7 }
        #expect(nothing == nil)
        #expect(something == 7)
    }
}

/// The store's threads run below normal priority, so that request threads win the CPU when both want it.
@Suite(.sqlcipherOnly) struct ThreadPriorityTests {
    /// The nice values of this process's threads named `name`.
    private func niceValues(ofThreadsNamed name: String) throws -> [Int] {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        return tasks.compactMap { task -> Int? in
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
                stat[stat.index(after: open)..<close] == name
            else { return nil }
            // After the name: state is field 3 of stat(5), nice is field 19.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return Int(fields[16])
        }
    }

    @Test func theWriterAndCheckpointThreadsRunBelowNormalPriority() async throws {
        let folder = TemporaryDirectory()
        defer { withExtendedLifetime(folder) {} }
        let database = try openTestDatabase(folder)
        try await database.write { db in try await insertCompany(named: "A", into: db) }  // the writer thread is running

        let writers = try niceValues(ofThreadsNamed: "hw-writer")
        let checkpointers = try niceValues(ofThreadsNamed: "hw-checkpointer")
        // Tests running in parallel may hold other databases: every such thread is lowered, none is left at 0.
        #expect(!writers.isEmpty && writers.allSatisfy { $0 == 10 })
        #expect(!checkpointers.isEmpty && checkpointers.allSatisfy { $0 == 15 })
        withExtendedLifetime(database) {}
    }
}
