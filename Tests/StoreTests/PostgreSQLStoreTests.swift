#if PostgreSQL
import Foundation
import HealthwheelCore
import Synchronization
import TestSupport
import Testing
import StoreContract

@testable import Store

/// How SQLite's statements are read for PostgreSQL, without a server.
@Suite struct PostgreSQLStatementTests {
    @Test func parametersAreNumberedOutsideQuotesAndComments() {
        #expect(StatementCatalog.numberingParameters("SELECT ? , '?' , ?3, ? -- ?\n, \"a?\"") == "SELECT $1 , '?' , $3, $4 -- ?\n, \"a?\"")
    }

    /// A text is prepared under one name per set of parameter types, and never past the bound.
    @Test func aStatementIsPreparedOncePerParameterTypesAndOnlyWithinTheBound() {
        let catalog = StatementCatalog()
        let integer = catalog.statement("SELECT ? + 1", signature: "i", preparing: true)
        #expect(integer.text == "SELECT $1 + 1" && integer.name != nil)
        #expect(catalog.statement("SELECT ? + 1", signature: "i", preparing: true).name == integer.name)
        let null = catalog.statement("SELECT ? + 1", signature: "n", preparing: true)
        #expect(null.name != nil && null.name != integer.name, "a NULL fixes another parameter type")
        #expect(catalog.statement("SELECT ? + 1", signature: "i", preparing: false).name == nil, "not inside a failed transaction")
        for index in 0..<StatementCatalog.maximumPrepared { _ = catalog.statement("SELECT \(index)", signature: "", preparing: true) }
        #expect(catalog.statement("SELECT 'past the bound'", signature: "", preparing: true).name == nil)
        #expect(catalog.statement("SELECT ? + 1", signature: "i", preparing: true).name == integer.name, "prepared ones stay")
    }

