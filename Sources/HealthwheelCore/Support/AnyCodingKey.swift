/// Any member name of a JSON object, for objects whose keys are data rather than a fixed set (answers, values by
/// field, the keys a strict body checks).
public struct AnyCodingKey: CodingKey, Sendable {
    public let stringValue: String
    public var intValue: Int? { nil }

    public init(_ name: String) { stringValue = name }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}
