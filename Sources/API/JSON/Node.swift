/// A JSON value under construction. Containers are classes so nested containers can fill them in place.
enum Node {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array(ArrayBox)
    case object(ObjectBox)
    /// Already-written JSON.
    case raw([UInt8])

    func write(into output: inout [UInt8]) throws {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .raw(let bytes): output.append(contentsOf: bytes)
        case .string(let text): Self.writeString(text, into: &output)
        case .array(let box):
            output.append(UInt8(ascii: "["))
            for (index, item) in box.items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try item.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let box):
            output.append(UInt8(ascii: "{"))
            for (index, entry) in box.entries.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(entry.key, into: &output)
                output.append(UInt8(ascii: ":"))
                try entry.value.write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped; everything else as UTF-8.
    static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C { return false }
            output.append(contentsOf: bytes)  // the common case: nothing to escape, copied whole
            return true
        }
        if plain == true {
            output.append(UInt8(ascii: "\""))
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xf)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

final class ArrayBox {
    var items: [Node]

    init(_ items: [Node] = []) {
        self.items = items
    }
}

final class ObjectBox {
    var entries: [(key: String, value: Node)] = []

    /// Encodable types write each key once; no duplicate check (it made encoding quadratic in the field count).
    func set(_ key: String, _ value: Node) {
        entries.append((key, value))
    }
}
