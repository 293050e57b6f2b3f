import Foundation

/// A mailbox in a header: an optional display name and an address.
public struct Mailbox: Sendable, Equatable {
    /// Shown by mail programs instead of the address (the company's or trainer's name); nil or empty writes the bare
    /// address. Quoted when printable ASCII, else RFC 2047-encoded.
    public var name: String?
    /// Written as is inside `<…>`: the caller passes a plain ASCII address without specials or line breaks.
    public var address: String

    /// A mailbox; the name is optional.
    public init(name: String? = nil, address: String) {
        self.name = name
        self.address = address
    }
}

/// One email as RFC 5322/2045 bytes: `multipart/mixed` holding `multipart/alternative` (plain text, then
/// `multipart/related` with the HTML and the pictures it shows by `cid:`) and then the attachments.
///
/// Text parts are quoted-printable and binary parts base64, so no line exceeds 76 octets; headers are folded
/// below 78 where they can be and never pass 998. Display names and the subject outside ASCII are RFC 2047
/// encoded words. Boundaries start with `=_`, which neither encoding can produce, so no content can end a part.
public struct MailMessage: Sendable {
    /// A picture the HTML shows as `cid:<contentID>`.
    public struct Inline: Sendable {
        /// What the HTML refers to as `cid:<contentID>` (`wheel@report`), written as `Content-ID: <contentID>`.
        public var contentID: String
        /// The picture's media type (`image/png`).
        public var contentType: String
        /// ASCII only, like an attachment's: the name a mail program offers when the picture is saved.
        public var filename: String
        /// The picture itself, base64-encoded in the message.
        public var bytes: [UInt8]

        /// A picture for the HTML part.
        public init(contentID: String, contentType: String, filename: String, bytes: [UInt8]) {
            self.contentID = contentID
            self.contentType = contentType
            self.filename = filename
            self.bytes = bytes
        }
    }

    /// A file attached to the message.
    public struct Attachment: Sendable {
        /// The file's media type (`application/pdf`).
        public var contentType: String
        /// ASCII only (the composer does not write RFC 2231 names).
        public var filename: String
        /// The file itself, base64-encoded in the message.
        public var bytes: [UInt8]

        /// A file to attach; `filename` must be ASCII.
        public init(contentType: String, filename: String, bytes: [UInt8]) {
            self.contentType = contentType
            self.filename = filename
            self.bytes = bytes
        }
    }

    /// The `From` header: the company's name with the server's sending address.
    public var from: Mailbox
    /// The `Reply-To` header (the trainer), so a client's answer reaches a person; nil writes none.
    public var replyTo: Mailbox?
    /// The `To` header; the SMTP envelope's recipients are passed to the transport separately.
    public var to: [Mailbox]
    /// The `Cc` header, left out when empty.
    public var cc: [Mailbox]
    /// RFC 2047-encoded when not printable ASCII, folded so no header line passes 998 octets.
    public var subject: String
    /// The `Date` header, written in UTC as RFC 5322 asks.
    public var date: Date
    /// Without angle brackets: `id@domain`.
    public var messageID: String
    /// The `text/plain` alternative, for mail programs that show no HTML; quoted-printable in the message.
    public var plainText: String
    /// The `text/html` alternative; it shows `inline` pictures by `cid:`.
    public var html: String
    /// Pictures the HTML shows, in the `multipart/related` part beside it.
    public var inline: [Inline]
    /// Files after the message body (the report's PDF), in `multipart/mixed`.
    public var attachments: [Attachment]

    /// A message to encode; nothing is checked until `encoded()`, which writes what it is given.
    public init(
        from: Mailbox,
        replyTo: Mailbox?,
        to: [Mailbox],
        cc: [Mailbox],
        subject: String,
        date: Date,
        messageID: String,
        plainText: String,
        html: String,
        inline: [Inline],
        attachments: [Attachment]
    ) {
        self.from = from
        self.replyTo = replyTo
        self.to = to
        self.cc = cc
        self.subject = subject
        self.date = date
        self.messageID = messageID
        self.plainText = plainText
        self.html = html
        self.inline = inline
        self.attachments = attachments
    }

    /// The message, with CRLF line ends, ready for SMTP `DATA` or an `.eml` file.
    public func encoded() -> [UInt8] {
        var out = MIMEWriter()
        out.header("Date", Self.rfc5322Date(date))
        out.header("From", MIMEWriter.mailbox(from))
        if let replyTo { out.header("Reply-To", MIMEWriter.mailbox(replyTo)) }
        out.addressList("To", to)
        if !cc.isEmpty { out.addressList("Cc", cc) }
        out.header("Subject", MIMEWriter.encodedWords(subject, headerLength: "Subject: ".utf8.count))
        out.header("Message-ID", "<\(messageID)>")
        out.header("MIME-Version", "1.0")
        let seed = messageID.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        let boundary = { (level: Int) in "=_hw\(level)_\(String(seed, radix: 16))" }

        out.header("Content-Type", "multipart/mixed; boundary=\"\(boundary(1))\"")
        out.line("")
        out.line("This is a message in MIME format.")
        out.open(boundary(1))
        out.header("Content-Type", "multipart/alternative; boundary=\"\(boundary(2))\"")
        out.line("")
        out.open(boundary(2))
        out.textPart("text/plain", plainText)
        out.open(boundary(2))
        out.header("Content-Type", "multipart/related; boundary=\"\(boundary(3))\"; type=\"text/html\"")
        out.line("")
        out.open(boundary(3))
        out.textPart("text/html", html)
        for picture in inline {
            out.open(boundary(3))
            out.binaryPart(
                picture.contentType,
                disposition: "inline; filename=\"\(picture.filename)\"",
                contentID: picture.contentID,
                picture.bytes
            )
        }
        out.close(boundary(3))
        out.close(boundary(2))
        for attachment in attachments {
            out.open(boundary(1))
            out.binaryPart(
                attachment.contentType + "; name=\"\(attachment.filename)\"",
                disposition: "attachment; filename=\"\(attachment.filename)\"",
                contentID: nil,
                attachment.bytes
            )
        }
        out.close(boundary(1))
        return out.bytes
    }

