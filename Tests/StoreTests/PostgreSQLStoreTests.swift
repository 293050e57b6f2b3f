import Foundation
import HealthwheelCore
import Synchronization
import TestSupport
import Testing

@testable import Store

/// How SQLite's statements are read for PostgreSQL, without a server.
@Suite struct PostgreSQLStatementTests {
    @Test func parametersAreNumberedOutsideQuotesAndComments() {
        #expect(PostgreSQLConnection.numberingParameters("SELECT ? , '?' , ?3, ? -- ?\n, \"a?\"") == "SELECT $1 , '?' , $3, $4 -- ?\n, \"a?\"")
    }

    @Test func aDatabaseURLIsReadAsLibpqReadsItAndNeverShowsItsPassword() throws {
        let url = try PostgreSQLURL("postgres://hw%40gym:s3cr%2Ft@db.example:6543/chain?sslmode=verify-full&sslrootcert=/etc/ca.pem")
        #expect(url.user == "hw@gym" && url.password == "s3cr/t" && url.host == "db.example" && url.port == 6543)
        #expect(url.database == "chain" && url.tls == .verifyFull && url.rootCertificatePath == "/etc/ca.pem")
        #expect(url.description == "postgres://hw@gym:***@db.example:6543/chain?sslmode=verify-full&sslrootcert=/etc/ca.pem")
        #expect(try PostgreSQLURL("postgresql://u@h/d").tls == .prefer, "libpq's default")
        for bad in ["mysql://u@h/d", "postgres://u@h", "postgres://h/d", "postgres://u@h/d?sslmode=on", "postgres://u@h/d?pool=3"] {
            #expect(throws: StoreError.self, "\(bad)") { try PostgreSQLURL(bad) }
        }
    }

    @Test func aFileIsCutIntoStatementsAtTheSemicolonsThatEndThem() {
        let file = """
            -- a comment; not a statement
            CREATE TABLE a (t TEXT DEFAULT ';');
            CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RETURN NULL; END $$;
            /* ; */ SELECT 1
            """
        let statements = PostgreSQLConnection.statements(file).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(statements.count == 3)
        #expect(statements[1].hasPrefix("CREATE FUNCTION") && statements[1].hasSuffix("END $$"))
    }
}

/// The PostgreSQL store, on the server `HEALTHWHEEL_TEST_DATABASE_URL` names (scripts/postgres starts one).
@Suite(.enabled(if: PostgreSQLTestServer.url != nil, "HEALTHWHEEL_TEST_DATABASE_URL is not set"))
struct PostgreSQLStoreTests {
    @Test func nodesStartingTogetherOnAnEmptyDatabaseMigrateItOnce() throws {
        let url = try PostgreSQLTestServer.emptyDatabase()
        let nodes = try (0..<3).map { _ in try PostgreSQLDatabase(url: url, sealer: ColumnSealer(key: PostgreSQLTestServer.dataKey), threads: 1) }
        defer { for node in nodes { node.close() } }
        let migrator = RepositoryRoot.postgresMigrator
        let applied = Mutex<[[String]]>([])
        DispatchQueue.concurrentPerform(iterations: nodes.count) { index in
            let names = (try? migrator.migrate(nodes[index])) ?? ["failed"]
            applied.withLock { $0.append(names) }
        }
        let outcomes = applied.withLock { $0 }.sorted { $0.count > $1.count }
        #expect(outcomes == [migrator.migrations.map(\.name), [], []], "one node migrates, the others find it done")
        let recorded: Int = try nodes[0].readBlocking { try $0.scalar("SELECT count(*) FROM schema_migrations") }
        #expect(recorded == migrator.migrations.count)
    }

