import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import TestSupport
import Testing

@testable import API

/// The console's webhook pages over real HTTP, against the real HTTPS receiver: an admin registers an endpoint
/// (its secret shown once, on the answer, never in a URL), sees its deliveries in the log, turns it off and on,
/// replays a delivery, rotates the secret and deletes it; refusals name their fields; trainers and other companies
/// are kept out.
@Suite struct ConsoleWebhookTests {
    static func secret(in html: String) -> String? {
        guard let start = html.range(of: "whsec_") else { return nil }
        return "whsec_" + String(html[start.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" || $0 == "=" })
    }

    @Test func anAdminRegistersAnEndpointReadsItsDeliveriesReplaysRotatesAndDeletesIt() async throws {
        let receiver = try WebhookReceiver(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        try await withAPI(webhooks: WebhookEndpointsTests.settings(receiver)) { fixture, client in
            let company = try await fixture.company()
            let account = try await fixture.trainer(in: company, role: .admin)
            let session = try #require(try await client.signIn(account.email, account.password).session)
            let admin = try await client.token(for: account)
            func page(_ uri: String) async throws -> TestResponse { try await client.page(.get, uri, cookie: session.cookie) }
            func post(_ uri: String, _ form: [(String, String)]) async throws -> TestResponse {
                try await client.page(.post, uri, cookie: session.cookie, form: [("csrf", session.csrf)] + form)
            }
            let empty = try await page("/admin/webhooks")
            #expect(empty.status == .ok && empty.text.contains("No webhook endpoints yet"))
            #expect(try await page("/admin").text.contains("href=\"/admin/webhooks\""))

            // Refusals name their fields and keep what was typed.
            let plain = try await post("/admin/webhooks", [("url", "http://hooks.example.com/in"), ("events", "client.created")])
            #expect(plain.status == .unprocessableContent)
            #expect(plain.text.contains("aria-invalid=\"true\"") && plain.text.contains("value=\"http://hooks.example.com/in\""))
            let noEvents = try await post("/admin/webhooks", [("url", receiver.url("/ok"))])
            #expect(noEvents.status == .unprocessableContent && noEvents.text.contains("field-error"))
            #expect((try await client.send(.get, "/v1/webhooks", token: admin).object["items"] as? [Any])?.isEmpty == true, "nothing stored")

            // Registered: the secret is on the answer only.
            let registered = try await post("/admin/webhooks", [("url", receiver.url("/ok")), ("events", "client.created")])
            #expect(registered.status == .created, "\(registered.text)")
            #expect(registered.headers[.location] == nil)
            let secret = try #require(Self.secret(in: registered.text))
            try receiver.trust(secrets: [secret])
            let listed = try #require((try await client.send(.get, "/v1/webhooks", token: admin).object["items"] as? [[String: Any]])?.first)
            let id = try #require(listed["id"] as? String).lowercased()
            let endpointPage = "/admin/webhooks/\(id)"
            #expect(try await page("/admin/webhooks").text.contains("href=\"\(endpointPage)\""))
            #expect(!(try await page(endpointPage).text.contains(secret)), "shown once")

            // A delivery, signed with that secret, and in the log.
            #expect(try await client.send(.post, "/v1/clients", token: admin, json: #"{"givenName": "Ines"}"#).status == .created)
            let first = try await WebhookEndpointsTests.received(receiver) { $0.count == 1 }
            #expect(first.allSatisfy { $0.verified && $0.verifiedWith == [secret] })
            _ = try await WebhookEndpointsTests.log(client, id, token: admin) { $0.first?["status"] as? String == "delivered" }
            let log = try await page(endpointPage)
            #expect(log.text.contains("client.created") && log.text.contains("Delivered") && log.text.contains("HTTP 204"), "\(log.text)")

            // Off: the form without `enabled`; a replay is then refused; on again, the replay sends the same message.
            let off = try await post(endpointPage, [("url", receiver.url("/ok")), ("events", "client.created")])
            #expect(off.status == .seeOther && off.headers[.location] == "\(endpointPage)?notice=webhookSaved")
            #expect(try await client.send(.get, "/v1/webhooks/\(id)", token: admin).object["enabled"] as? Bool == false)
            let delivery = try #require(
                (try await client.send(.get, "/v1/webhooks/\(id)/deliveries", token: admin).object["items"] as? [[String: Any]])?.first?["id"]
                    as? String
            )
            let replayPath = "\(endpointPage)/deliveries/\(delivery.lowercased())/replay"
            #expect(log.text.contains("action=\"\(replayPath)\""))
            #expect(try await post(replayPath, []).status == .conflict)
            let on = try await post(endpointPage, [("url", receiver.url("/ok")), ("events", "client.created"), ("enabled", "on")])
            #expect(on.status == .seeOther)
            let replayed = try await post(replayPath, [])
            #expect(replayed.status == .seeOther && replayed.headers[.location] == "\(endpointPage)?notice=deliveryReplayed")
            let both = try await WebhookEndpointsTests.received(receiver) { $0.count == 2 }
            #expect(Set(both.compactMap { $0.headers["webhook-id"] }).count == 1, "the same message again")

            // Rotation shows the new secret once; deleting ends the endpoint.
            let rotated = try await post("\(endpointPage)/rotate", [])
            let newSecret = try #require(Self.secret(in: rotated.text))
            #expect(rotated.status == .ok && newSecret != secret)
            #expect(try await post("\(endpointPage)/delete", []).headers[.location] == "/admin/webhooks?notice=webhookDeleted")
            #expect(try await page(endpointPage).status == .notFound)
        }
    }

    @Test func trainersAndOtherCompaniesAreKeptOut() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let registered = try await client.send(
                .post,
                "/v1/webhooks",
                token: admin,
                json: #"{"url": "https://hooks.example.com/in", "events": ["client.created"]}"#
            )
            let id = try #require(registered.object["id"] as? String).lowercased()
            let trainer = try await fixture.trainer(in: company)
            let trainerSession = try #require(try await client.signIn(trainer.email, trainer.password).session)
            #expect(try await client.page(.get, "/admin/webhooks", cookie: trainerSession.cookie).status == .forbidden)
            #expect(try await client.page(.get, "/admin/webhooks/\(id)", cookie: trainerSession.cookie).status == .forbidden)
            let stranger = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            let strangerSession = try #require(try await client.signIn(stranger.email, stranger.password).session)
            #expect(try await client.page(.get, "/admin/webhooks/\(id)", cookie: strangerSession.cookie).status == .notFound)
            let deleted = try await client.page(
                .post,
                "/admin/webhooks/\(id)/delete",
                cookie: strangerSession.cookie,
                form: [("csrf", strangerSession.csrf)]
            )
            #expect(deleted.status == .notFound)
            #expect(try await client.send(.get, "/v1/webhooks/\(id)", token: admin).status == .ok, "still there")
        }
    }
}
