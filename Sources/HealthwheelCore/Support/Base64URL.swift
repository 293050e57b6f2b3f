/// Base64url without padding (RFC 4648 §5): safe in URLs, headers and query strings.
///
/// Written out rather than through `Data.base64EncodedString` and three `replacingOccurrences`: those went through
/// NSString and cost a tenth of a roster page's CPU, for its 80-byte cursor.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Each byte's digit value, or 0xFF for a byte outside the alphabet.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, digit) in alphabet.enumerated() { values[Int(digit)] = UInt8(value) }
        return values
    }()

    /// `-` and `_` for `+` and `/`, no `=` padding: how tokens and cursors are written.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let bytes = Array(bytes)
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            // 1, 2 or 3 bytes make 2, 3 or 4 digits.
            for digit in 0...count { text.append(alphabet[Int((group >> UInt32(18 - 6 * digit)) & 0x3F)]) }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes, or nil for a character outside the alphabet or an impossible length. Padding at the end is
    /// allowed, and unused low bits of the last digit are ignored, as Foundation's decoder ignores them.
    public static func decode(_ text: String) -> [UInt8]? {
        var digits = Array(text.utf8)
        for _ in 0..<2 where digits.last == UInt8(ascii: "=") { digits.removeLast() }
        guard digits.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count * 3 / 4)
        var index = 0
        while index < digits.count {
            let count = min(4, digits.count - index)
            var group: UInt32 = 0
            for offset in 0..<4 {
                var value: UInt8 = 0
                if offset < count {
                    value = values[Int(digits[index + offset])]
                    guard value != 0xFF else { return nil }
                }
                group = group << 6 | UInt32(value)
            }
            // 2, 3 or 4 digits make 1, 2 or 3 bytes.
            for byte in 0..<(count - 1) { bytes.append(UInt8(truncatingIfNeeded: group >> UInt32(16 - 8 * byte))) }
            index += 4
        }
        return bytes
    }
}
