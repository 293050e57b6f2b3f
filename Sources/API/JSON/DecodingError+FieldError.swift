import HealthwheelCore

extension DecodingError {
    /// Which field is wrong and why, in a client's words.
    var fieldError: FieldError {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let keys = codingPath + (last.map { [$0] } ?? [])
            return keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch self {
        case .keyNotFound(let key, let context):
            return FieldError(path(context.codingPath, key), "is required")
        case .valueNotFound(_, let context):
            return FieldError(path(context.codingPath), "must not be null")
        case .typeMismatch(let type, let context):
            return FieldError(path(context.codingPath), "must be \(Self.describe(type))")
        case .dataCorrupted(let context):
            return FieldError(path(context.codingPath), context.debugDescription)
        @unknown default:
            return FieldError("", "is invalid")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "a \(type)".lowercased()
        }
    }
}
