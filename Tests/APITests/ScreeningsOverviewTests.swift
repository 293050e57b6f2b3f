import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Store
import StoreContract
import Testing

@testable import API

/// The client overview: `screeningStatus`, the latest completed screening's `flags`, and `rescreenDue`.
@Suite struct ScreeningsOverviewTests {
    static func overview(_ id: String, _ client: some TestClientProtocol, _ token: String) async throws -> JSONValue {
        let response = try await client.send(.get, "/v1/clients/\(id)", token: token)
        #expect(response.status == .ok)
        return response.jsonBody
    }

    @Test func screeningStatusGoesFromNoneToDraftToCompleted() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            #expect(try await Self.overview(id, client, token)["screeningStatus"] == .string("none"))
            #expect(try await Self.overview(id, client, token)["lastScreenedAt"] == .null)

            let screening = try await client.startScreening(client: id, token: token)
            #expect(try await Self.overview(id, client, token)["screeningStatus"] == .string("draft"))

            let path = "/v1/clients/\(id)/screenings/\(screening)"
            #expect(try await client.send(.patch, path, token: token, json: ClientsAPI.healthyAnswers).status == .ok)
            fixture.clock.advance(by: 60)
            #expect(try await client.send(.post, "\(path)/complete", token: token).status == .ok)
            let completed = try await Self.overview(id, client, token)
            #expect(completed["screeningStatus"] == .string("completed"))
            #expect(completed["lastScreenedAt"] == .string("2027-01-15T08:01:00Z"))
            #expect(completed["rescreenDue"] == .bool(false))
        }
    }

    @Test func aNewDraftAfterACompletedScreeningKeepsTheStatusCompleted() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            _ = try await client.completeScreening(client: id, token: token, answers: #"{"answers": {"smoker": true}}"#)
            _ = try await client.startScreening(client: id, token: token)
            let overview = try await Self.overview(id, client, token)
            #expect(overview["screeningStatus"] == .string("completed"))
            #expect(overview["flags"] == .array([.string("smoker")]))
        }
    }

    @Test func flagsComeFromTheCompletedScreening() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            let answers = """
                {"answers": {"smoker": true, "cigarettesPerDay": 10, "chestPain": true, "chestPainDetails": "On stairs",
                 "currentInjuries": true, "currentInjuriesDetails": "Sprained ankle", "pregnant": true}}
                """
            let screening = try await client.completeScreening(client: id, token: token, answers: answers)
            let completed = try await client.send(.get, "/v1/clients/\(id)/screenings/\(screening)", token: token)
            let expected: Set<String> = ["medical-clearance", "smoker", "injury", "pregnancy"]
            #expect(Set(completed.jsonBody["flags"]?.array?.compactMap(\.string) ?? []) == expected)
            let overview = try await Self.overview(id, client, token)
            #expect(Set(overview["flags"]?.array?.compactMap(\.string) ?? []) == expected)
        }
    }

    @Test func draftAnswersRaiseNoFlagsBeforeCompletion() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            let screening = try await client.startScreening(client: id, token: token)
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            #expect(try await client.send(.patch, path, token: token, json: #"{"answers": {"smoker": true}}"#).status == .ok)
            #expect(try await Self.overview(id, client, token)["flags"] == .array([]))
        }
    }

    @Test func theLatestCompletedScreeningGivesTheFlags() async throws {
        try await withAPI { fixture, client in
            let account = try await fixture.trainer(in: try await fixture.company())
            var token = try await client.token(for: account)
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            _ = try await client.completeScreening(client: id, token: token, answers: #"{"answers": {"smoker": true}}"#)
            #expect(try await Self.overview(id, client, token)["flags"] == .array([.string("smoker")]))

            fixture.clock.advance(by: 30 * 86_400)
            token = try await client.token(for: account)
            let answers = #"{"answers": {"heartCondition": true, "heartConditionDetails": "Hypertension, treated"}}"#
            _ = try await client.completeScreening(client: id, token: token, answers: answers)
            let overview = try await Self.overview(id, client, token)
            #expect(overview["flags"] == .array([.string("medical-clearance")]))
            #expect(overview["lastScreenedAt"] == .string("2027-02-14T08:00:00Z"))
        }
    }

    @Test func anAmendmentThatHidesAFlaggedAnswerUpdatesTheOverview() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            let screening = try await client.completeScreening(client: id, token: token, answers: #"{"answers": {"pregnant": true}}"#)
            #expect(try await Self.overview(id, client, token)["flags"] == .array([.string("pregnancy")]))
            let path = "/v1/clients/\(id)/screenings/\(screening)"
            let amended = try await client.send(.patch, path, token: token, json: #"{"answers": {"sex": "male"}}"#)
            #expect(amended.jsonBody["status"] == .string("amended"))
            #expect(amended.jsonBody["flags"] == .array([]))
            #expect(try await Self.overview(id, client, token)["flags"] == .array([]))
        }
    }

    @Test func rescreeningIsDueOnceTheLatestCompletionIsOverTwelveMonthsOld() async throws {
        try await withAPI { fixture, client in
            let account = try await fixture.trainer(in: try await fixture.company())
            var token = try await client.token(for: account)
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            _ = try await client.completeScreening(client: id, token: token)
            // Completed 2027-01-15T08:00:00Z; twelve months later is 2028-01-15, 365 days on. Tokens last 12 hours,
            // so each jump needs a new login.
            fixture.clock.advance(by: 365 * 86_400)
            token = try await client.token(for: account)
            #expect(try await Self.overview(id, client, token)["rescreenDue"] == .bool(false))
            fixture.clock.advance(by: 86_400)
            token = try await client.token(for: account)
            #expect(try await Self.overview(id, client, token)["rescreenDue"] == .bool(true))
            let listed = try await client.send(.get, "/v1/clients", token: token).jsonBody["items"]?.array?.first
            #expect(listed?["rescreenDue"] == .bool(true))

            _ = try await client.completeScreening(client: id, token: token)
            #expect(try await Self.overview(id, client, token)["rescreenDue"] == .bool(false))
        }
    }

    @Test func aDraftAloneNeverMakesRescreeningDue() async throws {
        try await withAPI { fixture, client in
            let account = try await fixture.trainer(in: try await fixture.company())
            var token = try await client.token(for: account)
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            _ = try await client.startScreening(client: id, token: token)
            fixture.clock.advance(by: 800 * 86_400)
            token = try await client.token(for: account)
            let overview = try await Self.overview(id, client, token)
            #expect(overview["screeningStatus"] == .string("draft"))
            #expect(overview["rescreenDue"] == .bool(false))
        }
    }
}
