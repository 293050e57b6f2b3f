import Foundation
import TestSupport
import Testing

@testable import API

/// `ConnectionGuard`: a request's head must arrive within its deadline however it trickles in, and at the cap on
/// connections a new client gets in by closing the connection that has waited longest for a request.
@Suite(.storeIndependent) struct ConnectionLimitTests {
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
            // Closed, not timed out: the trickle outlasts the deadline, and the idle timeout is a minute away.
            await #expect(throws: RawHTTPConnection.Failure.closed("")) { try await connection.receive(until: "\r\n\r\n") }
            trickle.cancel()
        }
    }

    /// Three requests 2 s apart on one connection, 6 s in all, with a 5 s deadline: it counts from each response.
    /// (Wide margins: the suite runs dozens of servers at once on two cores.)
    @Test func theDeadlineStartsAgainAfterEachResponse() async throws {
        try await withAPI(headDeadline: .seconds(5)) { _, client in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            for _ in 0..<3 {
                try await connection.send(Self.health)
                #expect(try await connection.receive(until: "\"ok\"").hasPrefix("HTTP/1.1 200 OK"))
                try await Task.sleep(for: .seconds(2))
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
                // A head whose body is still to come: the connection is busy with a request. Its `100 Continue`
                // says the server has read the head.
                try await connection.send(
                    "POST /v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 60\r\n"
                        + "Expect: 100-continue\r\n\r\n"
                )
                #expect(try await connection.receive(until: "\r\n\r\n").hasPrefix("HTTP/1.1 100 Continue"))
                busy.append(connection)
            }
            // Closed at once: the request cannot even be sent, or its answer is the close.
            let turnedAway = try RawHTTPConnection(port: port)
            var refusal: RawHTTPConnection.Failure?
            do {
                try await turnedAway.send(Self.health)
                _ = try await turnedAway.receive(until: "\r\n")
            } catch let failure as RawHTTPConnection.Failure {
                refusal = failure
            }
            #expect(refusal == .closed("") || refusal == .system("send"), "\(String(describing: refusal))")
            // Once a busy one ends (as soon as the server has seen it close), there is room again.
            busy[0].close()
            var answered = false
            for _ in 0..<50 where !answered {
                try await Task.sleep(for: .milliseconds(100))
                let later = try RawHTTPConnection(port: port)
                guard (try? await later.send(Self.health)) != nil else { continue }
                let answer = try? await later.receive(until: "\"ok\"")
                answered = answer?.hasPrefix("HTTP/1.1 200 OK") == true
            }
            #expect(answered)
        }
    }
}
