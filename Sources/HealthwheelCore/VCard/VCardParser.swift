import Foundation

/// The client details a vCard carries.
public struct VCardContact: Sendable, Equatable {
    public var uid: String?
    public var givenName: String?
    public var familyName: String?
    public var formattedName: String?
    public var email: String?
    public var phone: String?
    public var birthDate: CalendarDate?
    public var sex: Sex?
    public var photo: (contentType: String, bytes: [UInt8])?
    /// Things the card held that were not imported, and why (e.g. a photo given only as a web link).
    public var notes: [String] = []

    public init() {}

    public static func == (lhs: VCardContact, rhs: VCardContact) -> Bool {
        lhs.uid == rhs.uid && lhs.givenName == rhs.givenName && lhs.familyName == rhs.familyName
            && lhs.formattedName == rhs.formattedName && lhs.email == rhs.email && lhs.phone == rhs.phone
            && lhs.birthDate == rhs.birthDate && lhs.sex == rhs.sex && lhs.photo?.contentType == rhs.photo?.contentType
            && lhs.photo?.bytes == rhs.photo?.bytes && lhs.notes == rhs.notes
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
public enum VCardParser {
    public struct Failure: Error, Equatable, Sendable {
        public var reason: String
    }

    /// The cards of a file, each parsed or failed, in file order.
    public static func parse(_ text: String) -> [Result<VCardContact, Failure>] {
        var cards: [Result<VCardContact, Failure>] = []
        var current: [Line]?
        for line in unfold(text) {
            let upper = line.name.uppercased()
            if upper == "BEGIN" && line.value.uppercased() == "VCARD" {
                if current != nil { cards.append(.failure(Failure(reason: "a card has no END:VCARD"))) }
                current = []
            } else if upper == "END" && line.value.uppercased() == "VCARD" {
                if let lines = current { cards.append(card(from: lines)) }
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        if current != nil { cards.append(.failure(Failure(reason: "the last card has no END:VCARD"))) }
        return cards
    }

    // MARK: - Lines

    struct Line {
        var name: String
        var parameters: [String: [String]]
        var value: String

        func has(_ parameter: String, _ value: String) -> Bool {
            parameters[parameter]?.contains { $0.caseInsensitiveCompare(value) == .orderedSame } ?? false
        }

        /// TYPE values, including 2.1's bare parameters (`TEL;CELL:`).
        var types: [String] { (parameters["TYPE"] ?? []).map { $0.uppercased() } }
    }

    /// Joins folded lines (CRLF + space or tab) and quoted-printable soft breaks (a line ending in `=`), then
    /// splits each logical line into name, parameters and value.
    static func unfold(_ text: String) -> [Line] {
        let physical = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        var logical: [String] = []
        var quotedPrintableContinues = false
        for raw in physical {
            if let first = raw.first, first == " " || first == "\t", !logical.isEmpty {
                logical[logical.count - 1] += raw.dropFirst()
            } else if quotedPrintableContinues, !logical.isEmpty {
                logical[logical.count - 1] += raw
            } else if !raw.isEmpty {
                logical.append(String(raw))
            }
            let last = logical.last ?? ""
            quotedPrintableContinues = last.uppercased().contains("QUOTED-PRINTABLE") && last.hasSuffix("=")
            if quotedPrintableContinues { logical[logical.count - 1].removeLast() }
        }
        return logical.compactMap(split)
    }

    private static func split(_ line: String) -> Line? {
        // The value starts at the first colon outside a quoted parameter value.
        var inQuotes = false
        guard
            let colon = line.firstIndex(where: { character in
                if character == "\"" { inQuotes.toggle() }
                return character == ":" && !inQuotes
            })
        else { return nil }
        var head = line[..<colon].split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        var name = head.removeFirst()
        if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }  // item1.EMAIL
        var parameters: [String: [String]] = [:]
        for parameter in head {
            let parts = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 {
                let values = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
                parameters[parts[0].uppercased(), default: []] += values
            } else {
                parameters["TYPE", default: []].append(parts[0])  // vCard 2.1: TEL;CELL;PREF
            }
        }
        return Line(name: name, parameters: parameters, value: String(line[line.index(after: colon)...]))
    }

    // MARK: - Cards

    private static func card(from lines: [Line]) -> Result<VCardContact, Failure> {
        var contact = VCardContact()
        var emails: [(value: String, preferred: Bool)] = []
        var phones: [(value: String, rank: Int)] = []
        for line in lines {
            let value: String
            do {
                value = try decodedText(line)
            } catch {
                return .failure(Failure(reason: "\(line.name.uppercased()): \(error.reason)"))
            }
            switch line.name.uppercased() {
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
                if number.lowercased().hasPrefix("tel:") { number = String(number.dropFirst(4)) }
                let types = line.types
                let rank = (isPreferred(line) ? 0 : 2) + (types.contains("CELL") || types.contains("MOBILE") ? 0 : 1)
                if let number = nonEmpty(number) { phones.append((number, rank)) }
            case "BDAY":
                contact.birthDate = birthday(value, &contact.notes)
            case "GENDER", "X-GENDER":
                switch value.split(separator: ";").first.map({ $0.trimmingCharacters(in: .whitespaces).uppercased() }) {
                case "M", "MALE": contact.sex = .male
                case "F", "FEMALE": contact.sex = .female
                default: break
                }
            case "PHOTO":
                switch photo(line) {
                case .success(let photo): contact.photo = photo
                case .failure(let failure): contact.notes.append("photo not imported: \(failure.reason)")
                }
            default:
                break
            }
        }
        contact.email = emails.first(where: \.preferred)?.value ?? emails.first?.value
        contact.phone = phones.min(by: { $0.rank < $1.rank })?.value
        if contact.givenName == nil && contact.familyName == nil {
            guard let formatted = contact.formattedName else { return .failure(Failure(reason: "the card has no name (N or FN)")) }
            let words = formatted.split(separator: " ").map(String.init)
            contact.givenName = words.count > 1 ? words.dropLast().joined(separator: " ") : formatted
            contact.familyName = words.count > 1 ? words.last : nil
        }
        return .success(contact)
    }

    private static func isPreferred(_ line: Line) -> Bool {
        line.types.contains("PREF") || line.parameters["PREF"] != nil
    }

    /// The value as text: quoted-printable decoded, in its declared character set (UTF-8 by default).
    private static func decodedText(_ line: Line) throws(Failure) -> String {
        guard line.has("ENCODING", "QUOTED-PRINTABLE") || line.types.contains("QUOTED-PRINTABLE") else { return line.value }
        guard let bytes = quotedPrintable(line.value) else { throw Failure(reason: "the quoted-printable value is malformed") }
        let charset = line.parameters["CHARSET"]?.first?.uppercased() ?? "UTF-8"
        let encoding: String.Encoding = ["ISO-8859-1", "LATIN1", "WINDOWS-1252"].contains(charset) ? .isoLatin1 : .utf8
        guard let text = String(data: Data(bytes), encoding: encoding) else { throw Failure(reason: "the value is not valid \(charset)") }
        return text
    }

    static func quotedPrintable(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "=") else {
                bytes.append(byte)
                continue
            }
            guard input.count >= 2, let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            input = input.dropFirst(2)
        }
        return bytes
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
        if value.lowercased().hasPrefix("data:") {
            guard let comma = value.firstIndex(of: ","), value[..<comma].lowercased().hasSuffix(";base64") else {
                return .failure(Failure(reason: "only base64 data URIs are supported"))
            }
            base64 = String(value[value.index(after: comma)...])
        } else if line.has("VALUE", "uri") || value.lowercased().hasPrefix("http") {
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
}
