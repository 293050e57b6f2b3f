/// Text made safe to write into markup: the wheel's SVG, the web console's pages.
public enum MarkupText {
    /// Text for XML or HTML content and quoted attribute values: `&`, `<`, `>`, `"` and `'` escaped, control
    /// characters (which XML 1.0 does not allow at all) left out. Byte by byte: every byte to escape or leave out
    /// is ASCII, so the other bytes of UTF-8 pass through untouched, and text with none of them (a report's data
    /// URIs, half a megabyte) comes back as it is.
    public static func escaped(_ text: String) -> String {
        func isControl(_ byte: UInt8) -> Bool { byte < 0x20 && byte != UInt8(ascii: "\t") }
        func replacement(_ byte: UInt8) -> StaticString? {
            switch byte {
            case UInt8(ascii: "&"): "&amp;"
            case UInt8(ascii: "<"): "&lt;"
            case UInt8(ascii: ">"): "&gt;"
            case UInt8(ascii: "\""): "&quot;"
            case UInt8(ascii: "'"): "&apos;"
            default: nil
            }
        }
        guard text.utf8.contains(where: { isControl($0) || replacement($0) != nil }) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 where !isControl(byte) {
            if let replacement = replacement(byte) { replacement.withUTF8Buffer { bytes += $0 } } else { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
