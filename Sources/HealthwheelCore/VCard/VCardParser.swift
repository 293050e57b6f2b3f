import Foundation

/// The client details a vCard carries.
public struct VCardContact: Sendable, Equatable {
    /// The card's UID, as written: a re-import of the same card updates that client instead of adding one. Nil when absent.
    public var uid: String?
    /// From N's second part (or FN's words but the last, when N is missing); nil when the card has none.
    public var givenName: String?
    /// From N's first part (or FN's last word, when N is missing and FN has several); nil when the card has none.
    public var familyName: String?
    /// FN, unescaped: the display name, used for the client's name only when N gives none.
    public var formattedName: String?
    /// The card's preferred (`PREF`) address, else its first; not yet checked as an email address.
    public var email: String?
    /// One TEL: preferred ones first, then mobile ones, then the first in the card; a `tel:` prefix is removed.
    public var phone: String?
    /// From BDAY (`1985-03-14`, `19850314`, with or without a time); nil when absent or without a year.
    public var birthDate: CalendarDate?
    /// From GENDER (`M`, `F`) or Apple's X-GENDER (`Male`, `Female`); nil for any other value (then named in `notes`).
    public var sex: Sex?
    /// The first PHOTO given inline (base64 or a base64 data URI), typed by its bytes: `image/jpeg` or `image/png`.
    /// Not yet checked against `Client.maxPhotoBytes`.
    public var photo: (contentType: String, bytes: [UInt8])?
    /// The card's NOTE text, unescaped, with newlines as `\n`; several NOTEs are joined with a blank line between.
    public var note: String?
    /// Things the card held that were not imported, and why: a photo given only as a web link, a second email or
    /// phone number, the properties a client has no place for (named once each).
    public var notes: [String] = []

    /// An empty contact, for the parser to fill.
    public init() {}

    /// Compares field by field, since the tuple `photo` keeps the compiler from synthesising `==`.
    public static func == (lhs: VCardContact, rhs: VCardContact) -> Bool {
        lhs.uid == rhs.uid && lhs.givenName == rhs.givenName && lhs.familyName == rhs.familyName
            && lhs.formattedName == rhs.formattedName && lhs.email == rhs.email && lhs.phone == rhs.phone
            && lhs.birthDate == rhs.birthDate && lhs.sex == rhs.sex && lhs.photo?.contentType == rhs.photo?.contentType
            && lhs.photo?.bytes == rhs.photo?.bytes && lhs.note == rhs.note && lhs.notes == rhs.notes
    }

    /// "Given Family" from the structured name, else the formatted name.
    public var fullName: String? {
        let structured = [givenName, familyName].compactMap { $0 }.joined(separator: " ")
        return structured.isEmpty ? formattedName : structured
    }
}

/// Reads vCard 3.0 and 4.0 files (and the 2.1 habits still found in exports): folded lines, quoted-printable and
/// base64 values, character sets, property groups (`item1.EMAIL`), and the birthday, gender and photo forms that
/// Apple Contacts and Google Contacts write. Each card parses on its own, so one broken card does not stop the rest.
///
/// Time and memory are linear in the text's length: the body is untrusted and up to megabytes long, so every byte is
/// read a bounded number of times (no step rescans a line that keeps growing).
///
/// What a client keeps: UID, N, FN, one EMAIL, one TEL, BDAY, GENDER (or X-GENDER), PHOTO and NOTE. Everything else
/// the card says about the person is named in `notes` rather than dropped: each other property once, in order of
/// first appearance, and each email or phone number beyond the one kept. Only `metadata` is skipped silently.
public enum VCardParser {
    /// Why a card could not be read.
    public struct Failure: Error, Equatable, Sendable {
        /// Why, in words for whoever imports the file: "a card has no END:VCARD", "N: the value is not valid UTF-8".
        public var reason: String
    }

