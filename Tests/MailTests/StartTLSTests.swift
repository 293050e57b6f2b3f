import Mail
import TestSupport
import Testing

/// STARTTLS cannot be stripped: a server (or a network) that offers no upgrade gets nothing when TLS is required.
@Suite struct StartTLSTests {
    static func settings(_ sink: SMTPSink, _ startTLS: SMTPSettings.StartTLS) -> SMTPSettings {
        var settings = SMTPSettings(url: sink.url, user: "healthwheel", password: "s3cret-pass", from: "r@healthwheel.test")
        settings.startTLS = startTLS
        return settings
    }

    @Test func aServerWithoutSTARTTLSGetsNoLoginAndNoMessageWhenTLSIsRequired() throws {
        let sink = try SMTPSink()
        let message = Array("Subject: private\r\n\r\nresting heart rate 72\r\n".utf8)
        #expect(throws: DeliveryFailure.self) { try SMTPClient(settings: Self.settings(sink, .required)).send(message, to: ["sam@example.com"]) }
        #expect(try sink.received().isEmpty)
        // The same server is reached when the operator allows clear text (a relay on this machine).
        try SMTPClient(settings: Self.settings(sink, .optional)).send(message, to: ["sam@example.com"])
        #expect(try sink.received().count == 1)
    }

    @Test func theLoggedDescriptionSaysWhenTLSIsOptional() {
        var settings = SMTPSettings(url: "smtp://relay.internal:25", from: "r@example.com")
        #expect("\(settings)" == "smtp://relay.internal:25, from r@example.com")
        settings.startTLS = .optional
        #expect("\(settings)" == "smtp://relay.internal:25, from r@example.com (STARTTLS optional)")
    }
}
