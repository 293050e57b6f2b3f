import Foundation

extension UUID {
    /// `xxxxxxxx-xxxx-…` in upper case, as `uppercaseHyphenated` spells it (and the API shows ids), written directly:
    /// Foundation formats it through `snprintf`, several times per recorded result.
    public var uppercaseHyphenated: String { hyphenated(digits: Self.uppercaseDigits) }

    /// The same in lower case: how the store keeps ids.
    public var lowercaseHyphenated: String { hyphenated(digits: Self.lowercaseDigits) }

    /// Parses hyphenated hex in either case directly: Foundation's parser goes through `sscanf`, which was a
    /// visible share of reading a page of clients.
    public init?(hyphenatedHex text: String) {
        var utf8 = text.utf8.makeIterator()
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        func nibble(_ byte: UInt8?) -> UInt8? {
            switch byte {
            case .some(48...57): return byte! - 48
            case .some(97...102): return byte! - 87
            case .some(65...70): return byte! - 55
            default: return nil
            }
        }
        let parsed = withUnsafeMutableBytes(of: &bytes) { buffer -> Bool in
            for index in 0..<16 {
                if Self.hyphenBefore(index) {
                    guard utf8.next() == UInt8(ascii: "-") else { return false }
                }
                guard let high = nibble(utf8.next()), let low = nibble(utf8.next()) else { return false }
                buffer[index] = high << 4 | low
            }
            return utf8.next() == nil
        }
        guard parsed else { return nil }
        self.init(uuid: bytes)
    }

    private static let uppercaseDigits = Array("0123456789ABCDEF".utf8)
    private static let lowercaseDigits = Array("0123456789abcdef".utf8)

    /// Hyphens come before bytes 4, 6, 8 and 10.
    private static func hyphenBefore(_ index: Int) -> Bool { index == 4 || index == 6 || index == 8 || index == 10 }

    private func hyphenated(digits: [UInt8]) -> String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for index in 0..<16 {
                    if Self.hyphenBefore(index) {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = digits[Int(bytes[index] >> 4)]
                    text[position + 1] = digits[Int(bytes[index] & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }
}
