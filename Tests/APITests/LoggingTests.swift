import Foundation
import HTTPTypes
import HealthwheelCore
import Testing

@testable import API

@Suite struct LoggingTests {
    @Test func logsNeverHoldPasswordsOrTokensAndAlwaysHoldTheRequestId() async throws {
        let logs = LogRecorder()
        try await withAPI(logs: logs) { fixture, client in
            let admin = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            _ = try await client.login(admin.email, "a wrong password guess")
            let token = try await client.token(for: admin)
            let newPassword = "the new trainer's password"
            let body = jsonString(["email": "new@example.com", "name": "New", "role": "trainer", "password": newPassword])
            #expect(try await client.send(.post, "/v1/trainers", token: token, json: body).status == .created)
            _ = try await client.send(.get, "/v1/me", token: token, headers: [HTTPField.Name("X-Request-Id")!: "trace-42"])

            let lines = logs.all
            #expect(lines.count >= 4)
            for secret in [admin.password, "a wrong password guess", token, newPassword] {
                #expect(!lines.contains { $0.contains(secret) }, "a log line holds a secret")
            }
            let requestLines = lines.filter { $0.contains(" GET ") || $0.contains(" POST ") || $0.contains("login") }
            #expect(!requestLines.isEmpty)
            #expect(requestLines.allSatisfy { $0.contains("hb.request.id=") })
            #expect(lines.contains { $0.contains("GET /v1/me 200") && $0.contains("hb.request.id=trace-42") })
        }
    }
}
