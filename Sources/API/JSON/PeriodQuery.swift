import Foundation
import HealthwheelCore
import HummingbirdCore

/// `?from=&to=`: RFC 3339 instants or whole days (`2027-01-15`, from its start to its end, UTC), for result
/// lists and reports. Either may be left out; both bad ones are named at once. A period that ends before it starts
/// is no error but holds nothing: a list filtered by it is an empty page and a report of it shows no results, as a
/// rule JSON Schema cannot state (two fields compared) should not refuse a request the schema calls valid.
struct PeriodQuery {
    var from: Date?
    var to: Date?

    init(_ uri: URI) throws {
        self = try Self(from: uri.parameter("from"), to: uri.parameter("to"), field: { $0 })
    }

    /// The period from its two texts; `field` names each in an error (`period.from` in a body).
    init(from rawFrom: String?, to rawTo: String?, field: (String) -> String) throws {
        var problems = FieldErrorCollector()
        func instant(_ raw: String?, _ name: String, endOfDay: Bool) -> Date? {
            guard let raw else { return nil }
            if let date = RFC3339.date(from: raw) { return date }
            if let day = CalendarDate(raw) { return endOfDay ? day.end : day.start }
            problems.add(field(name), "must be an RFC 3339 time or a date as YYYY-MM-DD")
            return nil
        }
        from = instant(rawFrom, "from", endOfDay: false)
        to = instant(rawTo, "to", endOfDay: true)
        try problems.throwIfAny()
    }
}
