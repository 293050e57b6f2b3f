import HealthwheelCore
import Hummingbird
import HummingbirdCore
import Services

/// `?limit=` (1…200, default 50) and `?cursor=` of a list request.
struct ListQuery {
    static let maxLimit = 200
    var limit = 50
    var cursor: Cursor?

    init(_ uri: URI) throws {
        let query = uri.queryParameters
        var problems = FieldErrorCollector()
        if let raw = query["limit"] {
            if let value = Int(String(raw)), (1...Self.maxLimit).contains(value) {
                limit = value
            } else {
                problems.add("limit", "must be a whole number from 1 to \(Self.maxLimit)")
            }
        }
        if let raw = query["cursor"] {
            if let cursor = Cursor(token: String(raw)) {
                self.cursor = cursor
            } else {
                problems.add("cursor", "is not a cursor this server gave out")
            }
        }
        try problems.throwIfAny()
    }
}
