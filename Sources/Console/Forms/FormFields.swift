import Foundation

/// A posted form (`application/x-www-form-urlencoded`): every field in the order sent, a name given several
/// times (checkboxes) keeping each value. Linear in the body.
struct FormFields: Sendable {
    private(set) var pairs: [(name: String, value: String)] = []

    init() {}

    /// Parses `a=1&b=x+y&c=%C3%A9` (WHATWG URL standard's form decoding: `+` is a space, bad escapes kept as sent).
    init(urlEncoded bytes: some Collection<UInt8>) {
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let name = Self.decode(equals.map { pair[..<$0] } ?? pair[...])
            let value = equals.map { Self.decode(pair[pair.index(after: $0)...]) } ?? ""
            pairs.append((name, value))
        }
    }

    /// Adds a field, as if it had been posted.
    mutating func append(_ name: String, _ value: String) {
        pairs.append((name, value))
    }

    /// Whether a Content-Type is a urlencoded form's.
    static func isFormType(_ contentType: String) -> Bool {
        contentType.lowercased().hasPrefix("application/x-www-form-urlencoded")
    }

    /// The first value sent under `name`, or nil.
    subscript(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value sent under `name`, in order.
    func all(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// The value under `name`, trimmed; nil when absent or blank.
    func text(_ name: String) -> String? {
        guard let value = self[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    private static func decode(_ slice: some Collection<UInt8>) -> String {
        let bytes = Array(slice)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
