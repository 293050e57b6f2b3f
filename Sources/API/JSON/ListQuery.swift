import HealthwheelCore
import Hummingbird
import HummingbirdCore
import Services
import StoreContract

/// `?limit=` (1…200, default 50; 422 otherwise) and `?cursor=` (a `nextCursor`; 404 for one the server did not
/// give out) of a list request.
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
        try problems.throwIfAny()
        if let raw = uri.parameter("cursor") {
            // Well formed, as any text is; but no page starts there: the page asked for does not exist (404).
            guard let cursor = Cursor(token: raw) else {
                throw Problem(
                    .notFound,
                    slug: "cursor-not-found",
                    detail: "no page starts at this cursor: send a nextCursor this server gave out, or none for the first page",
                    errors: [FieldError("cursor", "is not a cursor this server gave out")]
                )
            }
            self.cursor = cursor
        }
    }
}