    /// `Tue, 24 Nov 2026 17:21:14 +0000`: RFC 5322 §3.3, in UTC, with English names whatever the locale.
    public static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : String($0) } ?? "00" }
        return "\(days[(c.weekday ?? 1) - 1]), \(two(c.day)) \(months[(c.month ?? 1) - 1]) \(c.year ?? 1970) "
            + "\(two(c.hour)):\(two(c.minute)):\(two(c.second)) +0000"
    }
}

/// Writes headers and parts; every line ends in CRLF.
struct MIMEWriter {
    private(set) var bytes: [UInt8] = []

    mutating func line(_ text: String) {
        bytes += Array(text.utf8)
        bytes += [13, 10]
    }

    mutating func header(_ name: String, _ value: String) {
        line("\(name): \(value)")
    }

    /// `To: a <x@y>,\r\n b <z@w>`: one mailbox per line, so no line grows with the number of recipients.
    mutating func addressList(_ name: String, _ mailboxes: [Mailbox]) {
        header(name, mailboxes.map(Self.mailbox).joined(separator: ",\r\n "))
    }

    mutating func open(_ boundary: String) {
        line("")
        line("--" + boundary)
    }

    mutating func close(_ boundary: String) {
        line("")
        line("--" + boundary + "--")
    }

    mutating func textPart(_ type: String, _ text: String) {
        header("Content-Type", "\(type); charset=utf-8")
        header("Content-Transfer-Encoding", "quoted-printable")
        line("")
        bytes += Self.quotedPrintable(text)
    }

    mutating func binaryPart(_ type: String, disposition: String, contentID: String?, _ data: [UInt8]) {
        header("Content-Type", type)
        header("Content-Transfer-Encoding", "base64")
        header("Content-Disposition", disposition)
        if let contentID { header("Content-ID", "<\(contentID)>") }
        line("")
        let encoded = Array(Data(data).base64EncodedString().utf8)
        var start = 0
        while start < encoded.count {
            let end = min(start + 76, encoded.count)
            bytes += encoded[start..<end]
            bytes += [13, 10]
            start = end
        }
    }

    /// `"Name" <address>`, the name as encoded words when it is not plain ASCII text.
    static func mailbox(_ mailbox: Mailbox) -> String {
        guard let name = mailbox.name, !name.isEmpty else { return "<\(mailbox.address)>" }
        let printable = name.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
        let display =
            printable
            ? "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            : encodedWords(name, headerLength: 10)
        return "\(display) <\(mailbox.address)>"
    }

    /// The text as is when it is printable ASCII, else RFC 2047 `=?utf-8?B?…?=` words of at most 75 octets,
    /// folded onto lines of their own, never splitting a character.
    static func encodedWords(_ text: String, headerLength: Int) -> String {
        let printable = text.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
        if printable && text.utf8.count + headerLength <= 78 { return text }
        // 75 octets per word: "=?utf-8?B?" + "?=" leave 63 for base64, i.e. 45 bytes of text.
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let utf8 = Array(String(character).utf8)
            if chunk.count + utf8.count > 45 && !chunk.isEmpty {
                words.append("=?utf-8?B?" + Data(chunk).base64EncodedString() + "?=")
                chunk = []
            }
            chunk += utf8
        }
        if !chunk.isEmpty { words.append("=?utf-8?B?" + Data(chunk).base64EncodedString() + "?=") }
        return words.joined(separator: "\r\n ")
    }

    /// RFC 2045 §6.7 quoted-printable of UTF-8 text with CRLF line ends: lines of at most 76 octets, soft breaks
    /// never splitting an escape, trailing spaces escaped.
    static func quotedPrintable(_ text: String) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + text.utf8.count / 8)
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        // Text that ends in a line break ends there: no extra empty line.
        if lines.count > 1 && lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines {
            var length = 0
            let octets = Array(line.utf8)
            for (index, octet) in octets.enumerated() {
                let isLast = index == octets.count - 1
                // A line's leading "." is escaped too, so no relay's dot handling can touch it.
                let literal =
                    (octet >= 33 && octet <= 126 && octet != 61 && !(index == 0 && octet == 46))
                    || ((octet == 32 || octet == 9) && !isLast)
                let piece: [UInt8] = literal ? [octet] : [61, hex[Int(octet >> 4)], hex[Int(octet & 15)]]
                // Room for the soft break's "=" unless this is the line's last piece.
                if length + piece.count > (isLast ? 76 : 75) {
                    out += [61, 13, 10]
                    length = 0
                }
                out += piece
                length += piece.count
            }
            out += [13, 10]
        }
        return out
    }
}
