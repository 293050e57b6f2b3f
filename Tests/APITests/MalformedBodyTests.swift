import Foundation
import HTTPTypes
import TestSupport
import Testing

@testable import API

/// A body that breaks HTTP/1.1 framing is the client's mistake: a 400 problem, logged as nothing worse than the
/// request line, with the server answering the next connection.
@Suite(.storeIndependent) struct MalformedBodyTests {
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

    /// A body trickled at a few bytes a second is never idle, so only the rate guard ends it: here with a
    /// one-second window (10 s in production), the connection is closed within a few windows and stores nothing;
    /// the same body sent at once goes through.
    @Test func aBodyTrickledInIsCutOffAndOneSentAtOnceIsNot() async throws {
        try await withAPI(bodyRateWindow: .seconds(1)) { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let body = #"{"givenName": "\#(String(repeating: "a", count: 150))"}"#
            let head =
                "POST /v1/clients HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            let slow = try RawHTTPConnection(port: try #require(client.port))
            try await slow.send(head)
            let started = ContinuousClock.now
            var closed = false
            for character in body {
                do {
                    try await slow.send(String(character))
                } catch {
                    closed = true
                    break
                }
                try await Task.sleep(for: .milliseconds(100))
                if ContinuousClock.now - started > .seconds(30) { break }
            }
            if !closed {
                // Every byte went out before the cut: what answers is the closed connection, never a 201.
                let answer = try? await slow.receive(until: "\r\n\r\n")
                #expect(answer == nil, "the trickled request was answered: \(answer ?? "")")
            }
            #expect(try await client.send(.get, "/v1/clients", token: token).listItems.isEmpty, "nothing was stored")

            let quick = try RawHTTPConnection(port: try #require(client.port))
            try await quick.send(head + body)
            #expect(try await quick.receive(until: "\r\n\r\n").hasPrefix("HTTP/1.1 201 Created"))
        }
    }
}
