/// Rendered JSON objects kept compactly. A list renders every client with the same keys in the same order (the
/// API's encoder writes every key of a client, null or not), so the keys are kept once, with their punctuation, and
/// each object's values alone: about 260 bytes a client instead of 520. An object with other keys, or bytes this
/// flat scan does not read as one object, are kept whole. Reading an object back gives exactly the bytes added.
struct RenderedObjects: Sendable {
    /// The keys of the first object with any (each with its quotes, as written), and what goes before each value
    /// when an object is put back together: `{"id":`, `,"companyId":`, …
    private var keys: [[UInt8]] = []
    private var prefixes: [[UInt8]] = []
    private var storage = ChunkedBytes()

    /// How an object is stored: its values, each after its length (LEB128), or its bytes as they came.
    private static let byShape: UInt8 = 1
    private static let whole: UInt8 = 0

    var count: Int { storage.count }

    /// Bytes of memory held.
    var byteCount: Int { storage.byteCount }

    mutating func append(_ object: [UInt8]) {
        if let members = Self.members(of: object), !members.isEmpty {
            if keys.isEmpty {
                keys = members.map { Array(object[$0.key]) }
                prefixes = keys.indices.map { index in [UInt8(ascii: index == 0 ? "{" : ",")] + keys[index] + [UInt8(ascii: ":")] }
            }
            if members.count == keys.count, zip(members, keys).allSatisfy({ object[$0.key].elementsEqual($1) }) {
                var stored: [UInt8] = [Self.byShape]
                stored.reserveCapacity(object.count)
                for member in members {
                    Self.appendLength(member.value.count, to: &stored)
                    stored.append(contentsOf: object[member.value])
                }
                storage.append(stored)
                return
            }
        }
        storage.append(CollectionOfOne(Self.whole) + object)
    }

    mutating func trim() {
        storage.trim()
    }

    subscript(index: Int) -> [UInt8] {
        let stored = storage[index]
        guard stored.first == Self.byShape else { return Array(stored.dropFirst()) }
        var object: [UInt8] = []
        object.reserveCapacity(2 * stored.count)
        var position = stored.startIndex + 1
        for prefix in prefixes {
            object.append(contentsOf: prefix)
            var length = 0
            var shift = 0
            while true {
                let byte = stored[position]
                position += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            object.append(contentsOf: stored[position..<position + length])
            position += length
        }
        object.append(UInt8(ascii: "}"))
        return object
    }

    private static func appendLength(_ length: Int, to bytes: inout [UInt8]) {
        var rest = length
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// The members of a compact JSON object (no whitespace between its tokens): each key with its quotes and each
    /// value, as ranges of `json`; nil when `json` is anything else.
    static func members(of json: [UInt8]) -> [(key: Range<Int>, value: Range<Int>)]? {
        guard json.first == UInt8(ascii: "{"), json.count >= 2 else { return nil }
        var members: [(key: Range<Int>, value: Range<Int>)] = []
        var index = 1
        if json[index] == UInt8(ascii: "}") { return json.count == 2 ? [] : nil }
        while true {
            guard index < json.count, json[index] == UInt8(ascii: "\""), let keyEnd = endOfString(json, from: index) else { return nil }
            let key = index..<keyEnd
            guard keyEnd < json.count, json[keyEnd] == UInt8(ascii: ":") else { return nil }
            let valueStart = keyEnd + 1
            guard let valueEnd = endOfValue(json, from: valueStart), valueEnd > valueStart else { return nil }
            members.append((key, valueStart..<valueEnd))
            index = valueEnd + 1
            switch json[valueEnd] {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return index == json.count ? members : nil
            default: return nil
            }
        }
    }

    /// Just past the string that starts (with its quote) at `start`.
    private static func endOfString(_ json: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        while index < json.count {
            switch json[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return nil
    }

    /// Where the value starting at `start` ends: the index of the `,` or `}` that follows it in its object.
    private static func endOfValue(_ json: [UInt8], from start: Int) -> Int? {
        var depth = 0
        var index = start
        while index < json.count {
            switch json[index] {
            case UInt8(ascii: "\""):
                guard let end = endOfString(json, from: index) else { return nil }
                index = end
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth == 0 { return json[index] == UInt8(ascii: "}") ? index : nil }
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 0 { return index }
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
