import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import NIOCore
import Testing

/// `/v1/clients/{id}/results` and `/v1/results/{id}`: recording behind the screening gate, units, scores and their
/// failures, idempotent retries, quick corrections, edits with history, deletion, lists and rescoring.
@Suite struct ResultsTests {
    /// A man of 30 on the fixture clock's day (2027-01-15): the 26–35 band of the seed's resting heart rate table.
    static let sam = """
        {"givenName": "Sam", "familyName": "Okafor", "birthDate": "1996-06-01", "sex": "male",
         "height": {"value": 180, "unit": "cm"}, "mass": 80}
        """

    static func heartRate(_ bpm: Double, extra: String = "") -> String {
        #"{"exerciseId": "resting-heart-rate", "values": {"heartRate": \#(bpm)}\#(extra)}"#
    }

    /// An admin and a trainer of one company, their tokens, and a screened client.
    struct Gym {
        var company: Company
        var admin: String
        var token: String
        var trainer: Fixture.Account
        var client: String
    }

    static func setUp(_ fixture: Fixture, _ client: some TestClientProtocol, json: String = sam) async throws -> Gym {
        let company = try await fixture.company()
        let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
        let trainer = try await fixture.trainer(in: company)
        let token = try await client.token(for: trainer)
        return Gym(company: company, admin: admin, token: token, trainer: trainer, client: try await client.screenedClient(json, token: token))
    }

    static func results(_ client: some TestClientProtocol, _ id: String, token: String, query: String = "") async throws -> [[String: Any]] {
        let response = try await client.send(.get, "/v1/clients/\(id)/results\(query)", token: token)
        #expect(response.status == .ok, "body: \(response.text)")
        return response.listItems
    }

