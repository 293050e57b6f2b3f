import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Services
import Store
import Testing

@testable import API

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
            #expect(
                try await client.send(.post, "/v1/clients/\(id)/report/email", token: token, json: #"{"to": "a@example.com"}"#).status == .accepted
            )
            #expect(
                try await actions("clientId=\(id)") == [
                    "client.emailed", "client.viewed-as-report", "media.deleted", "media.changed", "media.created", "result.created",
                    "screening.changed", "screening.changed", "screening.created", "client.created",
                ]
            )

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
                try db.query("SELECT * FROM audit_events").flatMap { row in
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
                _ = try db.run("UPDATE audit_events SET action = 'client.deleted' WHERE seq = 3")
            }
            let altered = try await trail.verify()
            #expect(altered.firstAltered?.sequence == 3)
            #expect(altered.rowsChecked == 2)

            // Put back, it holds again; a removed line breaks it where the line was.
            try await fixture.database.write { db in
                _ = try db.run("UPDATE audit_events SET action = 'client.created' WHERE seq = 3")
                _ = try db.run("DELETE FROM audit_events WHERE seq = 2")
            }
            #expect(try await trail.verify().firstAltered?.sequence == 2)
        }
    }

    private static func rowCount(_ fixture: Fixture) throws -> Int {
        try fixture.database.readBlocking { db in try db.query("SELECT count(*) AS n FROM audit_events").first?["n"] ?? 0 }
    }
}
