import Foundation
import HealthwheelCore

/// Encodes response bodies to JSON bytes. Foundation's `JSONEncoder` was the largest share of the CPU an
/// authenticated request costs; this one builds a light tree of the value and writes it in one pass.
///
/// Output: object keys in the order the type encodes them (deterministic, unlike a dictionary), dates as
/// RFC 3339 UTC to the second, UUIDs in their canonical upper-case form, `nil` optionals as `null` (also through
/// `encodeIfPresent`, so every key of a response is always present; a key that belongs only to some answers is
/// left out by not encoding it). Non-finite numbers are refused, as JSON has none.
struct ResponseJSONEncoder: Sendable {
    func encode(_ value: some Encodable) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        // An object with a fast path writes straight into the answer, not into bytes of its own first.
        if let body = value as? any JSONObjectBody {
            try body.writeJSON(into: &output)
        } else {
            try Self.node(for: value).write(into: &output)
        }
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
        if T.self == UUID.self { return .string(unsafeBitCast(value, to: UUID.self).uppercaseHyphenated) }
        if T.self == UUID?.self { return unsafeBitCast(value, to: UUID?.self).map { .string($0.uppercaseHyphenated) } ?? .null }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Int.self { return .number(String(unsafeBitCast(value, to: Int.self))) }
        if T.self == Int?.self { return unsafeBitCast(value, to: Int?.self).map { .number(String($0)) } ?? .null }
        if T.self == Double.self { return try number(unsafeBitCast(value, to: Double.self)) }
        if T.self == Double?.self { return try unsafeBitCast(value, to: Double?.self).map(number) ?? .null }
        return nil
    }

    static func number(_ value: Double) throws -> Node {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "JSON has no \(value)"))
        }
        return .number(value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)")
    }
}
