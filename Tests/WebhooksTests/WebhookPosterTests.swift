import Credentials
import Foundation
import HealthwheelCore
import TestSupport
import Testing

@testable import Webhooks

/// Deliveries to a real HTTPS receiver (`WebhookReceiver`, which checks signatures with the `standardwebhooks`
/// package from PyPI): what is sent, what each answer means, and the server's own network refused before any
/// connection is made.
@Suite struct WebhookPosterTests {
    static let secret = WebhookSecret.generate()
    /// Loopback allowed, as an operator would allow a receiver on their own network.
    static func poster(_ receiver: WebhookReceiver, timeout: Int = 15) -> WebhookPoster {
        let loopback = WebhookAddressPolicy(allowed: [IPRange("127.0.0.0/8")!, IPRange("::1")!])
        var settings = WebhookPosterSettings(policy: loopback, caFile: receiver.certificate)
        settings.timeout = timeout
        return WebhookPoster(settings: settings)
    }

    static func signedHeaders(_ body: [UInt8], id: String = "msg_\(UUID().uuidString)") -> [(name: String, value: String)] {
        let timestamp = Int64(Date().timeIntervalSince1970)
        return [
            ("Content-Type", "application/json"), ("webhook-id", id), ("webhook-timestamp", "\(timestamp)"),
            ("webhook-signature", WebhookSignature.header(id: id, timestamp: timestamp, body: body, secrets: [secret])),
        ]
    }

