import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Mail
import Reports
import Services
import Synchronization
import TestSupport
import Testing

@testable import API

/// Emailing reports, delivered to a real SMTP server (aiosmtpd) through libcurl: the message as a mail client
/// reads it, permanent and temporary failures, a restart with mail still queued, the daily limit, and the
/// offline default that writes `.eml` files.
@Suite(.serialized) struct EmailAPITests {
    /// A trainer of a company whose name needs RFC 2047, and a screened client with an email and two results.
    struct Setup {
        let token: String
        let client: String
        let trainer: Fixture.Account
    }

    func setup(_ fixture: Fixture, _ client: some TestClientProtocol, email: String? = "sam@example.com") async throws -> Setup {
        let account = try await fixture.trainer(in: try await fixture.company("Fisioterapia Peña"), name: "Ana Trainer")
        let token = try await client.token(for: account)
        let id = try await client.screenedClient(ResultsTests.sam, token: token)
        if let email { _ = try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"email": "\#(email)"}"#) }
        try await WheelTests.record(client, id, token: token, ResultsTests.heartRate(72, extra: #", "recordedAt": "2027-01-01T09:00:00Z""#))
        try await WheelTests.record(client, id, token: token, ResultsTests.heartRate(60, extra: #", "observations": "Calmer""#))
        return Setup(token: token, client: id, trainer: account)
    }

    static func smtp(_ sink: SMTPSink, user: String? = "healthwheel", password: String? = "s3cret-pass") -> @Sendable (Fixture) -> MailSettings {
        { fixture in
            // The sink is on loopback, where the server does not require TLS either (MailEnvironment).
            var smtp = SMTPSettings(url: sink.url, user: user, password: password, from: "reports@healthwheel.test")
            smtp.startTLS = .optional
            var settings = MailSettings(
                route: .smtp(smtp),
                from: "reports@healthwheel.test"
            )
            settings.tick = .milliseconds(50)
            return settings
        }
    }

    func email(_ client: some TestClientProtocol, _ setup: Setup, _ json: String = "{}", key: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let key { headers[IdempotentRequests.header] = key }
        return try await client.send(.post, "/v1/clients/\(setup.client)/report/email", token: setup.token, json: json, headers: headers)
    }

    /// Up to a minute of polls, 50 ms apart: time enough for a slow, loaded test machine.
    static let polls = 0..<1_200

    /// Polls the delivery until it is `status` (a minute at most) and returns it.
    func delivery(_ client: some TestClientProtocol, _ id: String, token: String, becomes status: String) async throws -> [String: Any] {
        var last: [String: Any] = [:]
        for _ in Self.polls {
            last = try await client.send(.get, "/v1/deliveries/\(id)", token: token).object
            if last["status"] as? String == status { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("delivery \(id) is \(last["status"] ?? "?"), not \(status): \(last)")
        return last
    }

    @Test func aReportEmailReachesTheSMTPServerAsAMailClientReadsIt() async throws {
        let sink = try SMTPSink()
        try await withAPI(mail: Self.smtp(sink)) { fixture, client in
            let setup = try await self.setup(fixture, client)
            let response = try await email(client, setup, #"{"cc": ["coach@example.com"], "message": "Well done, Sam!\nKeep going.", "lang": "es"}"#)
            #expect(response.status == .accepted)
            let id = try #require(response.object["id"] as? String)
            #expect(response.headers[.location] == "/v1/deliveries/\(id)")
            #expect(response.object["status"] as? String == "queued")
            #expect(response.object["to"] as? [String] == ["sam@example.com"])
            let sent = try await delivery(client, id, token: setup.token, becomes: "sent")
            #expect(sent["attempts"] as? Int == 1 && sent["sentAt"] is String && sent["lastError"] is NSNull)

            let message = try #require(try sink.received().first)
            #expect(message["login"] as? String == "healthwheel", "the server was logged in to with the configured user")
            #expect(message["mailFrom"] as? String == "reports@healthwheel.test")
            #expect(message["rcptTos"] as? [String] == ["sam@example.com", "coach@example.com"])
            #expect(message["from"] as? String == "Fisioterapia Peña <reports@healthwheel.test>", "the company's name, RFC 2047 encoded")
            #expect(message["replyTo"] as? String == "Ana Trainer <\(setup.trainer.email)>")
            #expect(message["subject"] as? String == "Fisioterapia Peña: tu informe de progreso")
            #expect((message["messageId"] as? String)?.hasPrefix("<\(id.lowercased())@healthwheel.test>") == true)
            #expect(
                message["structure"] as? [String] == [
                    "multipart/mixed", "multipart/alternative", "text/plain", "multipart/related", "text/html", "image/png", "image/png",
                    "application/pdf",
                ]
            )
            #expect((message["defects"] as? [Any])?.isEmpty == true, "Python's parser found no defect")
            #expect((message["longestLine"] as? Int ?? 999) <= 78 && message["bareLineFeeds"] as? Int == 0)

            let plain = try #require(message.part("text/plain")?["text"] as? String)
            #expect(plain.contains("Hola, Sam Okafor:") && plain.contains("Well done, Sam!") && plain.contains("Informe de progreso"))
            let html = try #require(message.part("text/html")?["text"] as? String)
            #expect(html.contains("<p style=\"margin:0 0 10px 0;\">Keep going.</p>"))
            let cids = html.components(separatedBy: "src=\"cid:").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            #expect(Set(cids) == ["wheel@report", "trend-resting-heart-rate@report"])
            #expect(!html.contains("data:") && !html.contains("http://") && !html.contains("https://"))
            let pictures = message.parts.filter { $0["contentType"] as? String == "image/png" }
            #expect(Set(pictures.compactMap { $0["contentId"] as? String }) == Set(cids.map { "<\($0)>" }), "every cid: the HTML shows is a part")
            #expect(pictures.allSatisfy { $0["head"] as? String == "89504e470d0a1a0a" && $0["disposition"] as? String == "inline" })
            let pdf = try #require(message.part("application/pdf"))
            #expect((pdf["head"] as? String)?.hasPrefix("255044462d") == true, "%PDF-")
            #expect(pdf["disposition"] as? String == "attachment" && (pdf["filename"] as? String)?.hasSuffix(".pdf") == true)

            let list = try await client.send(.get, "/v1/clients/\(setup.client)/deliveries", token: setup.token).object
            #expect((list["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
        }
    }

    @Test func aPermanentRefusalEndsAsFailedAfterOneAttempt() async throws {
        let sink = try SMTPSink()
        try await withAPI(mail: Self.smtp(sink)) { fixture, client in
            let setup = try await self.setup(fixture, client, email: "bounce@example.com")
            let id = try #require(try await email(client, setup).object["id"] as? String)
            let failed = try await delivery(client, id, token: setup.token, becomes: "failed")
            #expect(failed["attempts"] as? Int == 1)
            #expect((failed["lastError"] as? String)?.contains("550") == true)
            #expect(failed["nextAttemptAt"] is NSNull && failed["sentAt"] is NSNull)
            #expect(try sink.received().isEmpty)
        }
    }

    @Test func aDroppedConnectionIsTriedAgainAfterAMinuteAndThenDelivered() async throws {
        let sink = try SMTPSink()
        try await withAPI(mail: Self.smtp(sink)) { fixture, client in
            let setup = try await self.setup(fixture, client, email: "flaky@example.com")
            let accepted = fixture.clock.now
            let id = try #require(try await email(client, setup).object["id"] as? String)
            var queued: [String: Any] = [:]
            for _ in Self.polls {
                queued = try await client.send(.get, "/v1/deliveries/\(id)", token: setup.token).object
                if queued["attempts"] as? Int == 1 && queued["status"] as? String == "queued" { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(queued["status"] as? String == "queued" && queued["lastError"] is String)
            #expect(queued["nextAttemptAt"] as? String == RFC3339.string(from: accepted.addingTimeInterval(60)), "the first wait is one minute")
            #expect(try sink.received().isEmpty)
            fixture.clock.advance(by: 61)
            let sent = try await delivery(client, id, token: setup.token, becomes: "sent")
            #expect(sent["attempts"] as? Int == 2)
            #expect(try sink.received().count == 1)
        }
    }

    @Test func mailStillQueuedWhenTheServerStopsIsDeliveredAfterItStartsAgain() async throws {
        let sink = try SMTPSink()
        let fixture = try Fixture()
        let nobody: @Sendable (Fixture) -> MailSettings = { _ in
            var settings = MailSettings(
                route: .smtp(SMTPSettings(url: "smtp://127.0.0.1:9", from: "reports@healthwheel.test")),
                from: "reports@healthwheel.test"
            )
            settings.tick = .milliseconds(50)
            return settings
        }
        let queued = Mutex<(String, String)?>(nil)
        // First run: the mail server is unreachable, so the email waits in the outbox.
        try await withAPI(fixture: fixture, mail: nobody) { fixture, client in
            let setup = try await self.setup(fixture, client)
            let id = try #require(try await email(client, setup).object["id"] as? String)
            for _ in Self.polls {
                if try await client.send(.get, "/v1/deliveries/\(id)", token: setup.token).object["attempts"] as? Int == 1 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            queued.withLock { $0 = (id, setup.token) }
        }
        let (id, token) = try #require(queued.withLock { $0 })
        fixture.clock.advance(by: 61)
        // Second run on the same file, with a working mail server.
        try await withAPI(fixture: fixture, mail: Self.smtp(sink)) { fixture, client in
            let sent = try await delivery(client, id, token: token, becomes: "sent")
            #expect(sent["attempts"] as? Int == 2)
            #expect((try sink.received().first?["rcptTos"] as? [String]) == ["sam@example.com"])
        }
    }

    @Test func withoutASMTPServerTheMessageIsWrittenAsAnEmlFileAndCountsAsSent() async throws {
        try await withAPI { fixture, client in
            let setup = try await self.setup(fixture, client)
            let id = try #require(try await email(client, setup).object["id"] as? String)
            _ = try await delivery(client, id, token: setup.token, becomes: "sent")
            let file = fixture.folder.url.appendingPathComponent("outbox/\(id.lowercased()).eml")
            let eml = try String(contentsOf: file, encoding: .utf8)
            #expect(eml.contains("Content-Type: multipart/mixed") && eml.contains("To: <sam@example.com>"))
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "the message holds health data: readable by its owner only")
        }
    }

    @Test func badRequestsAreNamedAndStoreNothing() async throws {
        try await withAPI { fixture, client in
            let setup = try await self.setup(fixture, client, email: nil)
            let path = "/v1/clients/\(setup.client)/report/email"
            expectProblem(try await email(client, setup), .conflict, fields: ["to"])
            expectProblem(
                try await email(client, setup, #"{"to": ["ok@example.com", "not an address"], "cc": "x@y"}"#),
                .unprocessableContent,
                fields: ["to[1]", "cc[0]"]
            )
            expectProblem(try await email(client, setup, #"{"to": "a@example.com", "status": "sent"}"#), .unprocessableContent, fields: ["status"])
            expectProblem(try await email(client, setup, #"{"to": "a@example.com", "id": "x"}"#), .unprocessableContent, fields: ["id"])
            expectProblem(
                try await email(client, setup, #"{"to": "a@example.com", "period": {"from": "2027-02-01", "to": "2027-01-01", "x": "1"}}"#),
                .unprocessableContent,
                fields: ["period.x"]
            )
            expectProblem(
                try await email(client, setup, #"{"to": "a@example.com", "period": {"from": "2027-02-01", "to": "2027-01-01"}}"#),
                .unprocessableContent,
                fields: ["period.to"]
            )
            // At most ten addresses in each list, named where the surplus is.
            let addresses = (0..<11).map { "\"r\($0)@example.com\"" }
            let eleven = "[\(addresses.joined(separator: ","))]"
            expectProblem(try await email(client, setup, #"{"to": \#(eleven)}"#), .unprocessableContent, fields: ["to"])
            expectProblem(try await email(client, setup, #"{"to": \#(eleven), "cc": \#(eleven)}"#), .unprocessableContent, fields: ["to", "cc"])
            expectProblem(try await email(client, setup, #"{"to": "a@example.com", "lang": "fr"}"#), .unprocessableContent, fields: ["lang"])
            expectProblem(try await email(client, setup, #"{"to": "a@example.com", "units": "cubits"}"#), .unprocessableContent, fields: ["units"])
            let long = String(repeating: "a", count: 5_001)
            expectProblem(
                try await email(client, setup, #"{"to": "a@example.com", "message": "\#(long)"}"#),
                .unprocessableContent,
                fields: ["message"]
            )
            let many = (0..<11).map { "\"c\($0)@example.com\"" }.joined(separator: ",")
            expectProblem(try await email(client, setup, #"{"to": "a@example.com", "cc": [\#(many)]}"#), .unprocessableContent, fields: ["cc"])
            let plain = try await client.send(.post, path, token: setup.token, json: "{}", headers: [.contentType: "text/plain"])
            #expect(plain.status == .unsupportedMediaType)
            let list = try await client.send(.get, "/v1/clients/\(setup.client)/deliveries", token: setup.token).object
            #expect((list["items"] as? [Any])?.isEmpty == true, "no refused request left a delivery behind")
        }
    }

    @Test func aClientAddressMailCannotCarryIsNamedAndQueuesNothing() async throws {
        try await withAPI { fixture, client in
            // Client records accept international addresses; SMTP headers here carry plain ASCII only.
            let setup = try await self.setup(fixture, client, email: "josé@example.com")
            let stored = try await client.send(.get, "/v1/clients/\(setup.client)", token: setup.token).object
            #expect(stored["email"] as? String == "josé@example.com")
            expectProblem(try await email(client, setup), .conflict, fields: ["to"])
            let list = try await client.send(.get, "/v1/clients/\(setup.client)/deliveries", token: setup.token).object
            #expect((list["items"] as? [Any])?.isEmpty == true)
            // Naming an address the trainer knows works.
            #expect(try await email(client, setup, #"{"to": ["jose@example.com"]}"#).status == .accepted)
        }
    }

    @Test func aRetriedPostWithTheSameKeySendsOneEmail() async throws {
        try await withAPI { fixture, client in
            let setup = try await self.setup(fixture, client)
            let first = try await email(client, setup, key: "email-1")
            let again = try await email(client, setup, key: "email-1")
            #expect(first.status == .accepted && again.status == .accepted)
            #expect(again.headers[IdempotentRequests.replayedHeader] == "true")
            #expect(first.object["id"] as? String == again.object["id"] as? String)
            let list = try await client.send(.get, "/v1/clients/\(setup.client)/deliveries", token: setup.token).object
            #expect((list["items"] as? [Any])?.count == 1)
        }
    }

    @Test func aCompanyOverItsDailyLimitIsToldWhenToTryAgain() async throws {
        let limited: @Sendable (Fixture) -> MailSettings = { fixture in
            var settings = fixture.outbox
            settings.dailyLimit = 2
            return settings
        }
        try await withAPI(mail: limited) { fixture, client in
            let setup = try await self.setup(fixture, client)
            #expect(try await email(client, setup).status == .accepted)
            fixture.clock.advance(by: 3_600)
            #expect(try await email(client, setup).status == .accepted)
            let refused = try await email(client, setup)
            expectProblem(refused, .tooManyRequests)
            #expect(refused.headers[.retryAfter] == String(86_400 - 3_600), "the oldest email of the day leaves the window then")
            // Another company has its own allowance.
            let other = try await self.setup(fixture, client)
            #expect(try await email(client, other).status == .accepted)
            fixture.clock.advance(by: 86_400 - 3_600 + 1)
            // A day on, the login has expired too.
            let nextDay = Setup(token: try await client.token(for: setup.trainer), client: setup.client, trainer: setup.trainer)
            let later = try await email(client, nextDay)
            #expect(later.status == .accepted, "\(later.text)")
            let list = try await client.send(.get, "/v1/clients/\(setup.client)/deliveries?limit=2", token: nextDay.token).object
            #expect((list["items"] as? [Any])?.count == 2 && list["nextCursor"] is String, "three accepted, one refused, listed in pages")
        }
    }

    @Test func anotherCompanysTrainerFindsNoClientAndNoDelivery() async throws {
        try await withAPI { fixture, client in
            let setup = try await self.setup(fixture, client)
            let id = try #require(try await email(client, setup).object["id"] as? String)
            let stranger = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let post = try await client.send(.post, "/v1/clients/\(setup.client)/report/email", token: stranger, json: #"{"to": "x@example.com"}"#)
            expectProblem(post, .notFound)
            expectProblem(try await client.send(.get, "/v1/deliveries/\(id)", token: stranger), .notFound)
            expectProblem(try await client.send(.get, "/v1/clients/\(setup.client)/deliveries", token: stranger), .notFound)
        }
    }
}