    /// A server that stops answering (a network dropping packets, a failover) never holds a thread for good:
    /// past the deadline the statement fails, its connection is dropped, and the next statement gets another.
    @Test func aStatementUnansweredPastTheDeadlineFailsAndItsConnectionIsReplaced() async throws {
        let url = try PostgreSQLTestServer.emptyDatabase()
        let database = try PostgreSQLDatabase(url: url, sealer: nil, threads: 1, answerDeadline: .milliseconds(500))
        defer { database.close() }
        let before: Int = try await database.read { try $0.scalar("SELECT pg_backend_pid()") }
        await #expect {
            try await database.read { db in _ = try db.query("SELECT pg_sleep(3)") }
        } throws: { error in
            (error as? PostgreSQLError)?.message.hasPrefix("no answer within") == true
        }
        let after: Int = try await database.read { try $0.scalar("SELECT pg_backend_pid()") }
        #expect(after != before, "a new connection, not the one given up on")
    }

    /// A server that ends a connection mid-statement (a stop, a failover, `pg_terminate_backend`) fails that
    /// statement at once, even though postgres-nio leaves its answer pending, and the pool goes on with another.
    @Test func aStatementWhoseConnectionTheServerEndsFailsAtOnce() async throws {
        let url = try PostgreSQLTestServer.emptyDatabase()
        let database = try PostgreSQLDatabase(url: url, sealer: nil, threads: 2)
        defer { database.close() }
        let sleeping = Task { try await database.read { db in _ = try db.query("SELECT pg_sleep(50)") } }
        var terminated = false
        for _ in 0..<100 where !terminated {
            try await Task.sleep(for: .milliseconds(50))
            terminated = try await database.read { db in
                try db.scalar("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(50)'") as Int == 1
            }
        }
        #expect(terminated)
        // Without the check, the sleep would end after its 50 s and answer: the statement fails because its
        // connection ended, as the server said (57P01) or as the closed socket shows.
        await #expect {
            try await sleeping.value
        } throws: { error in
            guard let failure = error as? PostgreSQLError else { return false }
            return failure.sqlState == "57P01" || failure.message == "the server closed the connection before answering"
        }
        let answer: Int = try await database.read { try $0.scalar("SELECT 1") }
        #expect(answer == 1)
    }

    @Test func aNodeWithAnotherDataKeyIsRefusedAndChangesNothing() throws {
        let database = try PostgreSQLTestServer.freshDatabase()
        defer { database.close() }
        let stranger = try PostgreSQLDatabase(url: database.url, sealer: ColumnSealer(key: .random()), threads: 1)
        defer { stranger.close() }
        #expect(throws: StoreError.wrongDataKey(url: database.url.description)) { try RepositoryRoot.postgresMigrator.migrate(stranger) }
        #expect(try RepositoryRoot.postgresMigrator.migrate(database).isEmpty, "the right key still opens it")
    }

    @Test func aChangedOrMissingMigrationIsRefusedAsOnSQLite() throws {
        let database = try PostgreSQLTestServer.freshDatabase()
        defer { database.close() }
        let migrations = RepositoryRoot.postgresMigrator.migrations
        #expect(throws: StoreError.self) { try Migrator(migrations: Array(migrations.dropLast())).migrate(database) }
        var edited = migrations
        edited[0] = Migration(version: edited[0].version, name: edited[0].name, sql: edited[0].sql + "\n-- edited")
        #expect {
            try Migrator(migrations: edited).migrate(database)
        } throws: { error in
            "\(error)".contains("was changed after it was applied")
        }
    }

    /// Recording a result takes no lock but the rows it writes: two nodes recording at once, while one also
    /// changes a result (a write with a transaction of its own), leave one unbroken audit chain with a row for
    /// each, and every result counted in the client's results version (what other nodes' wheels compare).
    @Test func resultsRecordedAtOnceThroughTwoNodesKeepOneAuditChainAndCountEach() async throws {
        let (fixture, first) = try await ResultRepositoryTests.setUp()
        let nodeA = fixture.store
        let second = try TestDatabase(secondNodeOf: try #require(fixture.database as? PostgreSQLDatabase))
        let nodeB = Store(database: second.database)
        let perNode = 60
        let changes = 15
        let before: Int64 = try await fixture.database.read { try $0.scalar("SELECT count(*) FROM audit_events") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for node in [nodeA, nodeB] {
                for index in 0..<perNode {
                    group.addTask {
                        var result = first
                        result.id = UUID()
                        result.values = ["count": Double(index)]
                        try await node.results.create(result, keeping: nil)
                    }
                }
            }
            group.addTask {
                var current = first
                for index in 0..<changes {
                    var after = current
                    after.values = ["count": Double(100 + index)]
                    let saved = try await nodeA.results.replace(
                        [(current, after)],
                        by: first.trainerId,
                        reason: .edit,
                        at: first.createdAt,
                        keeping: nil
                    )
                    current = try #require(saved.first ?? nil)
                }
            }
            try await group.waitForAll()
        }
        let verification = try await nodeB.audit.verify()
        #expect(verification.firstAltered == nil)
        #expect(verification.rowsChecked == Int(before) + 2 * perNode + changes)
        let head: Int64 = try await fixture.database.read { try $0.scalar("SELECT seq FROM audit_head") }
        #expect(head == Int64(verification.rowsChecked))
        let version: Int64 = try await fixture.database.read {
            try $0.scalar("SELECT version FROM client_results_versions WHERE client_id = ?", first.clientId)
        }
        #expect(version == Int64(1 + 2 * perNode + changes), "the first result, each recorded, each change")
        let stored: Int64 = try await fixture.database.read { try $0.scalar("SELECT count(*) FROM results WHERE client_id = ?", first.clientId) }
        #expect(stored == Int64(1 + 2 * perNode))
    }

    @Test func migratingTwiceAppliesNothingTheSecondTimeAndTheRepositoriesWork() async throws {
        let database = try PostgreSQLTestServer.freshDatabase()
        defer { database.close() }
        #expect(try RepositoryRoot.postgresMigrator.migrate(database).isEmpty)
        let store = Store(database: database)
        let company = Company(name: "Gym", createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        try await store.companies.create(company)
        #expect(try await store.companies.find(company.id)?.name == "Gym")
    }
}