    @Test func aSignedDeliveryArrivesAndTheReceiversLibraryVerifiesIt() throws {
        let receiver = try WebhookReceiver(secret: Self.secret.description)
        let body = Array(#"{"type":"result.recorded","data":{"id":"0192","kind":"result"}}"#.utf8)
        let outcome = Self.poster(receiver).post(body, to: receiver.url("/ok"), headers: Self.signedHeaders(body, id: "msg_1"))
        #expect(outcome == .delivered(status: 204))
        let requests = try receiver.requests()
        #expect(requests.count == 1)
        #expect(requests.first?.verified == true)
        #expect(requests.first?.body == String(decoding: body, as: UTF8.self))
        #expect(requests.first?.headers["webhook-id"] == "msg_1")
        #expect(requests.first?.headers["content-type"] == "application/json")
    }

    @Test func aTamperedBodyIsNotVerifiedByTheReceiver() throws {
        let receiver = try WebhookReceiver(secret: Self.secret.description)
        let body = Array(#"{"a":1}"#.utf8)
        _ = Self.poster(receiver).post(Array(#"{"a":2}"#.utf8), to: receiver.url("/ok"), headers: Self.signedHeaders(body))
        #expect(try receiver.requests().map(\.verified) == [false])
    }

    @Test func answersOtherThan2xxAreFailuresAndRedirectsAreNotFollowed() throws {
        let receiver = try WebhookReceiver(secret: Self.secret.description)
        let poster = Self.poster(receiver)
        let body = Array("{}".utf8)
        #expect(poster.post(body, to: receiver.url("/gone"), headers: []) == .failed(status: 410, retryAfter: nil, message: "answered 410"))
        #expect(poster.post(body, to: receiver.url("/busy"), headers: []) == .failed(status: 503, retryAfter: 120, message: "answered 503"))
        #expect(
            poster.post(body, to: receiver.url("/redirect"), headers: [])
                == .failed(status: 302, retryAfter: nil, message: "answered 302: redirects are not followed")
        )
        // A large answer is read up to 64 KiB: its status counts.
        #expect(poster.post(body, to: receiver.url("/big"), headers: []) == .delivered(status: 200))
        #expect(try receiver.requests().map(\.path) == ["/gone", "/busy", "/redirect", "/big"])
    }

    @Test func aReceiverSlowerThanTheTimeoutIsAFailureWithoutAStatus() throws {
        let receiver = try WebhookReceiver(secret: Self.secret.description)
        guard case .failed(nil, nil, let message) = Self.poster(receiver, timeout: 1).post([], to: receiver.url("/slow"), headers: []) else {
            Issue.record("a slow receiver was not a failure without a status")
            return
        }
        #expect(message.lowercased().contains("timed out") || message.lowercased().contains("timeout"), "\(message)")
    }

    @Test func theServersOwnNetworkIsRefusedBeforeAnyConnection() throws {
        let receiver = try WebhookReceiver(secret: Self.secret.description)
        let poster = WebhookPoster(settings: WebhookPosterSettings(caFile: receiver.certificate))
        let body = Array("{}".utf8)
        // A name that resolves to loopback, and addresses written out: none is reached.
        guard case .refused(let byName) = poster.post(body, to: receiver.url("/ok"), headers: []) else {
            Issue.record("localhost was not refused")
            return
        }
        #expect(byName.contains("a loopback address"), "\(byName)")
        let literals = [
            "127.0.0.1": "a loopback address", "[::1]": "a loopback address", "10.0.0.1": "a private address",
            "169.254.169.254": "the cloud metadata address", "100.64.0.1": "a carrier-grade NAT address",
            "[::ffff:127.0.0.1]": "an IPv4-mapped address", "192.0.2.1": "a documentation address", "[fe80::1]": "a link-local address",
        ]
        for (host, reason) in literals {
            let outcome = poster.post(body, to: receiver.url("/ok", host: host), headers: [])
            guard case .refused(let message) = outcome else {
                Issue.record("\(host) was not refused: \(outcome)")
                continue
            }
            #expect(message.hasSuffix(reason), "\(host): \(message)")
        }
        #expect(try receiver.requests().isEmpty)
    }

    /// Names as a resolver the test controls answers them: one for each kind of address the server must not
    /// reach, one resolving to a public and a private address (refused: any refused address refuses the name),
    /// and `receiver.test`, which only this table knows, pointing at the allowed receiver.
    static let names: [String: [String]] = [
        "loopback.test": ["127.0.0.1"], "private.test": ["10.1.2.3"], "private172.test": ["172.16.0.9"], "private192.test": ["192.168.1.1"],
        "linklocal.test": ["169.254.10.1"], "metadata.test": ["169.254.169.254"], "cgnat.test": ["100.64.1.1"],
        "documentation.test": ["192.0.2.10"], "mapped.test": ["::ffff:127.0.0.1"], "loopback6.test": ["::1"],
        "unique-local.test": ["fd12:3456::1"], "linklocal6.test": ["fe80::1"], "multicast.test": ["224.0.0.1"],
        "this-network.test": ["0.0.0.0"], "mixed.test": ["93.184.216.34", "10.0.0.1"], "receiver.test": ["127.0.0.1"],
    ]

    static func resolver(allowing allowed: [IPRange] = []) -> WebhookPosterSettings {
        var settings = WebhookPosterSettings(policy: WebhookAddressPolicy(allowed: allowed))
        settings.resolve = { host, _ in (names[host] ?? []).compactMap { IPAddress($0) } }
        return settings
    }

    @Test func namesResolvingToEachKindOfRefusedAddressAreRefused() throws {
        let receiver = try WebhookReceiver(secret: Self.secret.description)
        var settings = Self.resolver()
        settings.caFile = receiver.certificate
        let poster = WebhookPoster(settings: settings)
        for name in Self.names.keys.sorted() where name != "receiver.test" {
            let outcome = poster.post(Array("{}".utf8), to: receiver.url("/ok", host: name), headers: [])
            guard case .refused(let message) = outcome else {
                Issue.record("\(name) was not refused: \(outcome)")
                continue
            }
            #expect(message.hasPrefix("\(name) resolves to "), "\(message)")
        }
        // And receiver.test too, while loopback is not allowed.
        guard case .refused = poster.post(Array("{}".utf8), to: receiver.url("/ok", host: "receiver.test"), headers: []) else {
            Issue.record("receiver.test reached loopback unallowed")
            return
        }
        #expect(try receiver.requests().isEmpty, "no request left the server")
    }

    /// The connection goes to the address that was checked: `receiver.test` is known to no resolver but the
    /// test's, so the request arrives only because libcurl was pinned to the checked address.
    @Test func theConnectionIsPinnedToTheCheckedAddress() throws {
        let receiver = try WebhookReceiver(secret: Self.secret.description)
        var settings = Self.resolver(allowing: [IPRange("127.0.0.1/32")!])
        settings.caFile = receiver.certificate
        let body = Array(#"{"type":"client.created"}"#.utf8)
        let outcome = WebhookPoster(settings: settings).post(body, to: receiver.url("/ok", host: "receiver.test"), headers: Self.signedHeaders(body))
        #expect(outcome == .delivered(status: 204), "\(outcome)")
        #expect(try receiver.requests().map(\.verified) == [true])
    }

    @Test func onlyHTTPSURLsWithoutCredentialsAreTaken() {
        let poster = WebhookPoster(settings: WebhookPosterSettings())
        #expect(poster.post([], to: "http://example.com/hook", headers: []) == .refused("must be an https URL"))
        #expect(poster.post([], to: "ftp://example.com/hook", headers: []) == .refused("must be an https URL"))
        #expect(poster.post([], to: "https://user:pass@example.com/hook", headers: []) == .refused("must not hold credentials"))
        #expect(poster.post([], to: "not a url", headers: []) == .refused("is not a URL"))
    }

    @Test func retryAfterIsReadInSecondsOrAsADate() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(WebhookPoster.retryAfter("120", now: now) == 120)
        #expect(WebhookPoster.retryAfter("Fri, 15 Jan 2027 08:02:00 GMT", now: now) == 120)
        #expect(WebhookPoster.retryAfter("soon", now: now) == nil)
        #expect(WebhookPoster.retryAfter("-5", now: now) == nil)
    }
}
