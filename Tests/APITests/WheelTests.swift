import Foundation
import HealthwheelCore
import HummingbirdTesting
import Testing

/// `GET /v1/clients/{id}/wheel`: one slice per category in wheel order, each the mean of its exercises' latest
/// scores, flagged below the company's threshold.
@Suite struct WheelTests {
    static func record(
        _ client: some TestClientProtocol,
        _ id: String,
        token: String,
        _ json: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let response = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: json)
        #expect(response.status == .created, "body: \(response.text)", sourceLocation: sourceLocation)
    }

    @Test func aNewClientsWheelHasEveryCategoryInOrderWithoutScores() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(ResultsTests.sam, token: token)
            let wheel = try await client.send(.get, "/v1/clients/\(id)/wheel", token: token)
            #expect(wheel.status == .ok, "body: \(wheel.text)")
            let body = wheel.jsonBody
            #expect(body["target"] == .number(10))
            #expect(body["flagBelow"] == .number(4))
            #expect(body["generatedAt"] == .string("2027-01-15T08:00:00Z"))
            let slices = try #require(body["slices"]?.array)
            #expect(
                slices.map { $0["categoryId"] }
                    == ["cardiovascular", "body-composition", "strength", "flexibility", "endurance"].map(JSONValue.string)
            )
            #expect(slices.allSatisfy { $0["score"] == .null && $0["flagged"] == .bool(false) })
            #expect(slices.allSatisfy { $0["colour"]?.string?.count == 7 })
            let cardio = try #require(slices.first?["exercises"]?.array)
            #expect(
                cardio.first
                    == .object([
                        "exerciseId": .string("resting-heart-rate"), "name": .string("Resting heart rate"), "score": .null, "latest": .null,
                    ])
            )
        }
    }

    @Test func aSliceIsTheMeanOfTheLatestScoreOfEachExerciseAndLowSlicesAreFlagged() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.screenedClient(ResultsTests.sam, token: token)
            // An older heart rate is replaced by the newer one: only the latest counts.
            try await Self.record(client, id, token: token, ResultsTests.heartRate(82, extra: #", "recordedAt": "2027-01-10T09:00:00Z""#))
            try await Self.record(client, id, token: token, ResultsTests.heartRate(60, extra: #", "recordedAt": "2027-01-14T09:00:00Z""#))
            // 26–35-year-old man: 60 bpm scores 7, and a YMCA recovery of 128 bpm is "below average".
            try await Self.record(client, id, token: token, #"{"exerciseId": "ymca-step-test", "values": {"heartRate": 128}}"#)
            try await Self.record(client, id, token: token, #"{"exerciseId": "push-ups", "values": {"count": 2}}"#)

            let wheel = try await client.send(.get, "/v1/clients/\(id)/wheel", token: token).jsonBody
            let slices = try #require(wheel["slices"]?.array)
            let cardio = slices[0]
            let exercises = try #require(cardio["exercises"]?.array)
            let restingScore = try #require(exercises[0]["score"]?.number)
            let stepScore = try #require(exercises.first { $0["exerciseId"] == .string("ymca-step-test") }?["score"]?.number)
            #expect(restingScore == 7)
            #expect(cardio["score"]?.number == Score.rounded((restingScore + stepScore) / 2))
            #expect(
                exercises[0]["latest"] == .object(["values": .object(["heartRate": .number(60)]), "recordedAt": .string("2027-01-14T09:00:00Z")])
            )
            #expect(exercises.first { $0["exerciseId"] == .string("blood-pressure") }?["score"] == .null)

            // With ?units=imperial, lengths, masses and distances are also given as imperial readers know them.
            try await Self.record(
                client,
                id,
                token: token,
                #"{"exerciseId": "cooper-12-minute-run", "values": {"distance": {"value": 1.5, "unit": "mi"}}}"#
            )
            let imperial = try await client.send(.get, "/v1/clients/\(id)/wheel?units=imperial", token: token).jsonBody
            let run = try #require(imperial["slices"]?[4]?["exercises"]?.array?.first { $0["exerciseId"] == .string("cooper-12-minute-run") })
            #expect(
                run["latest"]?["display"]
                    == .object(["distance": .object(["value": .number(1.5), "unit": .string("mi"), "text": .string("1.5 mi")])])
            )
            #expect(imperial["slices"]?[0]?["exercises"]?[0]?["latest"]?["display"] == .object([:]))
            let metric = try await client.send(.get, "/v1/clients/\(id)/wheel", token: token).jsonBody
            #expect(metric["slices"]?[4]?["exercises"]?.array?.allSatisfy { $0["latest"]?["display"] == nil } == true)

            let endurance = try #require(slices.last)
            let pushUps = try #require(endurance["score"]?.number)
            #expect(pushUps < 4)
            #expect(endurance["flagged"] == .bool(true))
            #expect(endurance["weakest"]?["exerciseId"] == .string("push-ups") && endurance["weakest"]?["score"]?.number == pushUps)
            let weakestCardio = restingScore <= stepScore ? "resting-heart-rate" : "ymca-step-test"
            #expect(cardio["weakest"]?["exerciseId"] == .string(weakestCardio))
            #expect(slices[1]["weakest"] == .null)
            #expect(slices[1]["score"] == .null && slices[1]["flagged"] == .bool(false))
        }
    }

    @Test func anUnscoredNewestResultShowsItsValuesWhileTheScoreComesFromTheLastScoredOne() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.screenedClient(ResultsTests.sam, token: token)
            try await Self.record(client, id, token: token, #"{"exerciseId": "bmi", "values": {"mass": 80}, "recordedAt": "2027-01-10T09:00:00Z"}"#)
            let cleared = try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"height": null}"#)
            #expect(cleared.status == .ok)
            try await Self.record(client, id, token: token, #"{"exerciseId": "bmi", "values": {"mass": 95}}"#)

            let slices = try #require(try await client.send(.get, "/v1/clients/\(id)/wheel", token: token).jsonBody["slices"]?.array)
            let bmi = try #require(slices[1]["exercises"]?.array?.first { $0["exerciseId"] == .string("bmi") })
            #expect(bmi["score"] == .number(10))  // 80 kg at 1.80 m: BMI 24.7, normal
            #expect(bmi["latest"]?["values"] == .object(["mass": .number(95)]))
            #expect(slices[1]["score"] == .number(10))
        }
    }

    /// The wheel is served from memory while nothing it is built from has changed; every change must show at once.
    @Test func theWheelFollowsEveryChangeToWhatItIsBuiltFrom() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let id = try await client.screenedClient(ResultsTests.sam, token: admin)
            func cardio() async throws -> JSONValue? {
                try await client.send(.get, "/v1/clients/\(id)/wheel", token: admin).jsonBody["slices"]?[0]?["score"]
            }
            #expect(try await cardio() == .null)
            let created = try await client.send(.post, "/v1/clients/\(id)/results", token: admin, json: ResultsTests.heartRate(60))
            #expect(try await cardio() == .number(7))
            let resultText = try #require(created.jsonBody["id"]?.string)
            let path = "/v1/results/\(resultText)"
            _ = try await client.send(.patch, path, token: admin, json: #"{"values": {"heartRate": 49}}"#)
            #expect(try await cardio() == .number(8))

            // A write that bypasses the API is seen too: the version is kept by database triggers.
            let resultId = try #require(UUID(uuidString: resultText))
            var stored = try #require(try await fixture.store.results.find(resultId, in: company.id))
            let before = stored
            stored.score = 3
            _ = try await fixture.store.results.replace([(before, stored)], by: UUID(), reason: .edit, at: fixture.clock.now, keeping: nil)
            #expect(try await cardio() == .number(3))

            // The company's threshold and the catalog are part of what it is built from.
            try await fixture.database.write { db in _ = try await db.run("UPDATE companies SET wheel_flag_below = 2.5 WHERE id = ?", company.id) }
            let slices = try await client.send(.get, "/v1/clients/\(id)/wheel", token: admin).jsonBody
            #expect(slices["flagBelow"] == .number(2.5) && slices["slices"]?[0]?["flagged"] == .bool(false))
            let pack = try await client.send(.post, "/v1/exercise-packs", token: admin, json: jsonString(ExercisesTests.pack()))
            #expect(pack.status == .created)
            let categories = try await client.send(.get, "/v1/clients/\(id)/wheel", token: admin).jsonBody["slices"]?.array
            #expect(categories?.last?["categoryId"] == .string("balance"))

            _ = try await client.send(.delete, path, token: admin)
            #expect(try await cardio() == .null)
        }
    }
}
