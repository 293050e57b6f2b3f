import Foundation
import Synchronization
import TestSupport
import Testing

@testable import API

/// `Expect: 100-continue`: the server says `100 Continue` before the body is sent, as RFC 9110 §10.1.1 asks,
/// instead of leaving the client waiting (curl waits a second before sending anyway).
@Suite(.storeIndependent) struct ExpectContinueTests {
    @Test func aRequestThatExpectsContinueHearsItBeforeSendingItsBody() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let account = try await fixture.trainer(in: company)
            let port = try #require(client.port)
            let body = #"{"email":"\#(account.email)","password":"\#(account.password)"}"#
            let connection = try RawHTTPConnection(port: port)
            try await connection.send(
                "POST /v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nExpect: 100-Continue\r\n\r\n"
            )
            // Nothing of the body has been sent: the only thing the server can answer now is the interim response.
            let interim = try await connection.receive(until: "\r\n\r\n")
            #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"))
            try await connection.send(body)
            let final = try await connection.receive(until: "}")
            #expect(final.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(final.contains(#""token":"#))
        }
    }

    @Test func aRequestWithoutTheExpectationGetsOnlyItsResponse() async throws {
        try await withAPI { _, client in
            let connection = try RawHTTPConnection(port: try #require(client.port))
            try await connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let response = try await connection.receive(until: "\r\n\r\n")
            #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }

    @Test(arguments: ["100-continue", "100-Continue", " 100-continue ", "foo, 100-continue"])
    func theExpectationIsReadCaseInsensitivelyAmongOthers(_ value: String) {
        #expect(ExpectContinueHandler.expectsContinue([.expect: value]))
    }

    @Test func otherExpectationsAreLeftAlone() {
        #expect(!ExpectContinueHandler.expectsContinue([.expect: "200-ok"]))
        #expect(!ExpectContinueHandler.expectsContinue([:]))
    }
}

/// A plain TCP connection to the test server, for what an HTTP client library hides (interim responses).
/// Reads give up after 30 s, so a server that never answers fails the test instead of hanging it (long enough for a
/// login, four password hashes, queued behind the hashing of every test running meanwhile). The blocking
/// socket calls run on threads of their own: on the cooperative pool they would hold a thread the server in this
/// same process needs to answer them, and on NIO's thread pool they would wait behind the password hashing of
/// every test running meanwhile.
final class RawHTTPConnection: Sendable {
    private let socket: Int32
    private let closed = Mutex(false)

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure.system("socket") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(socket)
            throw Failure.system("connect")
        }
    }

    deinit { close() }

    /// Closes the connection, as a client that gives up does.
    func close() {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        Glibc.close(socket)
    }

    func send(_ text: String) async throws {
        try await Self.blocking { try self.sendBlocking(text) }
    }

    /// Everything received up to and including the first `marker`.
    func receive(until marker: String) async throws -> String {
        try await Self.blocking { try self.receiveBlocking(until: marker) }
    }

    /// Runs `work` on a thread that may block.
    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    private func sendBlocking(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure.system("send") }
            sent += count
        }
    }

    private func receiveBlocking(until marker: String) throws -> String {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains(marker) {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            // A close is an end of stream, or a reset when the server closed with our request still unread.
            if count == 0 || (count < 0 && errno == ECONNRESET) { throw Failure.closed(String(decoding: received, as: UTF8.self)) }
            guard count > 0 else { throw Failure.timedOut(String(decoding: received, as: UTF8.self)) }
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    enum Failure: Error, Equatable {
        case system(String)
        /// The server closed (or reset) the connection; what it sent before.
        case closed(String)
        /// Nothing arrived for 30 seconds; what arrived before.
        case timedOut(String)
    }
}
