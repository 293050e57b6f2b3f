import HealthwheelCore

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
        case .string(let text): JSONText.writeString(text, into: &output)
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
                JSONText.writeString(entry.key, into: &output)
                output.append(UInt8(ascii: ":"))
                try entry.value.write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
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
