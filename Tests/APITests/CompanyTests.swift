import Foundation
import HealthwheelCore
import HummingbirdTesting
import Testing

/// `/v1/company`: every trainer reads the company's scoring settings; an admin changes them, and they take effect.
@Suite struct CompanyTests {
    @Test func everyTrainerSeesTheCompanyWithItsDefaultSettings() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company("Peak Performance")
            let token = try await client.token(for: try await fixture.trainer(in: company))
            let response = try await client.send(.get, "/v1/company", token: token)
            #expect(response.status == .ok)
            #expect(
                response.jsonBody
                    == .object([
                        "id": .string(company.id.uuidString), "name": .string("Peak Performance"),
                        "createdAt": .string("2027-01-15T08:00:00Z"), "correctionWindowSeconds": .number(60), "wheelFlagBelow": .number(4),
                    ])
            )
        }
    }

    @Test func onlyAnAdminChangesTheSettingsAndBadValuesChangeNothing() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let trainer = try await client.token(for: try await fixture.trainer(in: company))
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            expectProblem(try await client.send(.patch, "/v1/company", token: trainer, json: #"{"wheelFlagBelow": 5}"#), .forbidden)
            let bad = #"{"correctionWindowSeconds": 7200, "wheelFlagBelow": 11}"#
            expectProblem(
                try await client.send(.patch, "/v1/company", token: admin, json: bad),
                .unprocessableContent,
                fields: ["correctionWindowSeconds", "wheelFlagBelow"]
            )
            expectProblem(
                try await client.send(.patch, "/v1/company", token: admin, json: #"{"name": "x"}"#),
                .unprocessableContent,
                fields: ["name"]
            )
            #expect(try await client.send(.get, "/v1/company", token: trainer).jsonBody["wheelFlagBelow"] == .number(4))
            let changed = try await client.send(.patch, "/v1/company", token: admin, json: #"{"wheelFlagBelow": 7.5}"#)
            #expect(changed.status == .ok, "body: \(changed.text)")
            #expect(changed.jsonBody["wheelFlagBelow"] == .number(7.5))
            #expect(changed.jsonBody["correctionWindowSeconds"] == .number(60))
        }
    }

    @Test func theSettingsDecideQuickCorrectionsAndFlags() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let id = try await client.screenedClient(ResultsTests.sam, token: admin)
            let settings = #"{"correctionWindowSeconds": 0, "wheelFlagBelow": 8}"#
            #expect(try await client.send(.patch, "/v1/company", token: admin, json: settings).status == .ok)
            let path = "/v1/clients/\(id)/results"
            _ = try await client.send(.post, path, token: admin, json: ResultsTests.heartRate(60))
            fixture.clock.advance(by: 1)
            let again = try await client.send(.post, path, token: admin, json: ResultsTests.heartRate(61, extra: #", "amendRecent": true"#))
            #expect(again.status == .created)
            #expect(again.jsonBody["amended"] == .bool(false))
            let wheel = try await client.send(.get, "/v1/clients/\(id)/wheel", token: admin).jsonBody
            #expect(wheel["flagBelow"] == .number(8))
            #expect(wheel["slices"]?[0]?["score"] == .number(7))
            #expect(wheel["slices"]?[0]?["flagged"] == .bool(true))
        }
    }
}
