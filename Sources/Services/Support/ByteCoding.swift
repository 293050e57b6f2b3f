import Foundation

/// Values written one after another into bytes and read back in the same order: how a cached rendering that is
/// data, not text (a client page's wheel and trends), is kept compactly and read back without a parser.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func write(_ value: Int) {
        var rest = UInt64(bitPattern: Int64(value))
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func write(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ value: Double?) {
        write(value != nil)
        if let value { write(value) }
    }

    mutating func write(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    mutating func write(_ text: String) {
        write(text.utf8.count)
        bytes.append(contentsOf: text.utf8)
    }
}

/// Reads what a `ByteWriter` wrote, in the same order.
struct ByteReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func int() -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            shift += 7
            if byte < 0x80 { break }
        }
        return Int(Int64(bitPattern: value))
    }

    mutating func double() -> Double {
        var pattern: UInt64 = 0
        for index in 0..<8 { pattern |= UInt64(bytes[position + index]) << (8 * UInt64(index)) }
        position += 8
        return Double(bitPattern: pattern)
    }

    mutating func optionalDouble() -> Double? {
        bool() ? double() : nil
    }

    mutating func bool() -> Bool {
        defer { position += 1 }
        return bytes[position] != 0
    }

    mutating func string() -> String {
        let count = int()
        defer { position += count }
        return String(decoding: bytes[position..<position + count], as: UTF8.self)
    }
}
