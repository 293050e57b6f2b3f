import Foundation

/// One field's value. Optionals encode as `null`, so every key is always present.
enum JSONField {
    case string(String?)
    case int(Int?)
    case double(Double?)
    case bool(Bool)
    case date(Date?)
    case uuid(UUID?)
    case strings([String])
    case encodable((any Encodable)?)
}
