import Foundation

/// Encodes response bodies to JSON bytes. Foundation's `JSONEncoder` was the largest share of the CPU an
/// authenticated request costs; this one builds a light tree of the value and writes it in one pass.
///
/// Output: object keys in the order the type encodes them (deterministic, unlike a dictionary), dates as
/// RFC 3339 UTC to the second, UUIDs in their canonical upper-case form, `nil` optionals left out (as
/// `encodeIfPresent` does) unless encoded explicitly as `null`. Non-finite numbers are refused, as JSON has none.
struct ResponseJSONEncoder: Sendable {
    func encode(_ value: some Encodable) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(1024)
        try Self.node(for: value).write(into: &output)
        return output
    }

    static func node<T: Encodable>(for value: T) throws -> Node {
        if let scalar = try scalar(value) { return scalar }
        switch value {
        case let preencoded as PreencodedJSON: return .raw(preencoded.bytes)
        case let body as any JSONObjectBody:
            var bytes: [UInt8] = []
            try body.writeJSON(into: &bytes)
            return .raw(bytes)
        case let float as Float: return try number(Double(float))
        case let integer as any BinaryInteger: return .number("\(integer)")
        default:
            let encoder = NodeEncoder()
            try value.encode(to: encoder)
            return encoder.result ?? .object(ObjectBox())
        }
    }

    /// The common leaf types (and their optionals), recognised by type identity: much cheaper than dynamic casts,
    /// which were the largest cost of encoding a list.
    @inline(__always)
    private static func scalar<T>(_ value: T) throws -> Node? {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == String?.self { return unsafeBitCast(value, to: String?.self).map(Node.string) ?? .null }
        if T.self == Date.self { return .string(RFC3339.string(from: unsafeBitCast(value, to: Date.self))) }
        if T.self == Date?.self { return unsafeBitCast(value, to: Date?.self).map { .string(RFC3339.string(from: $0)) } ?? .null }
        if T.self == UUID.self { return .string(uuidText(unsafeBitCast(value, to: UUID.self))) }
        if T.self == UUID?.self { return unsafeBitCast(value, to: UUID?.self).map { .string(uuidText($0)) } ?? .null }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Int.self { return .number(String(unsafeBitCast(value, to: Int.self))) }
        if T.self == Int?.self { return unsafeBitCast(value, to: Int?.self).map { .number(String($0)) } ?? .null }
        if T.self == Double.self { return try number(unsafeBitCast(value, to: Double.self)) }
        if T.self == Double?.self { return try unsafeBitCast(value, to: Double?.self).map(number) ?? .null }
        return nil
    }

    /// The canonical upper-case form, as `uuidString` gives, without its `snprintf`.
    static func uuidText(_ uuid: UUID) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text = [UInt8]()
        text.reserveCapacity(36)
        withUnsafeBytes(of: uuid.uuid) { bytes in
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func number(_ value: Double) throws -> Node {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "JSON has no \(value)"))
        }
        return .number(value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)")
    }
}

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

/// Coding paths are not tracked (they cost an allocation per value); response types have no use for them.
private final class NodeEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var result: Node?

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: ObjectBox
        if case .object(let existing) = result {
            box = existing
        } else {
            box = ObjectBox()
            result = .object(box)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(box: box))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: ArrayBox
        if case .array(let existing) = result {
            box = existing
        } else {
            box = ArrayBox()
            result = .array(box)
        }
        return UnkeyedContainer(box: box)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(encoder: self)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ObjectBox
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { box.set(key.stringValue, .null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.set(key.stringValue, try ResponseJSONEncoder.node(for: value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectBox()
        box.set(key.stringValue, .object(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        box.set(key.stringValue, .array(nested))
        return UnkeyedContainer(box: nested)
    }

    mutating func superEncoder() -> any Encoder { makeSuperEncoder(box: box, key: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { makeSuperEncoder(box: box, key: key.stringValue) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let box: ArrayBox
    var codingPath: [any CodingKey] { [] }
    var count: Int { box.items.count }

    mutating func encodeNil() throws { box.items.append(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        box.items.append(try ResponseJSONEncoder.node(for: value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectBox()
        box.items.append(.object(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        box.items.append(.array(nested))
        return UnkeyedContainer(box: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = NodeEncoder()
        let nested = ObjectBox()
        encoder.result = .object(nested)
        box.items.append(.object(nested))
        return encoder
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { encoder.result = .null }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.result = try ResponseJSONEncoder.node(for: value)
    }
}

/// The encoder a subclass hands to its superclass: it writes into a nested object under `key`.
private func makeSuperEncoder(box: ObjectBox, key: String) -> any Encoder {
    let encoder = NodeEncoder()
    let nested = ObjectBox()
    encoder.result = .object(nested)
    box.set(key, .object(nested))
    return encoder
}