    @Test func recordingBeforeTheScreeningIsCompletedIs409AndStoresNothing() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(Self.sam, token: token)
            let response = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: Self.heartRate(60))
            expectProblem(response, .conflict)
            #expect(response.object["type"] as? String == "urn:healthwheel:problem:screening-required")
            #expect(try await Self.results(client, id, token: token).isEmpty)
        }
    }

    @Test func aResultIsScoredWithTheExercisesTableAndStoredWithTheClientAsScored() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (token, trainer, id) = (gym.token, gym.trainer, gym.client)
            let response = try await client.send(
                .post,
                "/v1/clients/\(id)/results",
                token: token,
                json: Self.heartRate(60, extra: #", "observations": "  seated, 5 min rest  ""#)
            )
            #expect(response.status == .created, "body: \(response.text)")
            let body = response.jsonBody
            let resultId = try #require(body["id"]?.string)
            #expect(response.headers[.location] == "/v1/results/\(resultId)")
            #expect(body["score"] == .number(7))  // 26–35: Excellent is 55–61 bpm
            #expect(body["scoreError"] == .null)
            #expect(body["values"] == .object(["heartRate": .number(60)]))
            #expect(body["observations"] == .string("seated, 5 min rest"))
            #expect(body["subject"] == .object(["sex": .string("male"), "age": .number(30), "height": .number(1.8), "mass": .number(80)]))
            #expect(body["categoryId"] == .string("cardiovascular"))
            #expect(body["trainerId"] == .string(trainer.trainer.id.uuidString))
            #expect(body["recordedAt"] == .string("2027-01-15T08:00:00Z"))
            #expect(body["revision"] == .number(1))
            #expect(body["amended"] == .bool(false))
            #expect(try await client.send(.get, "/v1/results/\(resultId)", token: token).jsonBody["score"] == .number(7))
            for (bpm, score) in [(48.0, 9.0), (49, 8), (70, 5), (74, 4), (75, 3), (82, 2)] {
                let scored = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: Self.heartRate(bpm))
                #expect(scored.jsonBody["score"] == .number(score), "\(bpm) bpm")
            }
        }
    }

    @Test func inputUnitsAreConvertedToSI() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (token, id) = (gym.token, gym.client)
            let bench = #"{"exerciseId": "bench-press-1rm", "values": {"load": {"value": 135, "unit": "lb"}, "reps": 8}}"#
            let lifted = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: bench)
            #expect(lifted.status == .created, "body: \(lifted.text)")
            #expect(lifted.jsonBody["values"] == .object(["load": .number(61.235), "reps": .number(8)]))
            #expect(lifted.jsonBody["display"] == nil)
            let liftedPath = "/v1/results/\(try #require(lifted.jsonBody["id"]?.string))"
            let imperial = try await client.send(.get, "\(liftedPath)?units=imperial", token: token).jsonBody
            #expect(imperial["display"] == .object(["load": .object(["value": .number(135), "unit": .string("lb"), "text": .string("135 lb")])]))
            #expect(imperial["values"] == lifted.jsonBody["values"])
            expectProblem(try await client.send(.get, "\(liftedPath)?units=furlongs", token: token), .unprocessableContent, fields: ["units"])
            let run = #"{"exerciseId": "cooper-12-minute-run", "values": {"distance": {"value": 1.5, "unit": "mi"}}}"#
            let ran = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: run)
            #expect(ran.jsonBody["values"] == .object(["distance": .number(2414.016)]))
            let reach = #"{"exerciseId": "back-scratch", "values": {"reach": {"value": -6.5, "unit": "in"}}}"#
            let reached = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: reach)
            #expect(reached.status == .created, "body: \(reached.text)")
            #expect(reached.jsonBody["values"] == .object(["reach": .number(-0.1651)]))
        }
    }

    @Test func badInputIs422NamingEachFieldAndStoresNothing() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (token, id) = (gym.token, gym.client)
            let path = "/v1/clients/\(id)/results"
            let badUnit = #"{"exerciseId": "bench-press-1rm", "values": {"load": {"value": 60, "unit": "furlong"}, "reps": -1}}"#
            expectProblem(
                try await client.send(.post, path, token: token, json: badUnit),
                .unprocessableContent,
                fields: ["values.load.unit", "values.reps"]
            )
            let unknown = #"{"exerciseId": "levitation", "values": {"height": 1}}"#
            expectProblem(try await client.send(.post, path, token: token, json: unknown), .notFound, fields: ["exerciseId"])
            let stranger = #"{"exerciseId": "resting-heart-rate", "values": {"heartRate": 60, "height": 1}}"#
            expectProblem(try await client.send(.post, path, token: token, json: stranger), .conflict, fields: ["values.height"])
            let missing = #"{"exerciseId": "resting-heart-rate"}"#
            expectProblem(try await client.send(.post, path, token: token, json: missing), .unprocessableContent, fields: ["values"])
            let owned = #"{"exerciseId": "resting-heart-rate", "values": {"heartRate": 60}, "score": 10}"#
            let ownedResponse = try await client.send(.post, path, token: token, json: owned)
            expectProblem(ownedResponse, .unprocessableContent, fields: ["score"])
            #expect(ownedResponse.problemMessages.first == "is set by the server and cannot be sent")
            let future = Self.heartRate(60, extra: #", "recordedAt": "2027-01-16T08:00:00Z""#)
            expectProblem(try await client.send(.post, path, token: token, json: future), .unprocessableContent, fields: ["recordedAt"])
            // Before the client was born (1996-06-01): a conflict with the stored client, not a malformed body.
            let unborn = try await client.send(.post, path, token: token, json: Self.heartRate(60, extra: #", "recordedAt": "1996-05-31T08:00:00Z""#))
            expectProblem(unborn, .conflict, fields: ["recordedAt"])
            #expect(unborn.object["type"] as? String == "urn:healthwheel:problem:before-birth")
            #expect(try await Self.results(client, id, token: token).isEmpty)
        }
    }

    @Test func whenTheScriptCannotScoreTheValuesAreKeptWithScoreNullAndTheReason() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (token, id) = (gym.token, gym.client)
            let noHeight = try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"height": null}"#)
            #expect(noHeight.status == .ok, "body: \(noHeight.text)")
            let bmi = #"{"exerciseId": "bmi", "values": {"mass": 80}}"#
            let response = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: bmi)
            #expect(response.status == .created, "body: \(response.text)")
            #expect(response.jsonBody["score"] == .null)
            #expect(response.jsonBody["scoreError"]?.string?.contains("height is required for BMI") == true)
            #expect(response.jsonBody["values"] == .object(["mass": .number(80)]))
        }
    }

    @Test func aRetryWithTheSameIdempotencyKeyGetsTheFirstAnswerAndStoresNothingNew() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (token, id) = (gym.token, gym.client)
            let path = "/v1/clients/\(id)/results"
            let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "rhr-0915-a"]
            let first = try await client.send(.post, path, token: token, json: Self.heartRate(60), headers: key)
            #expect(first.status == .created)
            fixture.clock.advance(by: 5)
            let retry = try await client.send(.post, path, token: token, json: Self.heartRate(60), headers: key)
            #expect(retry.status == .created)
            #expect(retry.bodyBytes == first.bodyBytes)
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(try await Self.results(client, id, token: token).count == 1)

            let otherRequest = try await client.send(.post, path, token: token, json: Self.heartRate(61), headers: key)
            expectProblem(otherRequest, .unprocessableContent, fields: ["Idempotency-Key"])
            #expect(try await Self.results(client, id, token: token).count == 1)
        }
    }

    @Test func aKeyWhoseRequestFailedCanBeUsedAgain() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (token, id) = (gym.token, gym.client)
            let path = "/v1/clients/\(id)/results"
            let key: HTTPFields = [HTTPField.Name("Idempotency-Key")!: "k-1"]
            let bad = #"{"exerciseId": "resting-heart-rate", "values": {"heartRate": {"value": 60, "unit": "hz"}}}"#
            expectProblem(try await client.send(.post, path, token: token, json: bad, headers: key), .unprocessableContent)
            let fixed = try await client.send(.post, path, token: token, json: Self.heartRate(60), headers: key)
            #expect(fixed.status == .created, "body: \(fixed.text)")
            let badKey: HTTPFields = [HTTPField.Name("Idempotency-Key")!: String(repeating: "k", count: 256)]
            expectProblem(try await client.send(.post, path, token: token, json: Self.heartRate(60), headers: badKey), .unprocessableContent)
            #expect(try await Self.results(client, id, token: token).count == 1)
        }
    }

    @Test func concurrentRetriesWithOneKeyStoreOneResultAndAllGetItsAnswer() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let port = try #require(client.port)
            var headers: HTTPFields = [.authorization: "Bearer \(gym.token)", .contentType: "application/json"]
            headers[HTTPField.Name("Idempotency-Key")!] = "burst"
            let request = TestClient.Request(
                "/v1/clients/\(gym.client)/results",
                method: .post,
                authority: "localhost",
                headers: headers,
                body: ByteBuffer(string: Self.heartRate(60))
            )
            // One connection each: requests on one connection are served in turn, so they would not overlap.
            let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let connection = TestClient(host: "localhost", port: port)
                        connection.connect()
                        let response = try await connection.execute(request)
                        try await connection.shutdown()
                        return (response.head.status, String(buffer: response.body ?? ByteBuffer()))
                    }
                }
                return try await group.reduce(into: [(HTTPResponse.Status, String)]()) { $0.append($1) }
            }
            // The answer is kept with the result in one transaction: whoever loses the race replays the winner's.
            #expect(answers.allSatisfy { $0.0 == .created }, "\(answers.map(\.0))")
            #expect(Set(answers.map(\.1)).count == 1)
            #expect(try await Self.results(client, gym.client, token: gym.token).count == 1)
        }
    }

    @Test func amendRecentCorrectsTheTrainersLastResultWithinTheWindowOnly() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (admin, token, id) = (gym.admin, gym.token, gym.client)
            let path = "/v1/clients/\(id)/results"
            let first = try await client.send(.post, path, token: token, json: Self.heartRate(66)).jsonBody
            fixture.clock.advance(by: 30)
            let amended = try await client.send(.post, path, token: token, json: Self.heartRate(60, extra: #", "amendRecent": true"#))
            #expect(amended.status == .ok, "body: \(amended.text)")
            #expect(amended.jsonBody["amended"] == .bool(true))
            #expect(amended.jsonBody["id"] == first["id"])
            #expect(amended.jsonBody["revision"] == .number(2))
            #expect(amended.jsonBody["score"] == .number(7))
            #expect(try await Self.results(client, id, token: token).count == 1)
            let resultId = try #require(first["id"]?.string)
            let history = try await client.send(.get, "/v1/results/\(resultId)/history", token: token).jsonBody
            #expect(history["revisions"]?[0]?["reason"] == .string("correction"))
            #expect(history["revisions"]?[0]?["values"] == .object(["heartRate": .number(66)]))

            // Another trainer's amendRecent does not touch this trainer's result.
            let byAdmin = try await client.send(.post, path, token: admin, json: Self.heartRate(61, extra: #", "amendRecent": true"#))
            #expect(byAdmin.status == .created)
            #expect(byAdmin.jsonBody["amended"] == .bool(false))

            fixture.clock.advance(by: 61)
            let late = try await client.send(.post, path, token: token, json: Self.heartRate(62, extra: #", "amendRecent": true"#))
            #expect(late.status == .created)
            #expect(try await Self.results(client, id, token: token).count == 3)
        }
    }

    @Test func anEditRescoresAndKeepsEveryEarlierVersion() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (admin, token, trainer, id) = (gym.admin, gym.token, gym.trainer, gym.client)
            let created = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: Self.heartRate(60)).jsonBody
            let path = "/v1/results/\(try #require(created["id"]?.string))"
            fixture.clock.advance(by: 600)
            let edited = try await client.send(.patch, path, token: token, json: #"{"values": {"heartRate": 49}, "observations": "re-counted"}"#)
            #expect(edited.status == .ok, "body: \(edited.text)")
            #expect(edited.jsonBody["score"] == .number(8))
            #expect(edited.jsonBody["revision"] == .number(2))
            #expect(edited.jsonBody["updatedAt"] == .string("2027-01-15T08:10:00Z"))
            let moved = try await client.send(.patch, path, token: admin, json: #"{"recordedAt": "2027-01-14T18:00:00Z"}"#)
            #expect(moved.jsonBody["revision"] == .number(3))
            #expect(moved.jsonBody["recordedAt"] == .string("2027-01-14T18:00:00Z"))

            let unchanged = try await client.send(.patch, path, token: token, json: #"{"values": {"heartRate": 49}}"#)
            #expect(unchanged.jsonBody["revision"] == .number(3))

            let history = try await client.send(.get, "\(path)/history", token: token).jsonBody
            #expect(history["result"] == moved.jsonBody)
            let revisions = try #require(history["revisions"]?.array)
            #expect(revisions.map { $0["revision"] } == [.number(1), .number(2)])
            #expect(revisions[0]["values"] == .object(["heartRate": .number(60)]))
            #expect(revisions[0]["score"] == .number(7))
            #expect(revisions[0]["observations"] == .null)
            #expect(revisions[0]["reason"] == .string("edit"))
            #expect(revisions[0]["replacedBy"] == .string(trainer.trainer.id.uuidString))
            #expect(revisions[0]["replacedAt"] == .string("2027-01-15T08:10:00Z"))
            #expect(revisions[1]["observations"] == .string("re-counted"))
        }
    }

    @Test func aRejectedEditChangesNothing() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (token, id) = (gym.token, gym.client)
            let created = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: Self.heartRate(60))
            let path = "/v1/results/\(try #require(created.jsonBody["id"]?.string))"
            let edits = [
                (#"{"score": 10}"#, ["score"]),
                (#"{"values": {"heartRate": 400}, "observations": "x"}"#, ["values.heartRate"]),
                (#"{"values": {"heartRate": 50}, "recordedAt": "2027-02-01T00:00:00Z"}"#, ["recordedAt"]),
            ]
            for (edit, fields) in edits {
                expectProblem(try await client.send(.patch, path, token: token, json: edit), .unprocessableContent, fields: fields)
            }
            #expect(try await client.send(.get, path, token: token).jsonBody == created.jsonBody.removing("amended"))
            #expect(try await client.send(.get, "\(path)/history", token: token).jsonBody["revisions"] == .array([]))
        }
    }

    @Test func deletingIsForAnAdminOrTheTrainerWhoRecordedIt() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (admin, token, id) = (gym.admin, gym.token, gym.client)
            let other = try await client.token(for: try await fixture.trainer(in: gym.company))
            let created = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: Self.heartRate(60))
            let path = "/v1/results/\(try #require(created.jsonBody["id"]?.string))"
            expectProblem(try await client.send(.delete, path, token: other), .forbidden)
            #expect(try await client.send(.delete, path, token: token).status == .noContent)
            expectProblem(try await client.send(.get, path, token: token), .notFound)
            let second = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: Self.heartRate(61)).jsonBody
            #expect(try await client.send(.delete, "/v1/results/\(try #require(second["id"]?.string))", token: admin).status == .noContent)
            #expect(try await Self.results(client, id, token: token).isEmpty)
        }
    }

    @Test func resultsAreListedNewestFirstFilteredAndPaged() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (token, id) = (gym.token, gym.client)
            let path = "/v1/clients/\(id)/results"
            for day in 10...14 {
                let recorded = #", "recordedAt": "2027-01-\#(day)T09:00:00Z""#
                _ = try await client.send(.post, path, token: token, json: Self.heartRate(Double(50 + day), extra: recorded))
            }
            _ = try await client.send(
                .post,
                path,
                token: token,
                json: #"{"exerciseId": "push-ups", "values": {"count": 20}, "recordedAt": "2027-01-12T10:00:00Z"}"#
            )
            let all = try await Self.results(client, id, token: token)
            #expect(
                all.compactMap { $0["recordedAt"] as? String }.map { String($0.prefix(13)) } == [
                    "2027-01-14T09", "2027-01-13T09", "2027-01-12T10", "2027-01-12T09", "2027-01-11T09", "2027-01-10T09",
                ]
            )
            let filtered = try await Self.results(client, id, token: token, query: "?exercise=resting-heart-rate&from=2027-01-11&to=2027-01-13")
            #expect(filtered.compactMap { $0["values"] as? [String: Double] }.map { $0["heartRate"] } == [63, 62, 61])

            var seen: [String] = []
            var cursor: String?
            repeat {
                let query = "?limit=4" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.send(.get, path + query, token: token)
                seen += page.listItems.compactMap { $0["id"] as? String }
                cursor = page.object["nextCursor"] as? String
            } while cursor != nil
            #expect(seen == all.compactMap { $0["id"] as? String })

            expectProblem(try await client.send(.get, "\(path)?from=yesterday", token: token), .unprocessableContent, fields: ["from"])
            // A filter that ends before it starts matches nothing.
            let inverted = try await client.send(.get, "\(path)?from=2027-01-13&to=2027-01-11", token: token)
            #expect(inverted.status == .ok && (inverted.object["items"] as? [Any])?.isEmpty == true)
        }
    }

    /// Pages are served from memory while the client's results are unchanged: every change shows on the next list.
    @Test func aListedPageFollowsEveryChangeToTheClientsResults() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (token, id) = (gym.token, gym.client)
            let path = "/v1/clients/\(id)/results"
            func heartRates(_ query: String = "") async throws -> [Double?] {
                try await Self.results(client, id, token: token, query: query).map { ($0["values"] as? [String: Double])?["heartRate"] }
            }
            #expect(try await heartRates().isEmpty)
            let first = try await client.send(.post, path, token: token, json: Self.heartRate(60)).jsonBody
            #expect(try await heartRates() == [60])
            #expect(try await client.send(.get, path, token: token).text == (try await client.send(.get, path, token: token).text))
            fixture.clock.advance(by: 60)
            let second = try await client.send(.post, path, token: token, json: Self.heartRate(70)).jsonBody
            #expect(try await heartRates() == [70, 60])
            #expect(try await heartRates("?limit=1") == [70])
            let edited = try await client.send(
                .patch,
                "/v1/results/\(try #require(second["id"]?.string))",
                token: token,
                json: #"{"values": {"heartRate": 71}}"#
            )
            #expect(edited.status == .ok)
            #expect(try await heartRates() == [71, 60])
            #expect(try await heartRates("?limit=1") == [71])
            let amended = try await client.send(.post, path, token: token, json: Self.heartRate(72, extra: #", "amendRecent": true"#))
            #expect(amended.jsonBody["amended"] == .bool(true))
            #expect(try await heartRates() == [72, 60])
            #expect(try await client.send(.delete, "/v1/results/\(try #require(first["id"]?.string))", token: token).status == .noContent)
            #expect(try await heartRates() == [72])
            #expect(try await heartRates("?limit=1") == [72])
            // Each query is kept apart.
            let push = #"{"exerciseId": "push-ups", "values": {"count": 20}}"#
            #expect(try await client.send(.post, path, token: token, json: push).status == .created)
            #expect(try await heartRates("?exercise=resting-heart-rate") == [72])
            #expect(try await heartRates("?exercise=push-ups") == [nil])
            // An exercise holding a NUL and the text of a date: joined with NULs it would spell the query before.
            let from = Date(timeIntervalSince1970: 1_799_971_200)  // 2027-01-11
            #expect(try await heartRates("?exercise=resting-heart-rate&from=2027-01-11") == [72])
            #expect(try await heartRates("?exercise=resting-heart-rate%00\(from.timeIntervalSince1970)").isEmpty)
            let deleted = try await client.send(.delete, "/v1/clients/\(id)", token: gym.admin)
            #expect(deleted.status == .noContent, "body: \(deleted.text)")
            expectProblem(try await client.send(.get, path, token: token), .notFound)
        }
    }

    @Test func aRescoreUsesTheCurrentPackVersionAndReportsWhatChanged() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (admin, token, id) = (gym.admin, gym.token, gym.client)
            let pack = { (version: Int, script: String, score: Double) in
                jsonString(ExercisesTests.pack(version: version, script: script, score: score))
            }
            #expect(
                try await client.send(.post, "/v1/exercise-packs", token: admin, json: pack(1, "return math.min(10, value / 6)", 8)).status
                    == .created
            )
            let stand = #"{"exerciseId": "single-leg-stand", "values": {"time": 30}}"#
            let recorded = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: stand).jsonBody
            #expect(recorded["score"] == .number(5))
            _ = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: Self.heartRate(60))
            #expect(
                try await client.send(.post, "/v1/exercise-packs", token: admin, json: pack(2, "return math.min(10, value / 4)", 10)).status
                    == .created
            )

            expectProblem(try await client.send(.post, "/v1/clients/\(id)/rescore", token: token), .forbidden)
            let report = try await client.send(.post, "/v1/clients/\(id)/rescore", token: admin)
            #expect(report.status == .ok, "body: \(report.text)")
            #expect(report.jsonBody["checked"] == .number(2))
            #expect(report.jsonBody["unchanged"] == .number(1))
            #expect(report.jsonBody["skipped"] == .array([]))
            let change = try #require(report.jsonBody["changed"]?[0])
            #expect(change["resultId"] == recorded["id"])
            #expect(change["before"] == .object(["packVersion": .number(1), "score": .number(5), "scoreError": .null]))
            #expect(change["after"] == .object(["packVersion": .number(2), "score": .number(7.5), "scoreError": .null]))
            let history = try await client.send(.get, "/v1/results/\(try #require(recorded["id"]?.string))/history", token: token).jsonBody
            #expect(history["revisions"]?[0]?["reason"] == .string("rescore"))
            #expect(history["revisions"]?[0]?["packVersion"] == .number(1))
            #expect(history["result"]?["score"] == .number(7.5))
        }
    }

    @Test func anotherCompanysResultsAndClientsAre404() async throws {
        try await withAPI { fixture, client in
            let gym = try await Self.setUp(fixture, client)
            let (token, id) = (gym.token, gym.client)
            let resultId = try #require(
                try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: Self.heartRate(60)).jsonBody["id"]?.string
            )
            let outsider = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let attempts: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/v1/results/\(resultId)", nil),
                (.patch, "/v1/results/\(resultId)", #"{"observations": "x"}"#),
                (.delete, "/v1/results/\(resultId)", nil),
                (.get, "/v1/results/\(resultId)/history", nil),
                (.post, "/v1/clients/\(id)/results", Self.heartRate(60)),
                (.get, "/v1/clients/\(id)/results", nil),
                (.post, "/v1/clients/\(id)/rescore", nil),
                (.get, "/v1/clients/\(id)/wheel", nil),
            ]
            for (method, path, json) in attempts {
                expectProblem(try await client.send(method, path, token: outsider, json: json), .notFound)
            }
            let after = try await client.send(.get, "/v1/results/\(resultId)/history", token: token).jsonBody
            #expect(after["revisions"] == .array([]))
            #expect(after["result"]?["observations"] == .null)
            #expect(try await Self.results(client, id, token: token).count == 1)
        }
    }
}
