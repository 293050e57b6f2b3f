import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Store
import StoreContract
import Testing

@testable import API

/// Another company's client ids answer 404 on every client and screening route, exactly like missing ones, and
/// those requests change nothing.
@Suite struct ClientsCrossCompanyTests {
    @Test func anotherCompanysClientIs404OnEveryRouteAndNothingChanges() async throws {
        try await withAPI { fixture, client in
            let ownerToken = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let id = try await client.createClient(ClientsAPI.ada, token: ownerToken)
            let completed = try await client.completeScreening(client: id, token: ownerToken)
            let draft = try await client.startScreening(client: id, token: ownerToken)
            let photo = ClientsAPI.jpeg(size: 500)
            #expect(
                try await client.sendBytes(.put, "/v1/clients/\(id)/photo", token: ownerToken, contentType: "image/jpeg", bytes: photo).status
                    == .noContent
            )

            let clientPath = "/v1/clients/\(id)"
            let screeningsPath = "\(clientPath)/screenings"
            let views = [
                clientPath, screeningsPath, "\(screeningsPath)/\(completed)", "\(screeningsPath)/\(draft)", "\(screeningsPath)/\(completed)/history",
            ]
            var before: [JSONValue] = []
            for path in views { before.append(try await client.send(.get, path, token: ownerToken).jsonBody) }

            let intruder = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let requests: [(HTTPRequest.Method, String, String?)] = [
                (.get, clientPath, nil),
                (.patch, clientPath, #"{"goal": "Taken over"}"#),
                (.delete, clientPath, nil),
                (.get, "\(clientPath)/photo", nil),
                (.delete, "\(clientPath)/photo", nil),
                (.get, screeningsPath, nil),
                (.post, screeningsPath, #"{"questionnaireId": "screening"}"#),
                (.get, "\(screeningsPath)/\(completed)", nil),
                (.patch, "\(screeningsPath)/\(completed)", #"{"answers": {"goal": "Taken over"}}"#),
                (.patch, "\(screeningsPath)/\(draft)", #"{"answers": {"smoker": true}}"#),
                (.post, "\(screeningsPath)/\(draft)/complete", nil),
                (.get, "\(screeningsPath)/\(completed)/history", nil),
            ]
            for (method, path, body) in requests {
                let response = try await client.send(method, path, token: intruder, json: body)
                expectProblem(response, .notFound)
                #expect(response.status == .notFound, "\(method) \(path)")
            }
            let put = try await client.sendBytes(.put, "\(clientPath)/photo", token: intruder, contentType: "image/png", bytes: ClientsAPI.png())
            expectProblem(put, .notFound)

            var after: [JSONValue] = []
            for path in views { after.append(try await client.send(.get, path, token: ownerToken).jsonBody) }
            #expect(after == before)
            let served = try await client.send(.get, "\(clientPath)/photo", token: ownerToken)
            #expect(served.headers[.contentType] == "image/jpeg")
            #expect(served.bodyBytes == photo)
            let screenings: Int = try fixture.database.readBlocking { try await $0.scalar("SELECT count(*) FROM screenings") }
            #expect(screenings == 2)
        }
    }

    @Test func aForeignClientLooksExactlyLikeAMissingOne() async throws {
        try await withAPI { fixture, client in
            let ownerToken = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: nil, token: ownerToken)
            let intruder = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let foreign = try await client.send(.get, "/v1/clients/\(id)", token: intruder)
            let missing = try await client.send(.get, "/v1/clients/\(UUID().uuidString)", token: intruder)
            #expect(foreign.status == .notFound)
            #expect(foreign.text == missing.text)
        }
    }

    @Test func aScreeningIsFoundOnlyUnderItsOwnClient() async throws {
        try await withAPI { fixture, client in
            let ownerToken = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let ada = try await client.createClient(ClientsAPI.ada, token: ownerToken)
            let screening = try await client.startScreening(client: ada, token: ownerToken)
            let grace = try await client.createClient(given: "Grace", family: "Hopper", token: ownerToken)
            expectProblem(try await client.send(.get, "/v1/clients/\(grace)/screenings/\(screening)", token: ownerToken), .notFound)
            expectProblem(
                try await client.send(
                    .patch,
                    "/v1/clients/\(grace)/screenings/\(screening)",
                    token: ownerToken,
                    json: #"{"answers": {"smoker": true}}"#
                ),
                .notFound
            )

            let intruder = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let own = try await client.createClient(given: "Own", family: "Client", token: intruder)
            expectProblem(try await client.send(.get, "/v1/clients/\(own)/screenings/\(screening)", token: intruder), .notFound)
            expectProblem(try await client.send(.post, "/v1/clients/\(own)/screenings/\(screening)/complete", token: intruder), .notFound)
            expectProblem(try await client.send(.get, "/v1/clients/\(own)/screenings/\(screening)/history", token: intruder), .notFound)

            let shown = try await client.send(.get, "/v1/clients/\(ada)/screenings/\(screening)", token: ownerToken)
            #expect(shown.jsonBody["answers"]?["smoker"] == nil)
            #expect(shown.jsonBody["status"] == .string("draft"))
        }
    }
}
