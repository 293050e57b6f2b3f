import Foundation
import Mail

/// A client's progress report as an email: a greeting and the trainer's note above the report, as plain text and
/// as HTML whose pictures are `cid:` parts, with the PDF attached.
public enum ReportMail {
    /// Who the email is from and to, and its identity.
    public struct Envelope: Sendable {
        /// The company's name at the server's sending address.
        public var from: Mailbox
        /// The trainer who sent it, so the client's answer reaches them; nil writes no `Reply-To`.
        public var replyTo: Mailbox?
        /// The recipients, as the `To` header shows them.
        public var to: [Mailbox]
        /// Copied recipients; the header is left out when empty.
        public var cc: [Mailbox]
        /// `<delivery id>@<sender's domain>`, without angle brackets: it also seeds the MIME boundaries.
        public var messageID: String
        /// When the email was accepted into the outbox (not when it is delivered).
        public var date: Date

        /// An envelope as the use case builds it; nothing is checked here.
        public init(from: Mailbox, replyTo: Mailbox?, to: [Mailbox], cc: [Mailbox], messageID: String, date: Date) {
            self.from = from
            self.replyTo = replyTo
            self.to = to
            self.cc = cc
            self.messageID = messageID
            self.date = date
        }
    }

    /// `pictures` as `ClientReport.pictures()` draws them; `note` is the trainer's message, shown as written.
    public static func compose(
        _ report: ClientReport,
        pictures: [ClientReport.Picture: [UInt8]],
        pdf: [UInt8],
        note: String?,
        trainerName: String?,
        envelope: Envelope
    ) throws -> MailMessage {
        let strings = report.format.strings
        var preface = [
            strings.text("email.greeting", ["name": report.clientName]),
            strings.text("email.intro", ["company": report.companyName]),
        ]
        if let note, !note.isEmpty {
            preface.append(strings.text("email.note", ["trainer": trainerName ?? report.companyName]))
            preface += note.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }
        let shown = pictures.filter { $0.key != .logo || report.logo != nil }
        let html = try ReportHTML.render(report, preface: preface) { picture in shown[picture].map { _ in "cid:" + contentID(picture) } }
        let inline = shown.sorted { partName($0.key) < partName($1.key) }.map { picture, bytes in
            MailMessage.Inline(contentID: contentID(picture), contentType: "image/png", filename: partName(picture) + ".png", bytes: bytes)
        }
        let day = ISO8601DateFormatter.string(from: envelope.date, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        return MailMessage(
            from: envelope.from,
            replyTo: envelope.replyTo,
            to: envelope.to,
            cc: envelope.cc,
            subject: strings.text("email.subject", ["company": report.companyName]),
            date: envelope.date,
            messageID: envelope.messageID,
            plainText: ReportText.render(report, preface: preface),
            html: html,
            inline: inline,
            attachments: [.init(contentType: "application/pdf", filename: "\(strings.text("email.attachment"))-\(day).pdf", bytes: pdf)]
        )
    }

    /// A picture's `Content-ID` (RFC 2392 wants an address form): `wheel@report`.
    static func contentID(_ picture: ClientReport.Picture) -> String {
        partName(picture) + "@report"
    }

    /// The name a picture has in the email: `wheel`, `logo`, `trend-push-ups`, `media-<id>`.
    static func partName(_ picture: ClientReport.Picture) -> String {
        switch picture {
        case .logo: "logo"
        case .wheel: "wheel"
        case .media(let id): "media-" + id.lowercaseHyphenated
        case .trend(let exercise):
            "trend-" + String(exercise.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") })
        }
    }
}
