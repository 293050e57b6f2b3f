import Foundation
import Hummingbird
import HummingbirdCore

extension URI {
    /// The query parameter `name` (its first occurrence), or nil when it is absent. A free-text parameter (`q`,
    /// `cursor`, `from`) that is empty is absent too, as a form that leaves a field blank sends it; a typed one
    /// (`size`, `units`, `lang`: `blankIsAbsent: false`) must hold a value when given, so `?size=` is refused like
    /// `?size=big`. Read as a form encodes it (OpenAPI's `style: form`): `+` is a space, `%2B` a plus sign.
    func parameter(_ name: String, blankIsAbsent: Bool = true) -> String? {
        guard let query, !query.isEmpty else { return nil }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard Self.formDecoded(parts[0]) == name else { continue }
            // Text that does not percent-decode (a lone `%`, a NUL) is taken as sent rather than dropped.
            let raw = parts.count > 1 ? parts[1] : ""
            let value = Self.formDecoded(raw) ?? String(raw)
            return blankIsAbsent && value.isEmpty ? nil : value
        }
        return nil
    }

    /// `+` as a space, then percent-decoding; nil when it does not decode (a lone `%`, bytes that are not UTF-8)
    /// or decodes to a NUL character, which no stored text holds (PostgreSQL's text cannot).
    private static func formDecoded(_ text: Substring) -> String? {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
        guard let decoded = text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding, !decoded.utf8.contains(0) else {
            return nil
        }
        return decoded
    }

    /// `?size=` of a picture, in pixels: nil when absent, a 422 naming `size` unless it is written with digits.
    /// (Whether the size is one the picture is drawn at is the use case's to say.)
    func pixelSize() throws -> Int? {
        guard let raw = parameter("size", blankIsAbsent: false) else { return nil }
        guard let size = Int(digits: raw) else { throw Problem.invalid("size", "must be a whole number of pixels") }
        return size
    }
}

extension URI {
    /// A yes/no query parameter (`?erase=true`): `true` or `false`, false when absent, a 422 naming it otherwise.
    func flag(_ name: String) throws -> Bool {
        switch parameter(name, blankIsAbsent: false) {
        case nil, "false": false
        case "true": true
        default: throw Problem.invalid(name, "must be true or false")
        }
    }
}

extension Int {
    /// A whole number written with digits only, as a query gives sizes and limits: `512`, not `+512`, `512.0`,
    /// ` 512` or `0x200` (which `Int(_:)` would take in part), and at most nine digits.
    init?(digits text: String) {
        guard (1...9).contains(text.utf8.count), text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        self.init(text)
    }
}
