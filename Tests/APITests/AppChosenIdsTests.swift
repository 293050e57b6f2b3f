import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import TestSupport
import Testing

@testable import API

/// Records an app creates offline under ids of its own: sent again they are the same record, an id that holds
/// something else is a 409 with the record as the server holds it, and a record removed meanwhile is a 410.
@Suite struct AppChosenIdsTests {
    static func clientJSON(_ id: String, goal: String = "run 5 km") -> String {
        #"{"id": "\#(id)", "givenName": "Ines", "familyName": "Okafor", "goal": "\#(goal)"}"#
    }

    @Test func aClientMadeOfflineIsCreatedOnceAndRetriesAreAnsweredAsTheFirstTime() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let token = try await client.token(for: try await fixture.trainer(in: company))
            let id = UUID().uuidString
            let first = try await client.send(.post, "/v1/clients", token: token, json: Self.clientJSON(id))
            #expect(first.status == .created, "\(first.text)")
            #expect((first.object["id"] as? String)?.uppercased() == id.uppercased())
            #expect(first.headers[.location] == "/v1/clients/\(id.uppercased())")
            #expect(first.headers[IdempotentRequests.replayedHeader] == nil)

            let again = try await client.send(.post, "/v1/clients", token: token, json: Self.clientJSON(id))
            #expect(again.status == .created)
            #expect(again.headers[IdempotentRequests.replayedHeader] == "true")
            #expect(again.text == first.text, "the same answer")
            let listed = try await client.send(.get, "/v1/clients?q=okafor", token: token).object["items"] as? [Any]
            #expect(listed?.count == 1, "created once")