    /// The cards of a file, each parsed or failed, in file order.
    public static func parse(_ text: String) -> [Result<VCardContact, Failure>] {
        var cards: [Result<VCardContact, Failure>] = []
        var current: [Line]?
        for line in unfold(text) {
            if line.name == "BEGIN" && isVCard(line.value) {
                if current != nil { cards.append(.failure(Failure(reason: "a card has no END:VCARD"))) }
                current = []
            } else if line.name == "END" && isVCard(line.value) {
                if let lines = current { cards.append(card(from: lines).flatMap(refusingNUL)) }
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        if current != nil { cards.append(.failure(Failure(reason: "the last card has no END:VCARD"))) }
        return cards
    }

    /// Properties that describe the card or the file rather than the person, or only label or bookkeep another
    /// property of the card: they hold no user data, so they are skipped without a note.
    ///
    /// - About the card: VERSION, PRODID, REV, KIND, PROFILE, NAME, SOURCE, CLIENTPIDMAP, SORT-STRING.
    /// - Apple Contacts: X-ABUID (its record id), X-ABLABEL (the label of another property in the same group, e.g.
    ///   `item1.X-ABLabel` for `item1.ADR`; that property is named itself if it is not kept), X-ABSHOWAS (person or
    ///   company display), X-ABADR (the address format of an ADR), X-SHARED-PHOTO-DISPLAY-PREF.
    /// - Outlook: X-MS-OL-DEFAULT-POSTAL-ADDRESS (which ADR is the default).
    ///
    /// Any other property is user data, vendor `X-` ones included (X-SOCIALPROFILE, X-ABDATE, X-ANDROID-CUSTOM…), and
    /// is named unless its value is empty apart from separators (`ORG:;`, `ADR:;;;;;;`).
    public static let metadata: Set<String> = [
        "VERSION", "PRODID", "REV", "KIND", "PROFILE", "NAME", "SOURCE", "CLIENTPIDMAP", "SORT-STRING",
        "X-ABUID", "X-ABLABEL", "X-ABSHOWAS", "X-ABADR", "X-SHARED-PHOTO-DISPLAY-PREF", "X-MS-OL-DEFAULT-POSTAL-ADDRESS",
    ]

    /// A card holding U+0000 in any text it keeps is refused, as JSON text with it is: a database cannot store it,
    /// and no name or note needs it.
    private static func refusingNUL(_ contact: VCardContact) -> Result<VCardContact, Failure> {
        let texts: [(String, String?)] =
            [
                ("UID", contact.uid), ("N", contact.givenName), ("N", contact.familyName), ("FN", contact.formattedName),
                ("EMAIL", contact.email), ("TEL", contact.phone), ("NOTE", contact.note),
            ] + contact.notes.map { ("a property kept in the notes", $0) }
        if let (property, _) = texts.first(where: { $0.1?.unicodeScalars.contains("\u{0}") == true }) {
            return .failure(Failure(reason: "\(property): the value contains the NUL character (U+0000)"))
        }
        return .success(contact)
    }

    private static func isVCard(_ value: String) -> Bool {
        value.utf8.count == 5 && value.uppercased() == "VCARD"  // the length first: a huge value is not upper-cased
    }

    // MARK: - Lines

    struct Line {
        /// Upper-cased, without its group (`item1.EMAIL` → `EMAIL`).
        var name: String
        /// Names upper-cased; values as written, without their quotes.
        var parameters: [String: [String]]
        var value: String

        func has(_ parameter: String, _ value: String) -> Bool {
            parameters[parameter]?.contains { sameIgnoringASCIICase($0, value) } ?? false
        }

        /// A TYPE value, including 2.1's bare parameters (`TEL;CELL:`).
        func hasType(_ type: String) -> Bool { has("TYPE", type) }

        /// `ENCODING=QUOTED-PRINTABLE`, or 2.1's bare `;QUOTED-PRINTABLE`.
        var isQuotedPrintable: Bool { has("ENCODING", "QUOTED-PRINTABLE") || hasType("QUOTED-PRINTABLE") }
    }

    /// Compares without allocating: parameter values are ASCII words, and a card may hold very many of them.
    private static func sameIgnoringASCIICase(_ lhs: String, _ rhs: String) -> Bool {
        func lower(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte }
        return lhs.utf8.count == rhs.utf8.count && lhs.utf8.elementsEqual(rhs.utf8) { lower($0) == lower($1) }
    }

    private enum ASCII {
        static let tab = UInt8(ascii: "\t")
        static let lineFeed = UInt8(ascii: "\n")
        static let carriageReturn = UInt8(ascii: "\r")
        static let space = UInt8(ascii: " ")
        static let quote = UInt8(ascii: "\"")
        static let comma = UInt8(ascii: ",")
        static let dot = UInt8(ascii: ".")
        static let colon = UInt8(ascii: ":")
        static let semicolon = UInt8(ascii: ";")
        static let equals = UInt8(ascii: "=")
    }

    /// A logical line assembled from its physical lines. Its head (name and parameters, up to the first colon outside
    /// quotes) is read once, as soon as it is complete, so whether the value is quoted-printable is known for every
    /// later piece without rereading the line.
    private struct LogicalLine {
        private(set) var bytes: [UInt8] = []
        /// Name and parameters, once the colon has been seen.
        private(set) var head: (name: String, parameters: [String: [String]])?
        private(set) var isQuotedPrintable = false
        private var colon: Int?
        /// How far the search for the colon has read.
        private var scanned = 0
        private var inQuotes = false

        init(_ first: ArraySlice<UInt8>) { append(first) }

        mutating func append(_ piece: ArraySlice<UInt8>) {
            bytes.append(contentsOf: piece)
            guard colon == nil else { return }
            while scanned < bytes.count {
                let byte = bytes[scanned]
                if byte == ASCII.quote {
                    inQuotes.toggle()
                } else if byte == ASCII.colon && !inQuotes {
                    colon = scanned
                    let parsed = VCardParser.head(bytes[..<scanned])
                    head = parsed
                    isQuotedPrintable = Line(name: parsed.name, parameters: parsed.parameters, value: "").isQuotedPrintable
                    return
                }
                scanned += 1
            }
        }

        /// Drops a quoted-printable soft line break (a trailing `=` after the colon); true if there was one.
        mutating func removeSoftBreak() -> Bool {
            guard isQuotedPrintable, let colon, bytes.count > colon + 1, bytes.last == ASCII.equals else { return false }
            bytes.removeLast()
            return true
        }

        /// The finished line, or nil when it has no colon (not a property).
        var line: Line? {
            guard let head, let colon else { return nil }
            return Line(name: head.name, parameters: head.parameters, value: String(decoding: bytes[(colon + 1)...], as: UTF8.self))
        }
    }

    /// Joins folded lines (CRLF, CR or LF, then a space or tab) and quoted-printable soft breaks (a line ending in `=`
    /// whose head declares quoted-printable), then splits each logical line into name, parameters and value.
    static func unfold(_ text: String) -> [Line] {
        let bytes = Array(text.utf8)
        var lines: [Line] = []
        var current: LogicalLine?
        var softBreak = false
        var start = 0
        // Every physical line, the empty one after a final line break included.
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != ASCII.lineFeed, bytes[end] != ASCII.carriageReturn { end += 1 }
            let raw = bytes[start..<end]
            let crlf = end + 1 < bytes.count && bytes[end] == ASCII.carriageReturn && bytes[end + 1] == ASCII.lineFeed
            start = end + (crlf ? 2 : 1)

            if let first = raw.first, first == ASCII.space || first == ASCII.tab, current != nil {
                current?.append(raw.dropFirst())
            } else if softBreak, current != nil {
                current?.append(raw)
            } else if !raw.isEmpty {
                if let line = current?.line { lines.append(line) }
                current = LogicalLine(raw)
            }
            softBreak = current?.removeSoftBreak() ?? false
        }
        if let line = current?.line { lines.append(line) }
        return lines
    }

    /// Name and parameters from a line's head. Semicolons and commas inside double quotes are part of the value.
    private static func head(_ bytes: ArraySlice<UInt8>) -> (name: String, parameters: [String: [String]]) {
        let segments = split(bytes, on: ASCII.semicolon)
        var name = segments[0]
        if let dot = name.lastIndex(of: ASCII.dot) { name = name[(dot + 1)...] }  // item1.EMAIL
        var parameters: [String: [String]] = [:]
        for segment in segments.dropFirst() where !segment.isEmpty {
            if let equals = segment.firstIndex(of: ASCII.equals) {
                let key = String(decoding: segment[..<equals], as: UTF8.self).uppercased()
                for value in split(segment[(equals + 1)...], on: ASCII.comma) {
                    var unquoted = value
                    while unquoted.first == ASCII.quote { unquoted.removeFirst() }
                    while unquoted.last == ASCII.quote { unquoted.removeLast() }
                    if !unquoted.isEmpty { parameters[key, default: []].append(String(decoding: unquoted, as: UTF8.self)) }
                }
            } else {
                parameters["TYPE", default: []].append(String(decoding: segment, as: UTF8.self))  // vCard 2.1: TEL;CELL;PREF
            }
        }
        return (String(decoding: name, as: UTF8.self).uppercased(), parameters)
    }

    /// The pieces between separators outside double quotes (always at least one).
    private static func split(_ bytes: ArraySlice<UInt8>, on separator: UInt8) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var inQuotes = false
        for index in bytes.indices {
            if bytes[index] == ASCII.quote {
                inQuotes.toggle()
            } else if bytes[index] == separator && !inQuotes {
                pieces.append(bytes[start..<index])
                start = index + 1
            }
        }
        pieces.append(bytes[start...])
        return pieces
    }

