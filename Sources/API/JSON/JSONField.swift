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
    /// An object of numbers with its keys in sorted order, so that the same values always encode alike.
    case numbers([String: Double])
    case object((any JSONObjectBody)?)
    case encodable((any Encodable)?)
}
