import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Services
import StoreContract
import Synchronization
import TestSupport
import Testing

@testable import API
@testable import Store

/// The audit trail: a line per change, in the change's transaction, ids only; admins read it, a hash chain
/// shows any line altered afterwards.
@Suite struct AuditTests {
    private func lines(_ response: TestResponse) -> [[String: Any]] {
        response.object["items"] as? [[String: Any]] ?? []
    }

    @Test func changesToClientsAndResultsAreListedNewestFirstForAdmins() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await fixture.trainer(in: company, role: .admin)
            let trainer = try await fixture.trainer(in: company)
            let adminToken = try await client.token(for: admin)
            let token = try await client.token(for: trainer)

            let id = try await client.screenedClient(token: token)
            #expect(try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"goal": "run 10 km"}"#).status == .ok)
            let recorded = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: ResultsTests.heartRate(58))
            let result = try #require(recorded.object["id"] as? String)
            #expect(try await client.send(.delete, "/v1/results/\(result)", token: adminToken).status == .noContent)

            let trail = try await client.send(.get, "/v1/audit?clientId=\(id)", token: adminToken)
            #expect(trail.status == .ok, "\(trail.text)")
            let actions = lines(trail).compactMap { $0["action"] as? String }
            // The screening's own lines are left out here (everyKindOfRecordAndActIsALine has them).
            #expect(actions.filter { !$0.hasPrefix("screening.") } == ["result.deleted", "result.created", "client.changed", "client.created"])
            let deleted = try #require(lines(trail).first)
            #expect(deleted["actorType"] as? String == "trainer")
            #expect((deleted["actorId"] as? String)?.lowercased() == admin.trainer.id.lowercaseHyphenated)
            #expect((deleted["subjectId"] as? String)?.lowercased() == result.lowercased())
            #expect((deleted["clientId"] as? String)?.lowercased() == id.lowercased())
            #expect(deleted["erased"] as? Bool == false)
            let sequences = lines(trail).compactMap { $0["sequence"] as? Int }
            #expect(sequences == sequences.sorted(by: >))

            // Filters: by action, by actor, and pages that continue without repeating.
            let created = try await client.send(.get, "/v1/audit?action=client.created&clientId=\(id)", token: adminToken)
            #expect(lines(created).count == 1)
            let byAdmin = try await client.send(.get, "/v1/audit?actor=\(admin.trainer.id.uuidString)", token: adminToken)
            #expect(lines(byAdmin).compactMap { $0["action"] as? String } == ["result.deleted"])
            let first = try await client.send(.get, "/v1/audit?clientId=\(id)&limit=2", token: adminToken)
            let cursor = try #require(first.object["nextCursor"] as? String)
            let second = try await client.send(.get, "/v1/audit?clientId=\(id)&limit=2&cursor=\(cursor)", token: adminToken)
            #expect(
                (lines(first) + lines(second)).compactMap { $0["sequence"] as? Int } == Array(sequences.prefix(4)),
                "two pages of two hold the four newest lines in order"
            )

            // A trainer may not read it; a bad filter is named.
            expectProblem(try await client.send(.get, "/v1/audit", token: token), .forbidden)
            let bad = try await client.send(.get, "/v1/audit?clientId=nope&action=client.read", token: adminToken)
            expectProblem(bad, .unprocessableContent)
            #expect(Set((bad.object["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }) == ["clientId", "action"])
        }
    }

    @Test func anotherCompanysAdminSeesNoneOfItsLines() async throws {
        try await withAPI { fixture, client in
            let first = try await fixture.company()
            let token = try await client.token(for: try await fixture.trainer(in: first, role: .admin))
            let id = try await client.createClient(given: "Lina", family: "Marsh", token: token)
            let other = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let seen = try await client.send(.get, "/v1/audit?clientId=\(id)", token: other)
            #expect(seen.status == .ok)
            #expect(lines(seen).isEmpty)
            #expect(lines(try await client.send(.get, "/v1/audit", token: other)).isEmpty)
        }
    }

    @Test func everyKindOfRecordAndActIsALine() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await fixture.trainer(in: company, role: .admin)
            let adminToken = try await client.token(for: admin)
            let token = try await client.token(for: try await fixture.trainer(in: company))
            func actions(_ query: String) async throws -> [String] {
                lines(try await client.send(.get, "/v1/audit?limit=200&\(query)", token: adminToken)).compactMap { $0["action"] as? String }
            }

            // A client's screening, media, report and email.
            let id = try await client.screenedClient(token: token)
            let posted = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: ResultsTests.heartRate(60))
            let result = try #require(posted.object["id"] as? String)
            let upload = try await client.sendBytes(
                .post,
                "/v1/results/\(result)/media",
                token: token,
                contentType: "image/jpeg",
                bytes: MediaTests.photo
            )
            let media = try #require(upload.object["id"] as? String)
            #expect(try await client.send(.patch, "/v1/media/\(media)", token: token, json: #"{"caption": "side view"}"#).status == .ok)
            #expect(try await client.send(.delete, "/v1/media/\(media)", token: token).status == .noContent)
            #expect(try await client.send(.get, "/v1/clients/\(id)/report", token: token).status == .ok)
            let emailed = try await client.send(.post, "/v1/clients/\(id)/report/email", token: token, json: #"{"to": "a@example.com"}"#)
            #expect(emailed.status == .accepted)
            // The outbox's own line, once it has sent the email: by the server.
            _ = try await EmailAPITests().delivery(client, try #require(emailed.object["id"] as? String), token: token, becomes: "sent")
            #expect(
                try await actions("clientId=\(id)") == [
                    "delivery.sent", "delivery.created", "client.viewed-as-report", "media.deleted", "media.changed", "media.created",
                    "result.created", "screening.completed", "screening.changed", "screening.created", "client.created",
                ]
            )
            let sent = try #require(lines(try await client.send(.get, "/v1/audit?clientId=\(id)&limit=1", token: adminToken)).first)
            #expect(sent["actorType"] as? String == "server" && sent["actorId"] is NSNull)

            // The company's own records: a trainer's account, the theme, a pack, the settings.
            let created = try await client.send(.post, "/v1/trainers", token: adminToken, json: TrainerTests.newTrainerJSON(email: "kai@example.com"))
            let trainer = try #require(created.object["id"] as? String)
            #expect(try await client.send(.patch, "/v1/trainers/\(trainer)", token: adminToken, json: #"{"name": "Kai"}"#).status == .ok)
            #expect(try await client.send(.delete, "/v1/trainers/\(trainer)", token: adminToken).status == .noContent)
            #expect(try await client.send(.put, "/v1/theme", token: adminToken, json: #"{"themeId": "high-contrast"}"#).status == .ok)
            let pack = jsonString(ExercisesTests.pack(id: "audit-balance", exercise: "audit-stand"))
            #expect(try await client.send(.post, "/v1/exercise-packs", token: adminToken, json: pack).status == .created)
            #expect(try await client.send(.patch, "/v1/company", token: adminToken, json: #"{"wheelFlagBelow": 5}"#).status == .ok)
            let trail = lines(try await client.send(.get, "/v1/audit?actor=\(admin.trainer.id.uuidString)", token: adminToken))
            #expect(
                trail.compactMap { $0["action"] as? String } == [
                    "company.changed", "pack.created", "theme.changed", "trainer.deleted", "trainer.changed", "trainer.created",
                ]
            )
            #expect(trail.first { $0["action"] as? String == "pack.created" }?["subjectId"] as? String == "audit-balance@1")
            #expect((trail.first { $0["action"] as? String == "trainer.deleted" }?["subjectId"] as? String)?.lowercased() == trainer.lowercased())

            // A refused change of these leaves no line: the last admin cannot be removed.
            let before = try Self.rowCount(fixture)
            expectProblem(try await client.send(.delete, "/v1/trainers/\(admin.trainer.id.uuidString)", token: adminToken), .conflict)
            #expect(try Self.rowCount(fixture) == before)
            #expect(try await fixture.store.audit.verify().firstAltered == nil)
        }
    }

    @Test func aChangeThatIsRefusedLeavesNoLine() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let id = try await client.createClient(given: "Omar", family: nil, token: token)
            let before = try Self.rowCount(fixture)
            // Clearing the only name is refused inside the write's transaction, after the edit was applied to the
            // stored client (409 name-required): the transaction, and the line it would have written, roll back.
            let refused = try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"givenName": ""}"#)
            expectProblem(refused, .conflict, fields: ["givenName"])
            #expect(refused.object["type"] as? String == "urn:healthwheel:problem:name-required")
            #expect(try Self.rowCount(fixture) == before)
        }
    }

    @Test func linesHoldIdsOnlyNeverWhatWasEntered() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let marker = "Zephyrine\(UUID().uuidString.prefix(6))"
            let id = try await client.screenedClient(
                #"{"givenName": "\#(marker)", "familyName": "Quill", "email": "\#(marker)@example.com", "sex": "female", "birthDate": "1990-04-02", "height": 1.7, "mass": 60}"#,
                token: token
            )
            let observation = "left knee \(marker)"
            let recorded = try await client.send(
                .post,
                "/v1/clients/\(id)/results",
                token: token,
                json: ResultsTests.heartRate(61.5, extra: #", "observations": "\#(observation)""#)
            )
            #expect(recorded.status == .created)
            let stored: [String] = try fixture.database.readBlocking { db in
                try await db.query("SELECT * FROM audit_events").flatMap { row in
                    try ["company_id", "actor", "actor_id", "action", "subject_id", "client_id"].compactMap { column -> String? in try row[column] }
                }
            }
            #expect(!stored.isEmpty)
            for text in stored {
                #expect(!text.contains(marker) && !text.contains("61.5"), "\(text)")
            }
        }
    }

    @Test func verifyingNamesTheFirstAlteredRow() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            for name in ["Ada", "Bea", "Cy", "Di"] { _ = try await client.createClient(given: name, family: "Stone", token: token) }
            let trail = AuditTrail(store: fixture.store)
            let intact = try await trail.verify()
            #expect(intact.firstAltered == nil)
            #expect(intact.rowsChecked == (try Self.rowCount(fixture)))

            // Someone with the key rewrites who did the third line.
            try await fixture.database.write { db in
                _ = try await db.run("UPDATE audit_events SET action = 'client.deleted' WHERE seq = 3")
            }
            let altered = try await trail.verify()
            #expect(altered.firstAltered?.sequence == 3)
            #expect(altered.rowsChecked == 2)

            // Put back, it holds again; a removed line breaks it where the line was.
            try await fixture.database.write { db in
                _ = try await db.run("UPDATE audit_events SET action = 'client.created' WHERE seq = 3")
                _ = try await db.run("DELETE FROM audit_events WHERE seq = 2")
            }
            #expect(try await trail.verify().firstAltered?.sequence == 2)
        }
    }

    /// The probe's rewrite: a line changed, and every hash from it on computed again as the chain was computed
    /// before it was keyed (plain SHA-256), or under a key of the rewriter's own. Without the audit key, it shows.
    @Test func aLineRewrittenWithTheHashesAfterItRecomputedWithoutTheKeyIsNamed() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            for name in ["Ada", "Bea", "Cy", "Di", "Ed"] { _ = try await client.createClient(given: name, family: "Stone", token: token) }
            let trail = AuditTrail(store: fixture.store)
            #expect(try await trail.verify().firstAltered == nil)
            let otherKey = AuditKey(DatabaseKey.random())
            let rewriters: [@Sendable (AuditChain.Row, [UInt8]) -> [UInt8]] = [{ $0.unkeyedHash(after: $1) }, { $0.hash(after: $1, key: otherKey) }]
            for rehash in rewriters {
                try await Self.rewrite(fixture, row: 3, action: "client.deleted", rehashing: rehash)
                let verification = try await trail.verify()
                #expect(verification.firstAltered?.sequence == 3)
                #expect(verification.firstAltered?.reason == "its hash does not follow from its fields and the row before under the audit key")
            }
            // Re-hashed under the audit key itself (what only its holder can do), the chain follows again.
            let key = try #require(fixture.database.auditKey)
            try await Self.rewrite(fixture, row: 3, action: "client.created") { $0.hash(after: $1, key: key) }
            #expect(try await trail.verify().firstAltered == nil)
        }
    }

    /// The probe's deletion: the newest line, then the newest ten, cut off the end leave a chain that follows; the
    /// checkpoint the server keeps outside the database names them.
    @Test func theNewestLinesCutOffAreNamedAgainstTheCheckpoint() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            for index in 0..<14 { _ = try await client.createClient(given: "Client\(index)", family: "Stone", token: token) }
            let trail = AuditTrail(store: fixture.store)
            let file = AuditCheckpointFile(
                path: fixture.folder.url.appendingPathComponent("audit-head").path,
                key: try #require(fixture.database.auditKey)
            )
            let logged = LogLines()
            let checkpoints = AuditCheckpoints(trail: trail, file: file, clock: fixture.clock) { logged.add($0) }
            let head = try #require(try await checkpoints.checkpoint())
            #expect(try await checkpoints.checkpoint() == nil, "an unmoved head is not written again")
            #expect(try file.newest()?.head == head)
            #expect(logged.lines.count == 1 && logged.lines[0].contains("row \(head.sequence) hash "))

            try await fixture.database.write { db in _ = try await db.run("DELETE FROM audit_events WHERE seq = ?", head.sequence) }
            #expect(try await trail.verify().firstAltered == nil, "without a checkpoint, a chain cut short still follows")
            let one = try await trail.verify(against: try file.newest()?.head)
            #expect(one.firstAltered?.sequence == head.sequence)
            #expect(
                one.firstAltered?.reason
                    == "row \(head.sequence) is missing: the trail ends at row \(head.sequence - 1), its checkpointed head is row \(head.sequence)"
            )

            try await fixture.database.write { db in _ = try await db.run("DELETE FROM audit_events WHERE seq > ?", head.sequence - 11) }
            let ten = try await trail.verify(against: try file.newest()?.head)
            #expect(
                ten.firstAltered?.reason
                    == "rows \(head.sequence - 10) to \(head.sequence) are missing: the trail ends at row \(head.sequence - 11), its checkpointed head is row \(head.sequence)"
            )
            #expect(ten.rowsChecked == Int(head.sequence) - 11)
        }
    }

    /// A checkpoint line that the audit key did not mark (slipped in to cover a rewrite) is refused, and a head
    /// given by hand is read as `audit head` prints it.
    @Test func aCheckpointLineWithoutTheKeysMarkIsRefused() throws {
        let folder = TemporaryDirectory()
        let path = folder.url.appendingPathComponent("audit-head").path
        let file = AuditCheckpointFile(path: path, key: AuditKey(DatabaseKey.random()))
        let head = AuditHead(sequence: 7, hash: [UInt8](repeating: 0xAB, count: 32))
        try file.append(head, at: Date(timeIntervalSince1970: 0))
        #expect(try file.newest()?.head == head)
        let forger = AuditCheckpointFile(path: path, key: AuditKey(DatabaseKey.random()))
        try forger.append(AuditHead(sequence: 9, hash: head.hash), at: Date(timeIntervalSince1970: 60))
        #expect(throws: AuditCheckpointFile.Unreadable.self) { try file.newest() }
        #expect(AuditHead(text: "7:" + String(repeating: "ab", count: 32)) == head)
        #expect(AuditHead(text: head.text) == head)
        #expect(AuditHead(text: "7:abc") == nil)
    }

    /// A trail chained before keys existed is chained again under the key at the first start with one, and then
    /// follows; a start with another key is refused and changes nothing.
    @Test func anUnkeyedTrailIsKeyedOnceAndAnotherKeyIsRefused() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            for name in ["Ada", "Bea", "Cy"] { _ = try await client.createClient(given: name, family: "Stone", token: token) }
            let trail = AuditTrail(store: fixture.store)
            #expect(try await trail.adoptKey() == .marked(rows: try Self.rowCount(fixture)))
            #expect(try await trail.adoptKey() == .unchanged)
            // As written before keys: plain SHA-256 from the first row, no mark.
            try await Self.rewrite(fixture, row: 1, action: nil) { $0.unkeyedHash(after: $1) }
            try await fixture.database.write { db in _ = try await db.run("DELETE FROM audit_key") }
            #expect(try await trail.verify().firstAltered?.sequence == 1)
            #expect(try await trail.adoptKey() == .rekeyed(rows: try Self.rowCount(fixture)))
            #expect(try await trail.verify().firstAltered == nil)
            _ = try await client.createClient(given: "Dee", family: "Stone", token: token)
            #expect(try await trail.verify().firstAltered == nil)

            let before = try await trail.head()
            let stranger = try Self.sameDatabase(fixture, auditKey: AuditKey(DatabaseKey.random()))
            await #expect(throws: StoreError.wrongAuditKey) { try await AuditTrail(store: Repositories(database: stranger.database)).adoptKey() }
            stranger.close()
            #expect(try await trail.head() == before)
        }
    }

    /// Rewrites row `row` (its action, when given) and every hash from it to the end with `rehashing`.
    private static func rewrite(
        _ fixture: Fixture,
        row first: Int64,
        action: String?,
        rehashing: @escaping @Sendable (AuditChain.Row, [UInt8]) -> [UInt8]
    ) async throws {
        try await fixture.database.write { db in
            if let action { _ = try await db.run("UPDATE audit_events SET action = ? WHERE seq = ?", action, first) }
            let rows = try await db.query("SELECT seq, at, company_id, actor, actor_id, action, subject_digest, hash FROM audit_events ORDER BY seq")
            var previous = AuditChain.genesis
            for stored in rows {
                let row = try AuditChain.Row(stored)
                if row.sequence >= first {
                    previous = rehashing(row, previous)
                    _ = try await db.run("UPDATE audit_events SET hash = ? WHERE seq = ?", previous, row.sequence)
                } else {
                    previous = try stored["hash"]
                }
            }
        }
    }

    /// The fixture's database opened again with another audit key (a node or a start with the wrong one).
    private static func sameDatabase(_ fixture: Fixture, auditKey: AuditKey) throws -> (database: any SQLDatabase, close: () -> Void) {
        #if PostgreSQL
        if let shared = fixture.database as? PostgreSQLDatabase {
            let other = try PostgreSQLDatabase(url: shared.url, sealer: shared.sealer, auditKey: auditKey, connections: 1)
            return (other, other.close)
        }
        #endif
        let embedded = try #require(fixture.database as? SQLiteDatabase)
        let key = try fixture.folder.dataDirectory.resolveKey(environment: keyFileEnvironment)
        return (try SQLiteDatabase(path: embedded.path, key: key, auditKey: auditKey, readers: 1), {})
    }

    private static func rowCount(_ fixture: Fixture) throws -> Int {
        try fixture.database.readBlocking { db in try await db.query("SELECT count(*) AS n FROM audit_events").first?["n"] ?? 0 }
    }
}

/// Log lines a test collects.
private final class LogLines: Sendable {
    private let collected = Mutex<[String]>([])
    func add(_ line: String) { collected.withLock { $0.append(line) } }
    var lines: [String] { collected.withLock { $0 } }
}