    // MARK: - Cards

    private static func card(from lines: [Line]) -> Result<VCardContact, Failure> {
        var contact = VCardContact()
        var emails: [(value: String, preferred: Bool)] = []
        var phones: [(value: String, rank: Int)] = []
        var noteParts: [String] = []
        var unkept = OrderedNames()
        for line in lines where !line.name.isEmpty && !metadata.contains(line.name) {
            guard keptProperties.contains(line.name) else {
                if let name = unkeptName(line) { unkept.insert(name) }
                continue
            }
            let value: String
            do {
                value = try decodedText(line)
            } catch {
                // A note is free text: losing it is reported, but the client can still be imported.
                if line.name == "NOTE" {
                    contact.notes.append("note not imported: \(error.reason)")
                    continue
                }
                return .failure(Failure(reason: "\(line.name): \(error.reason)"))
            }
            switch line.name {
            case "UID":
                contact.uid = value.isEmpty ? nil : value
            case "N":
                let parts = components(value, separator: ";")
                contact.familyName = parts.first.flatMap(nonEmpty)
                contact.givenName = parts.count > 1 ? nonEmpty(parts[1]) : nil
            case "FN":
                contact.formattedName = nonEmpty(unescape(value))
            case "EMAIL":
                if let email = nonEmpty(unescape(value)) { emails.append((email, isPreferred(line))) }
            case "TEL":
                var number = unescape(value)
                if number.prefix(4).lowercased() == "tel:" { number = String(number.dropFirst(4)) }
                let rank = (isPreferred(line) ? 0 : 2) + (line.hasType("CELL") || line.hasType("MOBILE") ? 0 : 1)
                if let number = nonEmpty(number) { phones.append((number, rank)) }
            case "BDAY":
                guard let date = birthday(value, &contact.notes) else { break }
                if contact.birthDate == nil {
                    contact.birthDate = date
                } else if contact.birthDate != date {
                    contact.notes.append("birthday not imported (a client keeps one): \(date)")
                }
            case "GENDER", "X-GENDER":
                gender(value, into: &contact)
            case "PHOTO":
                switch photo(line) {
                case .success(let photo) where contact.photo == nil: contact.photo = photo
                case .success: contact.notes.append("photo not imported (a client keeps one)")
                case .failure(let failure): contact.notes.append("photo not imported: \(failure.reason)")
                }
            case "NOTE":
                if let text = nonEmptyText(unescape(value)) { noteParts.append(text) }
            default:
                break
            }
        }
        contact.note = noteParts.isEmpty ? nil : noteParts.joined(separator: "\n\n")

        let email = emails.first(where: \.preferred)?.value ?? emails.first?.value
        contact.email = email
        // Each other address or number once; the same one written twice is not "another".
        var seenEmails = Set(email.map { [$0.lowercased()] } ?? [])
        for other in emails {
            if seenEmails.insert(other.value.lowercased()).inserted {
                contact.notes.append("email not imported (a client keeps one): \(other.value)")
            }
        }
        let phone = phones.min(by: { $0.rank < $1.rank })?.value  // the first of the best rank
        contact.phone = phone
        var seenPhones = Set(phone.map { [dialled($0)] } ?? [])
        for other in phones {
            if seenPhones.insert(dialled(other.value)).inserted {
                contact.notes.append("phone not imported (a client keeps one): \(other.value)")
            }
        }
        if !unkept.names.isEmpty {
            contact.notes.append("not imported (not kept by Healthwheel): \(unkept.names.joined(separator: ", "))")
        }

        if contact.givenName == nil && contact.familyName == nil {
            guard let formatted = contact.formattedName else { return .failure(Failure(reason: "the card has no name (N or FN)")) }
            let words = formatted.split(separator: " ").map(String.init)
            contact.givenName = words.count > 1 ? words.dropLast().joined(separator: " ") : formatted
            contact.familyName = words.count > 1 ? words.last : nil
        }
        return .success(contact)
    }

