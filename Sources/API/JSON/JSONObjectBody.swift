import Foundation
import HealthwheelCore

/// A response object whose fields are listed once, as data: `ResponseJSONEncoder` writes it straight to bytes
/// (the hot path for lists of clients), and the `Encodable` conformance derived from the same list serves every
/// other encoder.
protocol JSONObjectBody: Encodable {
    var jsonFields: [(key: String, value: JSONField)] { get }
}

extension JSONObjectBody {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for (name, value) in jsonFields {
            let key = AnyCodingKey(name)
            switch value {
            case .string(let value): try container.encode(value, forKey: key)
            case .int(let value): try container.encode(value, forKey: key)
            case .double(let value): try container.encode(value, forKey: key)
            case .bool(let value): try container.encode(value, forKey: key)
            case .date(let value): try container.encode(value, forKey: key)
            case .uuid(let value): try container.encode(value, forKey: key)
            case .strings(let value): try container.encode(value, forKey: key)
            case .numbers(let value): try container.encode(ByKey(value), forKey: key)
            case .object(let value):
                if let value { try container.encode(value, forKey: key) } else { try container.encodeNil(forKey: key) }
            case .encodable(let value):
                if let value { try container.encode(value, forKey: key) } else { try container.encodeNil(forKey: key) }
            }
        }
    }

    /// The object as JSON bytes, written directly.
    func writeJSON(into output: inout [UInt8]) throws {
        output.append(UInt8(ascii: "{"))
        for (index, (name, value)) in jsonFields.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONText.writeString(name, into: &output)
            output.append(UInt8(ascii: ":"))
            switch value {
            case .string(let value): try (value.map(Node.string) ?? .null).write(into: &output)
            case .int(let value): output.append(contentsOf: (value.map(String.init) ?? "null").utf8)
            case .double(let value): try (value.map(ResponseJSONEncoder.number) ?? .null).write(into: &output)
            case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
            case .date(let value): try (value.map { .string(RFC3339.string(from: $0)) } ?? Node.null).write(into: &output)
            case .uuid(let value): try (value.map { .string($0.uppercaseHyphenated) } ?? Node.null).write(into: &output)
            case .strings(let values): try Node.array(ArrayBox(values.map(Node.string))).write(into: &output)
            case .numbers(let values):
                output.append(UInt8(ascii: "{"))
                for (index, key) in values.keys.sorted().enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    JSONText.writeString(key, into: &output)
                    output.append(UInt8(ascii: ":"))
                    try ResponseJSONEncoder.number(values[key]!).write(into: &output)
                }
                output.append(UInt8(ascii: "}"))
            case .object(let value):
                if let value { try value.writeJSON(into: &output) } else { try Node.null.write(into: &output) }
            case .encodable(let value):
                if let value { try ResponseJSONEncoder.node(for: value).write(into: &output) } else { try Node.null.write(into: &output) }
            }
        }
        output.append(UInt8(ascii: "}"))
    }
}
