import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Services
import TestSupport
import Testing
import Webhooks

@testable import API

/// Signed webhooks end to end: an admin registers an HTTPS endpoint, events reach a real receiver
/// (`Tests/WebhookReceiver`, whose `standardwebhooks` package checks every signature), failures are retried on the
/// schedule, a 410 turns the endpoint off, secrets rotate with both signing, deliveries replay, and the server's
/// own network is never reached.
@Suite struct WebhookEndpointsTests {
    /// The receiver runs on loopback, which the default policy refuses: these tests allow it, as an operator may
    /// allow a range of their own, and trust the receiver's certificate.
    static func settings(_ receiver: WebhookReceiver) -> WebhookSettings {
        var settings = WebhookSettings()
        settings.poster = WebhookPosterSettings(
            policy: WebhookAddressPolicy(allowed: [IPRange("127.0.0.1/32")!, IPRange("::1/128")!]),
            caFile: receiver.certificate
        )
        settings.tick = .milliseconds(50)
        return settings
    }

    /// Waits (a minute at most, looking every 50 ms) until the receiver's requests satisfy `done`.
    static func received(
        _ receiver: WebhookReceiver,
        until done: ([WebhookReceiver.Request]) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [WebhookReceiver.Request] {
        var requests: [WebhookReceiver.Request] = []
        for _ in 0..<1_200 {
            requests = try receiver.requests()
            if done(requests) { return requests }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the receiver has \(requests.count) requests: \(requests.map(\.body))", sourceLocation: sourceLocation)
        return requests
    }

    /// Waits until the endpoint's delivery log satisfies `done`, and returns it.
    static func log(
        _ client: some TestClientProtocol,
        _ endpoint: String,
        token: String,
        until done: ([[String: Any]]) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        for _ in 0..<1_200 {
            items = try await client.send(.get, "/v1/webhooks/\(endpoint)/deliveries", token: token).object["items"] as? [[String: Any]] ?? []
            if done(items) { return items }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the delivery log is \(items)", sourceLocation: sourceLocation)
        return items
    }

    static func events(_ requests: [WebhookReceiver.Request]) -> [String] {
        requests.compactMap { request in
            (try? JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any])?["type"] as? String
        }
    }

    struct Registered {
        var id: String
        var secret: String
    }

    static func register(
        _ client: some TestClientProtocol,
        token: String,
        url: String,
        events: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Registered {
        let body = jsonString(["url": url, "events": events])
        let response = try await client.send(.post, "/v1/webhooks", token: token, json: body)
        #expect(response.status == .created, "\(response.text)", sourceLocation: sourceLocation)
        return Registered(
            id: try #require(response.object["id"] as? String, sourceLocation: sourceLocation),
            secret: try #require(response.object["secret"] as? String, sourceLocation: sourceLocation)
        )
    }

    @Test func eventsReachTheReceiverSignedAndCarryNoHealthData() async throws {
        let receiver = try WebhookReceiver(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        try await withAPI(webhooks: Self.settings(receiver)) { fixture, client in
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let events = [
                "client.created", "screening.completed", "result.recorded", "result.corrected", "result.deleted", "report.emailed",
                "report.delivered",
            ]
            let endpoint = try await Self.register(client, token: admin, url: receiver.url("/ok"), events: events)
            #expect(endpoint.secret.hasPrefix("whsec_"))
            try receiver.trust(secrets: [endpoint.secret])
            // Shown once: never in a later answer.
            let shown = try await client.send(.get, "/v1/webhooks/\(endpoint.id)", token: admin)
            #expect(shown.status == .ok && shown.object["secret"] == nil && shown.object["enabled"] as? Bool == true)
            #expect(!shown.text.contains(endpoint.secret))

            let id = try await client.screenedClient(token: admin)
            let recorded = try await client.send(.post, "/v1/clients/\(id)/results", token: admin, json: ResultsTests.heartRate(58))
            let result = try #require(recorded.object["id"] as? String)
            #expect(try await client.send(.patch, "/v1/results/\(result)", token: admin, json: #"{"values": {"heartRate": 57}}"#).status == .ok)
            #expect(try await client.send(.delete, "/v1/results/\(result)", token: admin).status == .noContent)
            let emailed = try await client.send(.post, "/v1/clients/\(id)/report/email", token: admin, json: #"{"to": ["coach@example.com"]}"#)
            #expect(emailed.status == .accepted)

            let requests = try await Self.received(receiver) { Self.events($0).contains("report.delivered") && $0.count >= 7 }
            #expect(
                Set(Self.events(requests)) == Set(events),
                "every subscribed event arrived: \(Self.events(requests))"
            )
            #expect(requests.allSatisfy { $0.verified && $0.verifiedWith == [endpoint.secret] }, "signed with the endpoint's secret")
            for request in requests {
                #expect(request.headers["webhook-id"]?.hasPrefix("msg_") == true)
                #expect(request.headers["content-type"] == "application/json")
                // Ids only: nothing of the client's record or of the result's values.
                for health in ["Ada", "Lovelace", "heartRate", "coach@example.com"] {
                    #expect(!request.body.contains(health), "\(request.body)")
                }
            }
            let recordedEvent = try #require(
                requests.first { Self.events([$0]) == ["result.recorded"] }.flatMap {
                    try JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [String: Any]
                }
            )
            let data = try #require(recordedEvent["data"] as? [String: Any])
            #expect(data["kind"] as? String == "result" && (data["id"] as? String)?.lowercased() == result.lowercased())
            #expect((data["clientId"] as? String)?.lowercased() == id.lowercased())

            // The log: each delivered, answered 204, once.
            let log = try await Self.log(client, endpoint.id, token: admin) { log in
                log.count == requests.count && log.allSatisfy { $0["status"] as? String != "sending" }
            }
            #expect(log.allSatisfy { $0["status"] as? String == "delivered" && $0["lastStatus"] as? Int == 204 && $0["attempts"] as? Int == 1 })
            #expect(Set(log.compactMap { $0["messageId"] as? String }) == Set(requests.compactMap { $0.headers["webhook-id"] }))
        }
    }

    @Test func failuresAreTriedAgainOnScheduleAndAGoneReceiverTurnsTheEndpointOff() async throws {
        let receiver = try WebhookReceiver(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        try await withAPI(webhooks: Self.settings(receiver)) { fixture, client in
            let admin = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let flaky = try await Self.register(client, token: admin, url: receiver.url("/flaky"), events: ["client.created"])
            let busy = try await Self.register(client, token: admin, url: receiver.url("/busy"), events: ["client.created"])
            let gone = try await Self.register(client, token: admin, url: receiver.url("/gone"), events: ["client.created"])
            let redirect = try await Self.register(client, token: admin, url: receiver.url("/redirect"), events: ["client.created"])
            let sent = fixture.clock.now
            _ = try await client.createClient(given: "Lina", family: "Marsh", token: admin)

            // A 500: again after 5 s (±10 %).
            let first = try #require(try await Self.log(client, flaky.id, token: admin) { $0.first?["lastStatus"] as? Int == 500 }.first)
            #expect(first["status"] as? String == "queued" && first["attempts"] as? Int == 1)
            let next = try #require((first["nextAttemptAt"] as? String).flatMap(RFC3339.date(from:)))
            // Times are shown in whole seconds: 4.5–5.5 s shows as 4 or 5.
            #expect((4...5).contains(next.timeIntervalSince(sent)), "\(next.timeIntervalSince(sent)) s")
            // A 503 with Retry-After: 120 waits the 120 s it asked for.
            let waiting = try #require(try await Self.log(client, busy.id, token: admin) { $0.first?["lastStatus"] as? Int == 503 }.first)
            let asked = try #require((waiting["nextAttemptAt"] as? String).flatMap(RFC3339.date(from:)))
            #expect(asked.timeIntervalSince(sent) == 120)
            // A redirect is not followed: a failure, tried again later.
            let redirected = try #require(try await Self.log(client, redirect.id, token: admin) { $0.first?["lastStatus"] as? Int == 302 }.first)
            #expect(redirected["status"] as? String == "queued")
            // A 410 turns the endpoint off, saying why.
            _ = try await Self.log(client, gone.id, token: admin) { $0.first?["status"] as? String == "failed" }
            let off = try await client.send(.get, "/v1/webhooks/\(gone.id)", token: admin).object
            #expect(off["enabled"] as? Bool == false)
            #expect((off["disabledReason"] as? String)?.contains("410") == true)

            fixture.clock.advance(by: 6)
            let delivered = try #require(try await Self.log(client, flaky.id, token: admin) { $0.first?["status"] as? String == "delivered" }.first)
            #expect(delivered["attempts"] as? Int == 2 && delivered["lastStatus"] as? Int == 204)
            let flakyRequests = try receiver.requests().filter { $0.path == "/flaky" }
            #expect(flakyRequests.count == 2 && Set(flakyRequests.compactMap { $0.headers["webhook-id"] }).count == 1, "the same message again")
            // Nothing more reaches the endpoint that is off.
            _ = try await client.createClient(given: "Noor", family: "Haddad", token: admin)
            _ = try await Self.log(client, flaky.id, token: admin) { $0.count == 2 }
            #expect(try receiver.requests().filter { $0.path == "/gone" }.count == 1)
            #expect(try await client.send(.get, "/v1/webhooks/\(gone.id)/deliveries", token: admin).object["items"] as? [Any] != nil)
            let goneLog = try await client.send(.get, "/v1/webhooks/\(gone.id)/deliveries", token: admin).object["items"] as? [Any]
            #expect(goneLog?.count == 1)
        }
    }

    @Test func aRotatedSecretSignsBesideTheOldOneForADayAndAReplaySendsTheSameMessage() async throws {
        let receiver = try WebhookReceiver(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        try await withAPI(webhooks: Self.settings(receiver)) { fixture, client in
            let account = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            var admin = try await client.token(for: account)
            let endpoint = try await Self.register(client, token: admin, url: receiver.url("/ok"), events: ["client.created"])
            let rotated = try await client.send(.post, "/v1/webhooks/\(endpoint.id)/rotate-secret", token: admin)
            #expect(rotated.status == .ok, "\(rotated.text)")
            let secret = try #require(rotated.object["secret"] as? String)
            #expect(secret != endpoint.secret && secret.hasPrefix("whsec_"))
            #expect(rotated.object["previousSecretExpiresAt"] as? String == RFC3339.string(from: fixture.clock.now.addingTimeInterval(86_400)))
            try receiver.trust(secrets: [endpoint.secret, secret])
            _ = try await client.createClient(given: "Lina", family: "Marsh", token: admin)
            let during = try await Self.received(receiver) { $0.count == 1 }
            #expect(during.first?.verifiedWith == [endpoint.secret, secret], "both secrets sign during the rollover")
            // Stored as delivered before the clock jumps a day: a claim whose lease ran out is sent again.
            _ = try await Self.log(client, endpoint.id, token: admin) { $0.first?["status"] as? String == "delivered" }

            fixture.clock.advance(by: 86_401)
            admin = try await client.token(for: account)  // the session ended meanwhile
            _ = try await client.createClient(given: "Noor", family: "Haddad", token: admin)
            let after = try await Self.received(receiver) { $0.count == 2 }
            #expect(after.last?.verifiedWith == [secret], "the old secret signs no more after a day")

            // A replay: the same message id, delivered again.
            let log = try await Self.log(client, endpoint.id, token: admin) {
                $0.count == 2 && $0.allSatisfy { $0["status"] as? String == "delivered" }
            }
            let oldest = try #require(log.last)
            let replayed = try await client.send(
                .post,
                "/v1/webhooks/\(endpoint.id)/deliveries/\(try #require(oldest["id"] as? String))/replay",
                token: admin
            )
            #expect(replayed.status == .accepted, "\(replayed.text)")
            let again = try await Self.received(receiver) { $0.count == 3 }
            #expect(again.last?.headers["webhook-id"] == oldest["messageId"] as? String)
            #expect(again.last?.body == again.first?.body)
            expectProblem(
                try await client.send(.post, "/v1/webhooks/\(endpoint.id)/deliveries/\(UUID())/replay", token: admin),
                .notFound
            )
        }
    }

    @Test func addressesOfTheServersOwnNetworkAreRefused() async throws {
        let receiver = try WebhookReceiver(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        // The default policy, as a server runs without allowed ranges.
        var settings = WebhookSettings()
        settings.poster = WebhookPosterSettings(caFile: receiver.certificate)
        settings.tick = .milliseconds(50)
        try await withAPI(webhooks: settings) { fixture, client in
            let admin = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            for (url, field) in [
                ("http://example.com/hook", "url"), ("https://127.0.0.1/hook", "url"), ("https://169.254.169.254/latest", "url"),
                ("https://[::1]/hook", "url"), ("https://10.0.0.8/hook", "url"), ("https://user:pw@example.com/hook", "url"),
                ("https://[::ffff:127.0.0.1]/hook", "url"), ("not a url", "url"),
            ] {
                let refused = try await client.send(
                    .post,
                    "/v1/webhooks",
                    token: admin,
                    json: jsonString(["url": url, "events": ["client.created"]])
                )
                expectProblem(refused, .unprocessableContent, fields: [field])
            }
            let unknown = try await client.send(
                .post,
                "/v1/webhooks",
                token: admin,
                json: #"{"url": "https://example.com/h", "events": ["client.read"]}"#
            )
            expectProblem(unknown, .unprocessableContent, fields: ["events[0]"])
            #expect((try await client.send(.get, "/v1/webhooks", token: admin).object["items"] as? [Any])?.isEmpty == true, "nothing stored")

            // A name is checked when a delivery resolves it: localhost is the server's own machine.
            let named = try await Self.register(client, token: admin, url: receiver.url("/ok"), events: ["client.created"])
            _ = try await client.createClient(given: "Lina", family: "Marsh", token: admin)
            let failed = try #require(try await Self.log(client, named.id, token: admin) { $0.first?["status"] as? String == "failed" }.first)
            #expect((failed["lastError"] as? String)?.contains("loopback") == true, "\(failed)")
            #expect(try receiver.requests().isEmpty, "nothing reached the receiver")
        }
    }

    @Test func onlyAdminsManageWebhooksAndNoCompanySeesAnothers() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let trainer = try await client.token(for: try await fixture.trainer(in: company))
            let endpoint = try await Self.register(client, token: admin, url: "https://hooks.example.com/healthwheel", events: ["result.recorded"])
            expectProblem(try await client.send(.get, "/v1/webhooks", token: trainer), .forbidden)
            let body = #"{"url": "https://hooks.example.com/x", "events": ["client.created"]}"#
            expectProblem(try await client.send(.post, "/v1/webhooks", token: trainer, json: body), .forbidden)
            let stranger = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            for (method, path) in [
                (HTTPRequest.Method.get, ""), (.patch, ""), (.delete, ""), (.post, "/rotate-secret"), (.get, "/deliveries"),
            ] {
                let answer = try await client.send(method, "/v1/webhooks/\(endpoint.id)\(path)", token: stranger, json: method == .patch ? "{}" : nil)
                expectProblem(answer, .notFound)
            }
            #expect((try await client.send(.get, "/v1/webhooks", token: stranger).object["items"] as? [Any])?.isEmpty == true)

            // An admin changes it: events, turning it off and on; the URL is checked again.
            let changed = try await client.send(
                .patch,
                "/v1/webhooks/\(endpoint.id)",
                token: admin,
                json: #"{"events": ["client.erased"], "enabled": false}"#
            )
            #expect(
                changed.status == .ok && changed.object["events"] as? [String] == ["client.erased"] && changed.object["enabled"] as? Bool == false
            )
            expectProblem(
                try await client.send(.patch, "/v1/webhooks/\(endpoint.id)", token: admin, json: #"{"url": "http://hooks.example.com"}"#),
                .unprocessableContent,
                fields: ["url"]
            )
            expectProblem(
                try await client.send(.patch, "/v1/webhooks/\(endpoint.id)", token: admin, json: #"{"secret": "x"}"#),
                .unprocessableContent
            )
            #expect(try await client.send(.delete, "/v1/webhooks/\(endpoint.id)", token: admin).status == .noContent)
            expectProblem(try await client.send(.get, "/v1/webhooks/\(endpoint.id)", token: admin), .notFound)
            let trail = try await client.send(.get, "/v1/audit?action=webhook.created", token: admin).object["items"] as? [Any]
            #expect(trail?.count == 1)
        }
    }

    @Test func erasingAClientTakesTheirDeliveriesWithThem() async throws {
        let receiver = try WebhookReceiver(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        try await withAPI(webhooks: Self.settings(receiver)) { fixture, client in
            let admin = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let endpoint = try await Self.register(client, token: admin, url: receiver.url("/ok"), events: ["result.recorded", "client.erased"])
            let id = try await client.screenedClient(token: admin)
            _ = try await client.send(.post, "/v1/clients/\(id)/results", token: admin, json: ResultsTests.heartRate(58))
            _ = try await Self.log(client, endpoint.id, token: admin) { $0.count == 1 && $0.first?["status"] as? String == "delivered" }
            #expect(try await client.send(.delete, "/v1/clients/\(id)?erase=true", token: admin).status == .noContent)
            let log = try await Self.log(client, endpoint.id, token: admin) { $0.first?["status"] as? String == "delivered" }
            #expect(log.compactMap { $0["event"] as? String } == ["client.erased"], "the result's delivery named the client: gone with them")
        }
    }
}
