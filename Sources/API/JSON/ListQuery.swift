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
        var problems = FieldErrorCollector()
        if let raw = uri.parameter("limit", blankIsAbsent: false) {
            if let value = Int(digits: raw), (1...Self.maxLimit).contains(value) {
                limit = value
            } else {
                problems.add("limit", "must be a whole number from 1 to \(Self.maxLimit)")
            }
        }
        if let raw = uri.parameter("cursor") {
            if let cursor = Cursor(token: raw) {
                self.cursor = cursor
            } else {
                problems.add("cursor", "is not a cursor this server gave out")
            }
        }
        try problems.throwIfAny()
    }
}