    /// The properties a client has a place for (all other user data is named in `notes`).
    private static let keptProperties: Set<String> = ["UID", "N", "FN", "EMAIL", "TEL", "BDAY", "GENDER", "X-GENDER", "PHOTO", "NOTE"]

    /// Distinct names in order of first appearance.
    private struct OrderedNames {
        private(set) var names: [String] = []
        private var seen: Set<String> = []

        mutating func insert(_ name: String) {
            if seen.insert(name).inserted { names.append(name) }
        }
    }

    /// How a property the client does not keep is named in the notes, or nil when it holds nothing (`ORG:;`).
    /// Android's `X-ANDROID-CUSTOM` carries several kinds of data, so its kind is named too (`X-ANDROID-CUSTOM (nickname)`).
    private static func unkeptName(_ line: Line) -> String? {
        // A value that does not decode is still data the card holds, so it is named rather than failing the card.
        let value = (try? decodedText(line)) ?? line.value
        let mimePrefix = "vnd.android.cursor.item/"
        if line.name == "X-ANDROID-CUSTOM", value.hasPrefix(mimePrefix) {
            let kind = value.dropFirst(mimePrefix.count).prefix { $0 != ";" }
            return holdsData(value.dropFirst(mimePrefix.count + kind.count)) ? "X-ANDROID-CUSTOM (\(kind))" : nil
        }
        return holdsData(value[...]) ? line.name : nil
    }

