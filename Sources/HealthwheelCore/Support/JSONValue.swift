/// Any JSON value. Questionnaire answers are stored and exchanged as these, because a form's fields are data,
/// not Swift types.
public enum JSONValue: Codable, Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Reads any JSON value; numbers become `Double` (integers beyond 2⁵³ lose precision), and `true` stays a Boolean.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Writes the value back as the JSON it came from (numbers as `Double`). An object's members are written in
    /// key order: a dictionary's own order changes from one copy to the next, and the same answers must read the
    /// same every time (caches, ETags and people comparing two reads).
    public func encode(to encoder: any Encoder) throws {
        if case .object(let members) = self {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for key in members.keys.sorted() { try container.encode(members[key]!, forKey: AnyCodingKey(key)) }
            return
        }
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object: break
        }
    }

    /// The text when this is a string; nil for any other value.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number when this is a number; nil for any other value, a numeric string included.
    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The Boolean when this is `true` or `false`; nil for any other value.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements when this is an array; nil for any other value.
    public var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The member `key` of an object; nil for anything else.
    public subscript(key: String) -> JSONValue? {
        object?[key]
    }

    /// The members when this is an object; nil for any other value.
    public var object: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }
}

/// Literals, so that documents built in code (the OpenAPI schemas, tests) read like the JSON they make.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
