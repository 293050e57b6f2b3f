import Foundation
import HealthwheelCore
import HummingbirdTesting
import Testing

@testable import API

/// `GET /v1/clients/{id}/wheel.svg` and `wheel.png?size=`: the wheel drawn in the company's theme, the same
/// bytes for the same wheel and theme, new ones as soon as either changes.
@Suite struct WheelPictureTests {
    struct Setup {
        let admin: String
        let client: String
    }

    func setup(_ fixture: Fixture, _ client: some TestClientProtocol) async throws -> Setup {
        let company = try await fixture.company()
        let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
        let id = try await client.screenedClient(ResultsTests.sam, token: admin)
        try await WheelTests.record(client, id, token: admin, #"{"exerciseId": "push-ups", "values": {"count": 2}}"#)
        return Setup(admin: admin, client: id)
    }

    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int) {
        (bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, bytes[20..<24].reduce(0) { $0 << 8 | Int($1) })
    }

    @Test func theSVGShowsEveryCategoryAndFlagsTheWeakOne() async throws {
        try await withAPI { fixture, client in
            let setup = try await setup(fixture, client)
            let response = try await client.send(.get, "/v1/clients/\(setup.client)/wheel.svg", token: setup.admin)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/svg+xml")
            #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            let svg = response.text
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"512\" height=\"384\""))
            for name in [
                "Body composition no score yet", "Cardiovascular no score yet", "Flexibility", "Strength", "Endurance 2, needs attention: Push-ups",
            ] {
                #expect(svg.contains(name), "\(name)")
            }
            #expect(svg.contains(">Push-ups</text>"))
            #expect(svg.contains("fill=\"#d32f2f\""), "the default theme's flag colour marks the flagged slice")
            #expect(!svg.contains("<script") && !svg.contains("href"))
            let again = try await client.send(.get, "/v1/clients/\(setup.client)/wheel.svg", token: setup.admin)
            #expect(again.bodyBytes == response.bodyBytes)
        }
    }

    @Test func thePNGIsDrawnAtTheAskedWidth() async throws {
        try await withAPI { fixture, client in
            let setup = try await setup(fixture, client)
            let standard = try await client.send(.get, "/v1/clients/\(setup.client)/wheel.png", token: setup.admin)
            #expect(standard.status == .ok && standard.headers[.contentType] == "image/png")
            #expect(Self.pngSize(standard.bodyBytes) == (512, 384))
            let large = try await client.send(.get, "/v1/clients/\(setup.client)/wheel.png?size=1024", token: setup.admin)
            #expect(Self.pngSize(large.bodyBytes) == (1024, 768))
            for size in ["255", "2049", "big", "-1"] {
                expectProblem(
                    try await client.send(.get, "/v1/clients/\(setup.client)/wheel.png?size=\(size)", token: setup.admin),
                    .unprocessableContent,
                    fields: ["size"]
                )
            }
        }
    }

    @Test func aNewResultOrANewThemeDrawsANewPicture() async throws {
        try await withAPI { fixture, client in
            let setup = try await setup(fixture, client)
            let path = "/v1/clients/\(setup.client)/wheel.svg"
            let before = try await client.send(.get, path, token: setup.admin).text
            try await WheelTests.record(client, setup.client, token: setup.admin, ResultsTests.heartRate(60))
            let afterResult = try await client.send(.get, path, token: setup.admin).text
            #expect(afterResult != before)
            _ = try await client.send(.put, "/v1/theme", token: setup.admin, json: #"{"themeId": "high-contrast"}"#)
            let afterTheme = try await client.send(.get, path, token: setup.admin).text
            #expect(afterTheme != afterResult)
            #expect(afterTheme.contains("fill=\"#0072b2\""), "high-contrast's strength colour")
        }
    }

    @Test func anotherCompanysClientIs404() async throws {
        try await withAPI { fixture, client in
            let setup = try await setup(fixture, client)
            let stranger = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            for path in ["wheel.svg", "wheel.png", "wheel.png?size=1024"] {
                expectProblem(try await client.send(.get, "/v1/clients/\(setup.client)/\(path)", token: stranger), .notFound)
            }
            expectProblem(try await client.send(.get, "/v1/clients/\(UUID().uuidString)/wheel.svg", token: setup.admin), .notFound)
        }
    }
}
