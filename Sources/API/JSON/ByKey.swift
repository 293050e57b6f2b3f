import HealthwheelCore

/// `{"key": value}` with keys in sorted order: the same result always encodes to the same bytes.
struct ByKey<Value: Encodable>: Encodable {
    var values: [String: Value]

    init(_ values: [String: Value]) {
        self.values = values
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for key in values.keys.sorted() { try container.encode(values[key]!, forKey: AnyCodingKey(key)) }
    }
}
