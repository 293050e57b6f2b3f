import Mail
import TestSupport
import Testing

/// SMTP through libcurl against a real server (aiosmtpd): STARTTLS cannot be stripped (a server, or a network, that
/// offers no upgrade gets nothing when TLS is required), and a connection carries message after message.
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

    /// One client keeps its connection: three messages, one greeting and login; the hand-over is announced once
    /// per message, and not for a message the server refused before DATA.
    @Test func aClientSendsMessageAfterMessageOverOneConnection() throws {
        let sink = try SMTPSink()
        let client = SMTPClient(settings: Self.settings(sink, .optional))
        var handOvers = 0
        for number in 1...3 {
            try client.send(Array("Subject: report \(number)\r\n\r\nresting heart rate 72\r\n".utf8), to: ["sam@example.com"]) { handOvers += 1 }
        }
        #expect(throws: DeliveryFailure.self) {
            try client.send(Array("Subject: x\r\n\r\nx\r\n".utf8), to: ["bounce@example.com"]) { handOvers += 1 }
        }
        #expect(try sink.received().map { $0["subject"] as? String } == ["report 1", "report 2", "report 3"])
        #expect(handOvers == 3)
        #expect(sink.connections() == 1)
    }

    @Test func theLoggedDescriptionSaysWhenTLSIsOptional() {
        var settings = SMTPSettings(url: "smtp://relay.internal:25", from: "r@example.com")
        #expect("\(settings)" == "smtp://relay.internal:25, from r@example.com")
        settings.startTLS = .optional
        #expect("\(settings)" == "smtp://relay.internal:25, from r@example.com (STARTTLS optional)")
    }
}