            // Another body under the id: a 409 naming it, with the client as the server holds them.
            let other = try await client.send(.post, "/v1/clients", token: token, json: Self.clientJSON(id, goal: "swim"))
            expectProblem(other, .conflict, fields: ["id"])
            let current = try #require(other.object["current"] as? [String: Any])
            #expect(current["goal"] as? String == "run 5 km")
            // Once another device changed them, the first body no longer matches: the app is shown what changed.
            #expect(try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"goal": "row 2 km"}"#).status == .ok)
            let stale = try await client.send(.post, "/v1/clients", token: token, json: Self.clientJSON(id))
            expectProblem(stale, .conflict, fields: ["id"])
            #expect((stale.object["current"] as? [String: Any])?["goal"] as? String == "row 2 km")
            expectProblem(
                try await client.send(.post, "/v1/clients", token: token, json: #"{"id": "nope", "givenName": "X"}"#),
                .unprocessableContent,
                fields: ["id"]
            )
        }
    }

    @Test func anIdOfAnotherCompanyIsTakenWithoutSayingMore() async throws {
        try await withAPI { fixture, client in
            let mine = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let theirs = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = UUID().uuidString
            #expect(try await client.send(.post, "/v1/clients", token: theirs, json: Self.clientJSON(id)).status == .created)
            let taken = try await client.send(.post, "/v1/clients", token: mine, json: Self.clientJSON(id))
            expectProblem(taken, .conflict, fields: ["id"])
            #expect(taken.object["current"] == nil)
            #expect(!taken.text.contains("Okafor") && !taken.text.contains("run 5 km"))
        }
    }

    @Test func recordsRemovedMeanwhileAreGoneAndTheAppIsToldSo() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            // A client deleted, and one erased: their ids are answered 410, and so are results made for them.
            for query in ["", "?erase=true"] {
                let id = UUID().uuidString
                #expect(try await client.send(.post, "/v1/clients", token: admin, json: Self.clientJSON(id)).status == .created)
                #expect(try await client.send(.delete, "/v1/clients/\(id)\(query)", token: admin).status == .noContent)
                expectProblem(try await client.send(.post, "/v1/clients", token: admin, json: Self.clientJSON(id)), .gone, fields: ["id"])
                let result = #"{"id": "\#(UUID())", "exerciseId": "resting-heart-rate", "values": {"heartRate": 60}}"#
                let orphan = try await client.send(.post, "/v1/clients/\(id)/results", token: admin, json: result)
                expectProblem(orphan, .gone, fields: ["clientId"])
            }
            // A result deleted meanwhile.
            let id = try await client.screenedClient(token: admin)
            let resultId = UUID().uuidString
            let body = #"{"id": "\#(resultId)", "exerciseId": "resting-heart-rate", "values": {"heartRate": 60}}"#
            #expect(try await client.send(.post, "/v1/clients/\(id)/results", token: admin, json: body).status == .created)
            #expect(try await client.send(.delete, "/v1/results/\(resultId)", token: admin).status == .noContent)
            expectProblem(try await client.send(.post, "/v1/clients/\(id)/results", token: admin, json: body), .gone, fields: ["id"])
            // Another company's client is only not found.
            let stranger = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            expectProblem(try await client.send(.post, "/v1/clients/\(id)/results", token: stranger, json: body), .notFound)
        }
    }

    @Test func aResultMadeOfflineIsRecordedOnce() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.screenedClient(token: token)
            let resultId = UUID().uuidString
            let body =
                #"{"id": "\#(resultId)", "exerciseId": "resting-heart-rate", "values": {"heartRate": 61}, "recordedAt": "2027-01-14T09:30:00Z"}"#
            let first = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: body)
            #expect(first.status == .created, "\(first.text)")
            #expect((first.object["id"] as? String)?.uppercased() == resultId.uppercased())
            #expect(first.object["recordedAt"] as? String == "2027-01-14T09:30:00Z")
            let again = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: body)
            #expect(again.status == .created && again.headers[IdempotentRequests.replayedHeader] == "true")
            #expect(again.object["score"] as? Double == first.object["score"] as? Double)
            let page = try await client.send(.get, "/v1/clients/\(id)/results", token: token).object["items"] as? [Any]
            #expect(page?.count == 1)

            let other = #"{"id": "\#(resultId)", "exerciseId": "resting-heart-rate", "values": {"heartRate": 75}}"#
            let taken = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: other)
            expectProblem(taken, .conflict, fields: ["id"])
            #expect(((taken.object["current"] as? [String: Any])?["values"] as? [String: Any])?["heartRate"] as? Double == 61)
            let amend = #"{"id": "\#(UUID())", "exerciseId": "resting-heart-rate", "values": {"heartRate": 62}, "amendRecent": true}"#
            expectProblem(
                try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: amend),
                .unprocessableContent,
                fields: ["amendRecent"]
            )
        }
    }

    @Test func aScreeningStartedOfflineIsStartedOnceAndOneCompletedElsewhereIsShownAsItIsNow() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            let screening = UUID().uuidString
            let body = #"{"id": "\#(screening)", "questionnaireId": "screening"}"#
            let first = try await client.send(.post, "/v1/clients/\(id)/screenings", token: token, json: body)
            #expect(first.status == .created, "\(first.text)")
            #expect((first.object["id"] as? String)?.uppercased() == screening.uppercased())
            let again = try await client.send(.post, "/v1/clients/\(id)/screenings", token: token, json: body)
            #expect(again.status == .created && again.headers[IdempotentRequests.replayedHeader] == "true")
            #expect((try await client.send(.get, "/v1/clients/\(id)/screenings", token: token).object["items"] as? [Any])?.count == 1)
            // The same id under another client is another record's.
            let other = try await client.createClient(given: "Noor", family: "Haddad", token: token)
            expectProblem(try await client.send(.post, "/v1/clients/\(other)/screenings", token: token, json: body), .conflict, fields: ["id"])

            // Completed on another device meanwhile: this device's answer is refused with the screening as it is.
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            #expect(try await client.send(.patch, path, token: token, json: ClientsAPI.healthyAnswers).status == .ok)
            #expect(try await client.send(.post, "\(path)/complete", token: token).status == .ok)
            let late = try await client.send(.patch, path, token: token, json: #"{"answers": {"smoker": true}}"#)
            expectProblem(late, .conflict, fields: ["answers.smoker"])
            let current = try #require(late.object["current"] as? [String: Any])
            #expect(current["status"] as? String == "completed")
            #expect((current["answers"] as? [String: Any])?["smoker"] as? Bool == false)
            let twice = try await client.send(.post, "\(path)/complete", token: token)
            expectProblem(twice, .conflict)
            #expect((twice.object["current"] as? [String: Any])?["status"] as? String == "completed")
        }
    }

    @Test func resultsTakenOfflineAreDatedThenAndTheGateAndWindowApplyAsTheyWouldHaveThen() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            let now = fixture.clock.now
            func at(_ seconds: TimeInterval) -> String { RFC3339.string(from: now.addingTimeInterval(seconds)) }
            func result(_ bpm: Int, takenAt: String, extra: String = "") -> String {
                #"{"exerciseId": "resting-heart-rate", "values": {"heartRate": \#(bpm)}, "takenAt": "\#(takenAt)"\#(extra)}"#
            }
            // Screened offline two hours ago, sent now.
            let screening = try await client.startScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            #expect(try await client.send(.patch, path, token: token, json: ClientsAPI.healthyAnswers).status == .ok)
            let completed = try await client.send(.post, "\(path)/complete", token: token, json: #"{"completedAt": "\#(at(-7_200))"}"#)
            #expect(completed.status == .ok, "\(completed.text)")
            #expect(completed.object["completedAt"] as? String == at(-7_200))

            // Taken an hour ago: recorded, dated then.
            let taken = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: result(60, takenAt: at(-3_600)))
            #expect(taken.status == .created, "\(taken.text)")
            #expect(taken.object["recordedAt"] as? String == at(-3_600))
            // Taken before the screening was completed: the gate refuses it as it would have then.
            let early = try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: result(60, takenAt: at(-10_800)))
            expectProblem(early, .conflict, fields: ["takenAt"])
            // A quick correction 30 s after it was taken corrects it; one 10 minutes after is a result of its own.
            let corrected = try await client.send(
                .post,
                "/v1/clients/\(id)/results",
                token: token,
                json: result(58, takenAt: at(-3_570), extra: #", "amendRecent": true"#)
            )
            #expect(corrected.status == .ok && corrected.object["amended"] as? Bool == true, "\(corrected.text)")
            #expect(corrected.object["id"] as? String == taken.object["id"] as? String)
            let later = try await client.send(
                .post,
                "/v1/clients/\(id)/results",
                token: token,
                json: result(57, takenAt: at(-3_000), extra: #", "amendRecent": true"#)
            )
            #expect(later.status == .created, "\(later.text)")

            // Limits: not ahead of the server, not a month old, and one moment when recordedAt is sent too.
            expectProblem(
                try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: result(60, takenAt: at(3_600))),
                .unprocessableContent,
                fields: ["takenAt"]
            )
            expectProblem(
                try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: result(60, takenAt: at(-40 * 86_400))),
                .unprocessableContent,
                fields: ["takenAt"]
            )
            let both = result(60, takenAt: at(-60), extra: #", "recordedAt": "\#(at(-120))""#)
            expectProblem(
                try await client.send(.post, "/v1/clients/\(id)/results", token: token, json: both),
                .unprocessableContent,
                fields: ["takenAt"]
            )
            let other = try await client.createClient(ClientsAPI.ada, token: token)
            let otherScreening = try await client.startScreening(client: other, token: token)
            let otherPath = "/v1/clients/\(other)/screenings/\(otherScreening)"
            #expect(try await client.send(.patch, otherPath, token: token, json: ClientsAPI.healthyAnswers).status == .ok)
            expectProblem(
                try await client.send(.post, "\(otherPath)/complete", token: token, json: #"{"completedAt": "\#(at(3_600))"}"#),
                .unprocessableContent,
                fields: ["completedAt"]
            )
        }
    }
}