    /// A change is sent so that it returns a row per changed row: `RETURNING 1` after its main statement, unless it
    /// returns rows already; words in quotes, comments and a `WITH` list's parentheses do not count.
    @Test func aChangeIsCountedByTheRowsItReturnsAndNothingElseIsRewritten() {
        let counted = StatementCatalog.counted
        #expect(
            counted("INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING") == "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING\nRETURNING 1"
        )
        #expect(counted("  update t SET a = 'returning' WHERE b = $1; \n") == "  update t SET a = 'returning' WHERE b = $1\nRETURNING 1")
        #expect(counted("DELETE FROM t WHERE a = $1 -- returning") == "DELETE FROM t WHERE a = $1 -- returning\nRETURNING 1")
        #expect(counted("DELETE FROM t WHERE a = $1 RETURNING a") == "DELETE FROM t WHERE a = $1 RETURNING a")
        #expect(counted("/* select, returning */ UPDATE t SET a = 2") == "/* select, returning */ UPDATE t SET a = 2\nRETURNING 1")
        let chained = "WITH x AS (INSERT INTO t (a) VALUES (1) RETURNING a), \"select\" AS (SELECT 1) INSERT INTO u SELECT a FROM x"
        #expect(counted(chained) == chained + "\nRETURNING 1")
        #expect(counted("WITH x AS (DELETE FROM t RETURNING a) SELECT count(*) FROM x") == nil, "a read of a change is no change")
        #expect(counted("SELECT pg_advisory_xact_lock($1)") == nil)
        #expect(counted("LOCK TABLE t IN SHARE MODE") == nil)
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
        let nodes = try (0..<3).map { _ in
            try PostgreSQLDatabase(
                url: url,
                sealer: ColumnSealer(key: PostgreSQLTestServer.dataKey),
                auditKey: PostgreSQLTestServer.auditKey,
                connections: 1
            )
        }
        defer { for node in nodes { node.close() } }
        let migrator = RepositoryRoot.postgresMigrator
        let applied = Mutex<[[String]]>([])
        DispatchQueue.concurrentPerform(iterations: nodes.count) { index in
            let names = (try? migrator.migrate(nodes[index])) ?? ["failed"]
            applied.withLock { $0.append(names) }
        }
        let outcomes = applied.withLock { $0 }.sorted { $0.count > $1.count }
        #expect(outcomes == [migrator.migrations.map(\.name), [], []], "one node migrates, the others find it done")
        let recorded: Int = try nodes[0].readBlocking { try await $0.scalar("SELECT count(*) FROM schema_migrations") }
        #expect(recorded == migrator.migrations.count)
    }

    /// One text bound with a NULL, then an integer, then a NULL again runs as two prepared statements, each with
    /// its own parameter type; an error a row handler throws comes back as it was, and the connection goes on.
    @Test func preparedStatementsKeepTheirParameterTypesAndTheCallersErrors() async throws {
        let url = try PostgreSQLTestServer.emptyDatabase()
        let database = try PostgreSQLDatabase(url: url, sealer: nil, auditKey: nil, connections: 1)
        defer { database.close() }
        struct Stop: Error {}
        let answers = try await database.read { db -> [Int?] in
            var answers: [Int?] = []
            for argument in [nil, 41, nil] as [Int?] {
                // Prepared with a NULL, `?` alone would be text, and an integer's eight bytes would not read back.
                answers.append(try await db.scalar("SELECT ? AS v", argument))
            }
            await #expect(throws: Stop.self) {
                try await db.forEachRow("SELECT generate_series(1, 3) AS n", []) { _ in throw Stop() }
            }
            answers.append(try await db.scalar("SELECT ? AS v", 2))
            return answers
        }
        #expect(answers == [nil, 41, nil, 2])
        let prepared: Int = try await database.read { try await $0.scalar("SELECT count(*) FROM pg_prepared_statements") }
        #expect(prepared >= 2, "one text, two parameter types: two statements on the one connection")
    }

    /// Changes are prepared like queries and still answer the rows they changed, whatever they return.
    @Test func changesArePreparedAndCountTheRowsTheyChanged() async throws {
        let url = try PostgreSQLTestServer.emptyDatabase()
        let database = try PostgreSQLDatabase(url: url, sealer: nil, auditKey: nil, connections: 1)
        defer { database.close() }
        let counts = try await database.read { db -> [Int] in
            try await db.execute("CREATE TABLE counted (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)")
            var counts: [Int] = []
            for id in [1, 2, 2] {
                counts.append(try await db.run("INSERT INTO counted (id, n) VALUES (?, 0) ON CONFLICT DO NOTHING", id))
            }
            counts.append(try await db.run("UPDATE counted SET n = n + 1 WHERE id > ?", 0))
            counts.append(try await db.run("UPDATE counted SET n = n + 1 WHERE id > ?", 5))
            counts.append(
                try await db.run(
                    "WITH gone AS (DELETE FROM counted WHERE id = ? RETURNING id) INSERT INTO counted (id, n) SELECT id + 10, 1 FROM gone",
                    1
                )
            )
            counts.append(try await db.run("DELETE FROM counted WHERE n = ? RETURNING id, n", 1))
            counts.append(try await db.run("SELECT 1 AS a UNION ALL SELECT 2", []))
            return counts
        }
        #expect(counts == [1, 1, 0, 2, 0, 1, 2, 2])
        let prepared: [String] = try await database.read { db in
            try await db.query("SELECT statement FROM pg_prepared_statements", []).map { try $0["statement"] }
        }
        #expect(prepared.contains { $0.hasPrefix("INSERT INTO counted") && $0.hasSuffix("RETURNING 1") })
        #expect(prepared.contains { $0.hasPrefix("UPDATE counted") })
        #expect(!prepared.contains { $0.hasPrefix("SELECT 1 AS a") }, "what is no change goes unnamed, counted by its tag")
    }

    /// A server that stops answering (a network dropping packets, a failover) never holds a thread for good:
    /// past the deadline the statement fails, its connection is dropped, and the next statement gets another.
    @Test func aStatementUnansweredPastTheDeadlineFailsAndItsConnectionIsReplaced() async throws {
        let url = try PostgreSQLTestServer.emptyDatabase()
        let database = try PostgreSQLDatabase(url: url, sealer: nil, auditKey: nil, connections: 1, answerDeadline: .milliseconds(500))
        defer { database.close() }
        let before: Int = try await database.read { try await $0.scalar("SELECT pg_backend_pid()") }
        await #expect {
            try await database.read { db in _ = try await db.query("SELECT pg_sleep(3)") }
        } throws: { error in
            (error as? PostgreSQLError)?.message.hasPrefix("no answer within") == true
        }
        let after: Int = try await database.read { try await $0.scalar("SELECT pg_backend_pid()") }
        #expect(after != before, "a new connection, not the one given up on")
    }

    /// A server that ends a connection mid-statement (a stop, a failover, `pg_terminate_backend`) fails that
    /// statement at once, even though postgres-nio leaves its answer pending, and the pool goes on with another.
    @Test func aStatementWhoseConnectionTheServerEndsFailsAtOnce() async throws {
        let url = try PostgreSQLTestServer.emptyDatabase()
        let database = try PostgreSQLDatabase(url: url, sealer: nil, auditKey: nil, connections: 2)
        defer { database.close() }
        let sleeping = Task { try await database.read { db in _ = try await db.query("SELECT pg_sleep(50)") } }
        var terminated = false
        for _ in 0..<100 where !terminated {
            try await Task.sleep(for: .milliseconds(50))
            terminated = try await database.read { db in
                try await db.scalar("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(50)'") as Int == 1
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
        let answer: Int = try await database.read { try await $0.scalar("SELECT 1") }
        #expect(answer == 1)
    }

    /// The pool keeps its connections open while idle (no keep-alive): when the server ends them all (a restart,
    /// a failover), each costs at most the one statement that finds it gone, and the pool opens new ones.
    @Test func idleConnectionsTheServerEndsCostAStatementEachAtMostAndAreReplaced() async throws {
        let url = try PostgreSQLTestServer.emptyDatabase()
        let database = try PostgreSQLDatabase(url: url, sealer: nil, auditKey: nil, connections: 4)
        defer { database.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { _ = try await database.read { try await $0.scalar("SELECT 1") as Int } } }
            try await group.waitForAll()
        }
        // From one of the pool's connections, which stays; the others end.
        let ended: Int = try await database.read { db in
            try await db.scalar(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        }
        #expect(ended >= 1)

        var failed = 0
        for _ in 0..<12 {
            do {
                _ = try await database.read { try await $0.scalar("SELECT 1") as Int }
            } catch {
                failed += 1
            }
        }
        #expect(failed <= ended, "\(failed) of 12 failed after \(ended) connections ended")
        let answer: Int = try await database.read { try await $0.scalar("SELECT 1") }
        #expect(answer == 1)
    }

    @Test func aNodeWithAnotherDataKeyIsRefusedAndChangesNothing() throws {
        let database = try PostgreSQLTestServer.freshDatabase()
        defer { database.close() }
        let stranger = try PostgreSQLDatabase(
            url: database.url,
            sealer: ColumnSealer(key: .random()),
            auditKey: PostgreSQLTestServer.auditKey,
            connections: 1
        )
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
        let nodeB = Repositories(database: second.database)
        let perNode = 60
        let changes = 15
        let before: Int64 = try await fixture.database.read { try await $0.scalar("SELECT count(*) FROM audit_events") }
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
        let head: Int64 = try await fixture.database.read { try await $0.scalar("SELECT seq FROM audit_head") }
        #expect(head == Int64(verification.rowsChecked))
        let version: Int64 = try await fixture.database.read {
            try await $0.scalar("SELECT version FROM client_results_versions WHERE client_id = ?", first.clientId)
        }
        #expect(version == Int64(1 + 2 * perNode + changes), "the first result, each recorded, each change")
        let stored: Int64 = try await fixture.database.read {
            try await $0.scalar("SELECT count(*) FROM results WHERE client_id = ?", first.clientId)
        }
        #expect(stored == Int64(1 + 2 * perNode))
    }

    /// Writes on two nodes run side by side, without one lock for all: each rule a write reads then relies on
    /// still holds when two nodes race for it. Edits of different fields of one client both stay; two admins
    /// demoting each other leave one admin; one idempotency key used on both nodes records one result, and the
    /// other node is told of it as a retry is.
    @Test func racingWritesOnTwoNodesKeepEveryRuleTheyReadThenRelyOn() async throws {
        let (fixture, first) = try await ResultRepositoryTests.setUp()
        let second = try TestDatabase(secondNodeOf: try #require(fixture.database as? PostgreSQLDatabase))
        let nodes = [fixture.store, Repositories(database: second.database)]
        let company = first.companyId
        let now = fixture.clock.now
        let audit = AuditEvent.client(.changed, first.clientId, byOperatorOf: company, at: now)
        let rounds = 12
        for round in 0..<rounds {
            async let goal = nodes[0].clients.update(first.clientId, in: company, audit: audit) { $0.goal = "goal \(round)" }
            async let phone = nodes[1].clients.update(first.clientId, in: company, audit: audit) { $0.phone = "+44 20 7946 \(1000 + round)" }
            _ = try await (goal, phone)
            let client = try #require(try await nodes[0].clients.find(first.clientId, in: company)?.client)
            #expect(client.goal == "goal \(round)" && client.phone == "+44 20 7946 \(1000 + round)", "round \(round): both edits stay")
        }

        let gym = Company(id: company, name: "Gym", createdAt: now)
        let admins = [try await fixture.makeTrainer(in: gym, role: .admin), try await fixture.makeTrainer(in: gym, role: .admin)]
        for round in 0..<rounds {
            @Sendable func demote(_ index: Int) async -> Bool {
                let target = admins[1 - index]
                let demoted = try? await nodes[index].trainers.update(
                    target.id,
                    in: company,
                    newPasswordHash: nil,
                    keepingSession: nil,
                    audit: .trainer(.changed, target.id, in: company, by: .trainer(admins[index].id), at: now)
                ) { trainer, adminCount in
                    guard adminCount > 1 else { throw CancellationError() }
                    trainer.role = .trainer
                }
                return demoted != nil
            }
            async let left = demote(0)
            async let right = demote(1)
            let outcomes = await [left, right]
            #expect(outcomes.filter { $0 }.count == 1, "round \(round): one demotion, the other refused")
            let promoted = try #require(try await nodes[0].trainers.find(admins[outcomes[0] ? 1 : 0].id, in: company))
            _ = try await nodes[0].trainers.update(
                promoted.id,
                in: company,
                newPasswordHash: nil,
                keepingSession: nil,
                audit: .trainer(.changed, promoted.id, in: company, by: .operatorCommand, at: now)
            ) { trainer, _ in trainer.role = .admin }
        }

        let before: Int64 = try await fixture.database.read { try await $0.scalar("SELECT count(*) FROM results") }
        for round in 0..<rounds {
            let key = "key-\(round)"
            @Sendable func post(_ index: Int) async -> Result<Void, any Error> {
                var result = first
                result.id = UUID()
                let answer = IdempotencyRecord(
                    trainer: first.trainerId,
                    key: key,
                    fingerprint: "same request",
                    response: IdempotentResponse(status: 201, body: Array(result.id.uuidString.utf8)),
                    createdAt: now
                )
                do {
                    return .success(try await nodes[index].results.create(result, keeping: answer))
                } catch {
                    return .failure(error)
                }
            }
            async let left = post(0)
            async let right = post(1)
            let outcomes = await [left, right]
            let refused = outcomes.compactMap { outcome -> IdempotencyKeyUsed? in
                if case .failure(let error) = outcome { return error as? IdempotencyKeyUsed }
                return nil
            }
            #expect(refused.count == 1, "round \(round): one recorded, the other told of it: \(outcomes)")
            if case .done(let answer)? = refused.first?.earlier { #expect(answer.status == 201) } else { Issue.record("round \(round): \(refused)") }
        }
        let after: Int64 = try await fixture.database.read { try await $0.scalar("SELECT count(*) FROM results") }
        #expect(after - before == Int64(rounds))
        #expect(try await nodes[1].audit.verify().firstAltered == nil)
    }

    /// Sessions read in one statement (what requests arriving together get, `GroupedReads`) answer each lookup as
    /// its own read does: its principal, the stamps of the client it names when that is its company's client, and
    /// nothing for an unknown session; the same session naming several clients is told apart.
    @Test func sessionsReadTogetherAnswerEachLookupAsItsOwnReadDoes() async throws {
        let (fixture, result) = try await ResultRepositoryTests.setUp()
        let gym = try #require(try await fixture.store.companies.find(result.companyId))
        let coach = try await fixture.makeTrainer(in: gym, role: .admin)
        let other = try await fixture.makeCompany("Other Gym")
        let stranger = try await fixture.makeTrainer(in: other)
        let strangersClient = Client(companyId: other.id, createdAt: fixture.clock.now)
        try await fixture.store.clients.create(
            strangersClient,
            audit: .client(.created, strangersClient.id, byOperatorOf: other.id, at: fixture.clock.now)
        )
        let coaching = try await fixture.makeSession(for: coach)
        let visiting = try await fixture.makeSession(for: stranger)
        let clients: [UUID?] = [nil, result.clientId, strangersClient.id, UUID()]
        let lookups = [coaching, visiting, randomDigest()].flatMap { token in
            clients.map { SQLSessionRepository.Lookup(tokenDigest: token, client: $0) }
        }
        let now = fixture.clock.now

        let together = try await fixture.database.read { try await SQLSessionRepository.principals(lookups.shuffled(), $0) }
        var named = 0
        for lookup in lookups {
            let alone = try await fixture.store.sessions.principal(tokenDigest: lookup.tokenDigest, at: now, naming: lookup.client)
            #expect(together[lookup]?.principal == alone, "\(lookup)")
            if alone?.freshness.namedClient?.wheel != nil { named += 1 }
        }
        #expect(together.count == 8, "two sessions, four lookups each")
        let own = together[SQLSessionRepository.Lookup(tokenDigest: coaching, client: result.clientId)]?.principal
        #expect(own?.trainer == coach && own?.freshness.namedClient?.wheel?.resultsVersion == 1)
        #expect(together[SQLSessionRepository.Lookup(tokenDigest: visiting, client: nil)]?.principal.trainer == stranger)
        #expect(named == 2, "each session's own company's client, and only that, has a results version")
    }

    /// Media chunks are committed without waiting for the disk, on connections of their own; everything else waits.
    /// What the media connections wrote, the others read at once.
    @Test func mediaChunksAloneAreCommittedWithoutWaitingForTheDisk() throws {
        let database = try PostgreSQLTestServer.freshDatabase()
        defer { database.close() }
        // What the connection asked for ("client") or the server's own setting.
        let setting = "SELECT setting || ' from ' || source AS s FROM pg_settings WHERE name = 'synchronous_commit'"
        let media: String = try database.withMediaConnection { try await $0.scalar(setting) }
        let other: String = try database.readBlocking { try await $0.scalar(setting) }
        #expect(media == "off from client")
        #expect(!other.hasSuffix("from client"), "\(other)")
        let storage = PostgreSQLMediaStorage(database: database, chunkSize: 64)
        let id = UUID()
        let key = MediaKey.random()
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0) }
        let writer = try storage.create(id, key: key)
        try bytes.withUnsafeBytes { try writer.write($0) }
        _ = try writer.finish()
        #expect(try storage.open(id, key: key, length: bytes.count).read(0..<bytes.count) == bytes)
        let chunks: Int = try database.readBlocking { try await $0.scalar("SELECT count(*) FROM media_chunks WHERE media_id = ?", id) }
        #expect(chunks == 16, "1,000 bytes in chunks of 64")
    }

    /// A node starting sweeps media blobs no media row keeps, but not one finished in the last hour: another node
    /// may have finished that upload and not stored its row yet.
    @Test func aSweepLeavesAFreshUploadAnotherNodeHasNotStoredYet() throws {
        let database = try PostgreSQLTestServer.freshDatabase()
        defer { database.close() }
        let storage = PostgreSQLMediaStorage(database: database)
        let fresh = UUID()
        let orphan = UUID()
        for id in [fresh, orphan] {
            let writer = try storage.create(id, key: .random())
            try [UInt8](repeating: 7, count: 100).withUnsafeBytes { try writer.write($0) }
            _ = try writer.finish()
        }
        let hoursAgo = Date().addingTimeInterval(-2 * 3600)
        _ = try database.readBlocking { try await $0.run("UPDATE media_blobs SET started_at = ? WHERE media_id = ?", hoursAgo, orphan) }
        #expect(try storage.sweep(keeping: []) > 0)
        #expect(storage.holds(fresh) && !storage.holds(orphan))
    }

    @Test func migratingTwiceAppliesNothingTheSecondTimeAndTheRepositoriesWork() async throws {
        let database = try PostgreSQLTestServer.freshDatabase()
        defer { database.close() }
        #expect(try RepositoryRoot.postgresMigrator.migrate(database).isEmpty)
        let store = Repositories(database: database)
        let company = Company(name: "Gym", createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        try await store.companies.create(company)
        #expect(try await store.companies.find(company.id)?.name == "Gym")
    }
}
#endif
