import Foundation
import HTTPTypes
import Testing

@testable import API

/// A body that breaks HTTP/1.1 framing is the client's mistake: a 400 problem, logged as nothing worse than the
/// request line, with the server answering the next connection.
@Suite struct MalformedBodyTests {
    @Test(arguments: [
        ("a chunk size that is not hex", "zz\r\n{}\r\n0\r\n\r\n"),
        ("a 20-digit chunk size", "99999999999999999999\r\n{}\r\n0\r\n\r\n"),
        ("a negative chunk size", "-1\r\n{}\r\n0\r\n\r\n"),
        ("a chunk without its CRLF", "2\r\n{}0\r\n\r\n"),
    ])
    func aMalformedChunkedBodyIs400(_ name: String, _ body: String) async throws {
        let logs = LogRecorder()
        try await withAPI(logs: logs) { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let connection = try RawHTTPConnection(port: try #require(client.port))
            try await connection.send(
                "POST /v1/clients HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + body
            )
            let response = try await connection.receive(until: "}")
            #expect(response.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(name): \(response)")
            #expect(response.contains("application/problem+json") && response.contains("urn:healthwheel:problem:malformed"), "\(name)")
            #expect(!logs.all.contains { $0.hasPrefix("error") || $0.hasPrefix("critical") }, "\(name): \(logs.all)")
            #expect(try await client.send(.get, "/v1/clients", token: token).listItems.isEmpty, "\(name): nothing was created")
        }
    }

    @Test func aBodyThatIsNoObjectOrNestsTooDeepIsTheSame400OnEveryRoute() async throws {
        try await withAPI { fixture, client in
            let admin = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            let token = try await client.token(for: admin)
            let id = try await client.createClient(given: "Ada", family: nil, token: token)
            let routes: [(HTTPRequest.Method, String)] = [
                (.post, "/v1/clients"), (.patch, "/v1/clients/\(id)"), (.patch, "/v1/company"), (.put, "/v1/theme"),
                (.post, "/v1/clients/\(id)/results"), (.post, "/v1/clients/\(id)/screenings"), (.post, "/v1/exercise-packs"),
                (.post, "/v1/exercises/push-ups/score"), (.post, "/v1/clients/\(id)/report/email"), (.post, "/v1/trainers"),
                (.patch, "/v1/trainers/\(admin.trainer.id)"), (.post, "/v1/auth/login"),
            ]
            let deep = String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600)
            for (method, path) in routes {
                for body in ["[]", #""text""#, "12", deep] {
                    let response = try await client.send(method, path, token: token, json: body)
                    #expect(response.status == .badRequest, "\(method) \(path) \(body.prefix(12)): \(response.text)")
                    #expect(response.object["type"] as? String == "urn:healthwheel:problem:malformed", "\(method) \(path)")
                }
            }
        }
    }
}