    /// True when the value has more than separators and white space.
    private static func holdsData(_ value: Substring) -> Bool {
        value.unicodeScalars.contains { $0 != ";" && $0 != "," && !CharacterSet.whitespacesAndNewlines.contains($0) }
    }

    private static func isPreferred(_ line: Line) -> Bool {
        line.hasType("PREF") || line.parameters["PREF"] != nil
    }

    /// A phone number as dialled: its digits and a leading plus, so `888-555-1212` and `(888) 555 1212` are one number.
    private static func dialled(_ number: String) -> String {
        let digits = String(number.unicodeScalars.filter { $0 == "+" || ("0"..."9").contains($0) }.map(Character.init))
        return digits.isEmpty ? number : digits
    }

    /// GENDER (vCard 4: `M`, `F`, `O`, `N`, `U`, then `;identity`) or Apple's X-GENDER (`Male`, `Female`).
    /// The first male or female one is kept; anything else the value says is named in the notes.
    private static func gender(_ value: String, into contact: inout VCardContact) {
        let parts = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        let code = parts[0].trimmingCharacters(in: .whitespaces)
        let sex: Sex? =
            switch code.uppercased() {
            case "M", "MALE": .male
            case "F", "FEMALE": .female
            default: nil
            }
        if let sex {
            if contact.sex == nil {
                contact.sex = sex
            } else if contact.sex != sex {
                contact.notes.append("gender not imported (a client keeps one): \(code)")
            }
        } else if !code.isEmpty && code.uppercased() != "U" {  // U is "unknown": it says nothing
            contact.notes.append("gender '\(code)' not imported (a client's sex is male or female)")
        }
        if parts.count > 1, let identity = nonEmpty(unescape(String(parts[1]))) {
            contact.notes.append("gender identity not imported: \(identity)")
        }
    }

