import Foundation
import Testing

@testable import API

/// `ConnectionGuard`: a request's head must arrive within its deadline however it trickles in, and at the cap on
/// connections a new client gets in by closing the connection that has waited longest for a request.
@Suite struct ConnectionLimitTests {
    static let health = "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"

    @Test func aHeadTrickledInIsCutAtItsDeadline() async throws {
        try await withAPI(headDeadline: .seconds(1)) { _, client in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            try await connection.send("GET /health HTTP/1.1\r\n")
            // A header line every 200 ms: never idle, never done.
            let trickle = Task {
                for number in 0..<50 {
                    try await Task.sleep(for: .milliseconds(200))
                    try await connection.send("X-Trickle-\(number): x\r\n")
                }
            }
            let started = ContinuousClock.now
            await #expect(throws: RawHTTPConnection.Failure.closed("")) { try await connection.receive(until: "\r\n\r\n") }
            #expect(ContinuousClock.now - started < .seconds(9), "closed by the deadline, not by the read timeout")
            trickle.cancel()
        }
    }

    @Test func theDeadlineStartsAgainAfterEachResponse() async throws {
        try await withAPI(headDeadline: .seconds(1)) { _, client in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            for _ in 0..<3 {
                try await connection.send(Self.health)
                #expect(try await connection.receive(until: "\"ok\"").hasPrefix("HTTP/1.1 200 OK"))
                try await Task.sleep(for: .milliseconds(600))
            }
        }
    }

    @Test func atTheCapTheConnectionWaitingLongestMakesRoom() async throws {
        try await withAPI(maxConnections: 3) { _, client in
            let port = try #require(client.port)
            var idle: [RawHTTPConnection] = []
            for _ in 0..<3 {
                idle.append(try RawHTTPConnection(port: port))
                try await Task.sleep(for: .milliseconds(50))
            }
            let newcomer = try RawHTTPConnection(port: port)
            try await newcomer.send(Self.health)
            #expect(try await newcomer.receive(until: "\"ok\"").hasPrefix("HTTP/1.1 200 OK"))
            // The first to open, waiting longest, was closed to make room; the others still answer.
            await #expect(throws: RawHTTPConnection.Failure.closed("")) { try await idle[0].receive(until: "\r\n") }
            try await idle[2].send(Self.health)
            #expect(try await idle[2].receive(until: "\"ok\"").hasPrefix("HTTP/1.1 200 OK"))
        }
    }

    @Test func atTheCapWithEveryConnectionBusyANewOneIsTurnedAway() async throws {
        try await withAPI(maxConnections: 2) { _, client in
            let port = try #require(client.port)
            var busy: [RawHTTPConnection] = []
            for _ in 0..<2 {
                let connection = try RawHTTPConnection(port: port)
                // A head whose body is still to come: the connection is busy with a request.
                try await connection.send(
                    "POST /v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n"
                )
                busy.append(connection)
            }
            try await Task.sleep(for: .milliseconds(200))
            let turnedAway = try RawHTTPConnection(port: port)
            await #expect(throws: RawHTTPConnection.Failure.closed("")) {
                try await turnedAway.send(Self.health)
                _ = try await turnedAway.receive(until: "\r\n")
            }
            // Once a busy one ends, there is room again.
            busy[0].close()
            try await Task.sleep(for: .milliseconds(200))
            let later = try RawHTTPConnection(port: port)
            try await later.send(Self.health)
            #expect(try await later.receive(until: "\"ok\"").hasPrefix("HTTP/1.1 200 OK"))
        }
    }
}
