import Foundation
import HTTPTypes
import HummingbirdTesting
import Scoring
import Services
import Testing

/// Where a script runs: a company's own in a scoring worker, never in the server's process; the server's own
/// (the packs every company sees) in the server's process.
@Suite(.storeIndependent) struct ScoringPlacementTests {
    @Test func theServersOwnScriptsScoreWithoutAWorkerAndACompanysNeverDo() async throws {
        let fixture = try Fixture()
        let gym = try await withAPIValue(fixture: fixture) { fixture, client in
            let gym = try await ResultsTests.setUp(fixture, client)
            let pack = jsonString(ExercisesTests.pack())
            let created = try await client.send(.post, "/v1/exercise-packs", token: gym.admin, json: pack)
            #expect(created.status == .created, "body: \(created.text)")
            return gym
        }
        // The same data served by a server whose workers cannot start.
        let workerless = ExerciseScorer(workers: ScoringWorkers(executable: "/nonexistent/healthwheel", workers: 1))
        defer { workerless.workers.shutdown() }
        try await withAPI(fixture: fixture, scorer: workerless) { _, client in
            let shipped = try await client.send(.post, "/v1/clients/\(gym.client)/results", token: gym.token, json: ResultsTests.heartRate(60))
            #expect(shipped.status == .created, "body: \(shipped.text)")
            #expect(shipped.jsonBody["score"] == .number(7))
            #expect(shipped.jsonBody["scoreError"] == .null)
            let own = #"{"exerciseId": "single-leg-stand", "values": {"time": 48}}"#
            let company = try await client.send(.post, "/v1/clients/\(gym.client)/results", token: gym.token, json: own)
            #expect(company.status == .created, "body: \(company.text)")
            #expect(company.jsonBody["score"] == .null)
            #expect(company.jsonBody["scoreError"] == .string("no scoring worker could be started"))
            #expect(company.jsonBody["values"] == .object(["time": .number(48)]))
        }
    }
}