    /// The value as text: quoted-printable decoded, in its declared character set (UTF-8 by default).
    private static func decodedText(_ line: Line) throws(Failure) -> String {
        guard line.isQuotedPrintable else { return line.value }
        guard let bytes = quotedPrintable(line.value) else { throw Failure(reason: "the quoted-printable value is malformed") }
        let charset = line.parameters["CHARSET"]?.first?.uppercased() ?? "UTF-8"
        let encoding: String.Encoding = ["ISO-8859-1", "LATIN1", "WINDOWS-1252"].contains(charset) ? .isoLatin1 : .utf8
        guard let text = String(data: Data(bytes), encoding: encoding) else { throw Failure(reason: "the value is not valid \(charset)") }
        return text
    }

    /// Decodes `=XX` escapes; nil if an `=` is not followed by two hex digits.
    static func quotedPrintable(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == ASCII.equals else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// `1985-03-14`, `19850314`, or with a time; Apple's `1604-…` and vCard 4's `--0314` mean the year is unknown.
    private static func birthday(_ value: String, _ notes: inout [String]) -> CalendarDate? {
        let day = String(value.prefix { $0 != "T" })
        if day.hasPrefix("--") || day.hasPrefix("1604") {
            notes.append("birthday without a year not imported")
            return nil
        }
        guard let date = CalendarDate(day, allowCompact: true) else {
            notes.append("birthday '\(value)' not understood")
            return nil
        }
        return date
    }

    private static func photo(_ line: Line) -> Result<(contentType: String, bytes: [UInt8]), Failure> {
        let value = line.value.trimmingCharacters(in: .whitespaces)
        var base64 = value
        // Prefixes only: lower-casing a whole photo to read its first letters would copy it for nothing.
        if value.prefix(5).lowercased() == "data:" {
            guard let comma = value.firstIndex(of: ","), value[..<comma].lowercased().hasSuffix(";base64") else {
                return .failure(Failure(reason: "only base64 data URIs are supported"))
            }
            base64 = String(value[value.index(after: comma)...])
        } else if line.has("VALUE", "uri") || value.prefix(4).lowercased() == "http" {
            return .failure(Failure(reason: "a photo given as a link is not fetched"))
        }
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters), !data.isEmpty else {
            return .failure(Failure(reason: "the photo is not valid base64"))
        }
        let bytes = Array(data)
        // The bytes decide the format: declared types (TYPE=JPEG, data:image/…) are often wrong in exports.
        guard let contentType = ImageSignature.contentType(of: bytes) else {
            return .failure(Failure(reason: "the photo is not a JPEG or PNG"))
        }
        return .success((contentType, bytes))
    }

    // MARK: - Text values

    /// Splits a structured value on unescaped separators, then unescapes each part.
    static func components(_ value: String, separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for character in value {
            if escaped {
                current.append("\\")
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == separator {
                parts.append(unescape(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(unescape(current))
        return parts
    }

    /// Text value escapes: `\n` and `\N` are a newline, any other escaped character stands for itself (`\,` `\;` `\\`).
    static func unescape(_ value: String) -> String {
        var result = ""
        var escaped = false
        for character in value {
            if escaped {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    private static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Multi-line text with its line breaks as `\n` (quoted-printable 2.1 notes carry `=0D=0A`), trimmed; nil if empty.
    private static func nonEmptyText(_ text: String) -> String? {
        var result = String.UnicodeScalarView()
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            // A CR is a line break on its own, so the LF of a CRLF adds none.
            if scalar == "\n" && afterCarriageReturn {
                afterCarriageReturn = false
                continue
            }
            afterCarriageReturn = scalar == "\r"
            result.append(afterCarriageReturn ? "\n" : scalar)
        }
        let trimmed = String(result).trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
