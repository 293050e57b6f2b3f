import Credentials
import Foundation
import Testing

/// Standard Webhooks' signature, checked against the specification's published test vector (what a receiver's
/// library computes), and secrets in its `whsec_` form.
struct WebhookSigningTests {
    static let secret = WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")!
    static let body = Array(#"{"test": 2432232314}"#.utf8)

    @Test func thePublishedTestVectorSignsAsTheSpecificationSays() {
        let header = WebhookSignature.header(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Self.body, secrets: [Self.secret])
        #expect(header == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test func duringARotationBothSecretsSignAndEitherVerifies() {
        let next = WebhookSecret.generate()
        let sent = Date(timeIntervalSince1970: 1_614_265_330)
        let header = WebhookSignature.header(id: "msg_1", timestamp: 1_614_265_330, body: Self.body, secrets: [Self.secret, next])
        func verifies(id: String = "msg_1", body: [UInt8] = Self.body, secret: WebhookSecret = next, at now: Date = sent) -> Bool {
            WebhookSignature.verify(header: header, id: id, timestamp: 1_614_265_330, body: body, secret: secret, now: now)
        }
        #expect(header.split(separator: " ").count == 2)
        #expect(verifies(secret: Self.secret))
        #expect(verifies(secret: next))
        #expect(!verifies(id: "msg_2"))
        #expect(!verifies(body: Self.body + [32]))
        #expect(!verifies(secret: WebhookSecret.generate()))
        // Too old or too far ahead: a replay, refused whatever the signature.
        #expect(!verifies(at: sent.addingTimeInterval(301)))
        #expect(!verifies(at: sent.addingTimeInterval(-301)))
        #expect(verifies(at: sent.addingTimeInterval(299)))
    }

    @Test func secretsReadBackAsWrittenAndNothingElseReads() {
        let made = WebhookSecret.generate()
        #expect(made.key.count == 24)
        #expect(made.description.hasPrefix("whsec_"))
        #expect(WebhookSecret(made.description) == made)
        #expect(WebhookSecret.generate() != made)
        for text in ["", "whsec_", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_not base64!", "whsec_c2hvcnQ="] {
            #expect(WebhookSecret(text) == nil, "\(text)")
        }
    }
}
