import Foundation
import Testing

@testable import Mail

/// The MIME composer, byte for byte where the RFCs are strict: line ends and lengths, encoded words, quoted-
/// printable, headers that user text cannot break out of.
@Suite struct MailMessageTests {
    func message(
        fromName: String = "Demo Fitness",
        subject: String = "Your progress report",
        plain: String = "Hello\n",
        html: String = "<p>Hello</p>"
    ) -> MailMessage {
        MailMessage(
            from: Mailbox(name: fromName, address: "reports@example.com"),
            replyTo: Mailbox(name: "Ana \"Coach\" Trainer", address: "ana@example.com"),
            to: [Mailbox(address: "sam@example.com")],
            cc: [Mailbox(address: "a@example.com"), Mailbox(address: "b@example.com")],
            subject: subject,
            date: Date(timeIntervalSince1970: 1_795_540_874),
            messageID: "abc@example.com",
            plainText: plain,
            html: html,
            inline: [.init(contentID: "wheel@report", contentType: "image/png", filename: "wheel.png", bytes: Array(repeating: 0x89, count: 200))],
            attachments: [.init(contentType: "application/pdf", filename: "report.pdf", bytes: Array("%PDF-1.5".utf8))]
        )
    }

    func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
    }

    @Test func headersAreInOrderWithCRLFEverywhere() {
        let bytes = message().encoded()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "no bare line feed")
        let head = lines(bytes).prefix(10)
        #expect(
            Array(head) == [
                "Date: Tue, 24 Nov 2026 17:21:14 +0000",
                "From: \"Demo Fitness\" <reports@example.com>",
                "Reply-To: \"Ana \\\"Coach\\\" Trainer\" <ana@example.com>",
                "To: <sam@example.com>",
                "Cc: <a@example.com>,",
                " <b@example.com>",
                "Subject: Your progress report",
                "Message-ID: <abc@example.com>",
                "MIME-Version: 1.0",
                "Content-Type: multipart/mixed; boundary=\"=_hw1_\(text.components(separatedBy: "=_hw1_")[1].prefix { $0 != "\"" })\"",
            ]
        )
    }

    @Test func nonASCIINamesAndSubjectsAreEncodedWordsThatDecodeBack() throws {
        let name = "Fisioterapia Peña y Compañía de Ejercicio Terapéutico Avanzado"
        let encoded = MIMEWriter.encodedWords(name, headerLength: 10)
        let words = encoded.components(separatedBy: "\r\n ")
        #expect(words.count > 1 && words.allSatisfy { $0.utf8.count <= 75 && $0.hasPrefix("=?utf-8?B?") && $0.hasSuffix("?=") })
        let decoded = try words.map { word -> String in
            let base64 = word.dropFirst("=?utf-8?B?".count).dropLast(2)
            return try #require(Data(base64Encoded: String(base64)).flatMap { String(data: $0, encoding: .utf8) }, "each word is whole UTF-8")
        }
        #expect(decoded.joined() == name)
        let from = lines(message(fromName: name).encoded()).first { $0.hasPrefix("From: ") }
        #expect(from?.hasPrefix("From: =?utf-8?B?") == true)
    }

    @Test func aSubjectCannotAddAHeader() {
        let bytes = message(subject: "Report\r\nBcc: victim@example.com").encoded()
        let headerBlock = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n\r\n")[0]
        #expect(!headerBlock.contains("Bcc:"), "the line break is inside an encoded word, not in the header")
        #expect(headerBlock.contains("Subject: =?utf-8?B?"))
    }

    @Test func quotedPrintableKeepsLinesShortAndDecodesBack() {
        let long = String(repeating: "Sofía · ", count: 40) + "end "
        let text = "A first line\n.leading dot\n" + long + "\n" + String(repeating: "x", count: 200) + "\n"
        let encoded = MIMEWriter.quotedPrintable(text)
        let encodedLines = lines(encoded)
        #expect(encodedLines.allSatisfy { $0.utf8.count <= 76 })
        #expect(encodedLines[1].hasPrefix("=2E"), "a leading dot is escaped")
        #expect(encodedLines.allSatisfy { !$0.hasSuffix(" ") && !$0.hasSuffix("\t") }, "no line ends in a bare space")
        #expect(encodedLines.contains { $0.hasSuffix("end=20") }, "the text's trailing space is kept, escaped")
        #expect(Self.decodeQuotedPrintable(encoded) == text.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test func partsNestAsMailClientsExpect() {
        let text = String(decoding: message().encoded(), as: UTF8.self)
        let types = text.components(separatedBy: "\r\n").filter { $0.hasPrefix("Content-Type: ") }.map { $0.dropFirst(14).prefix { $0 != ";" } }
        #expect(
            types == ["multipart/mixed", "multipart/alternative", "text/plain", "multipart/related", "text/html", "image/png", "application/pdf"]
        )
        #expect(text.contains("Content-ID: <wheel@report>") && text.contains("Content-Disposition: attachment; filename=\"report.pdf\""))
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
        // Three distinct boundaries, each opened and closed on lines of their own.
        let lines = text.components(separatedBy: "\r\n")
        let boundaries = lines.compactMap { line -> String? in
            guard let range = line.range(of: "boundary=\"") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
        #expect(Set(boundaries).count == 3)
        for boundary in boundaries {
            #expect(lines.contains("--" + boundary) && lines.filter { $0 == "--" + boundary + "--" }.count == 1, "\(boundary)")
        }
    }

    /// RFC 2045 §6.7 decoding, for the round trip.
    static func decodeQuotedPrintable(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 61 {
                if index + 2 < bytes.count, bytes[index + 1] == 13, bytes[index + 2] == 10 {
                    index += 3
                    continue
                }
                out.append(UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16) ?? 0)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

@Suite struct SMTPSettingsTests {
    @Test func whatIsLoggedNamesTheServerButNoSecret() {
        let settings = SMTPSettings(
            url: "smtps://mailer:url-secret@mail.example.com:465",
            user: "mailer",
            password: "p4ssw0rd",
            from: "r@example.com"
        )
        let logged = "\(settings)"
        #expect(logged == "smtps://mail.example.com:465 as mailer, from r@example.com")
        #expect(!logged.contains("p4ssw0rd") && !logged.contains("url-secret"))
    }
}
