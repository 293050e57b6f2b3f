import Foundation

/// A day without a time or time zone, such as a birth date: `1985-03-14`.
public struct CalendarDate: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1–9999 (Gregorian), so `description` is always four digits.
    public let year: Int
    /// 1–12.
    public let month: Int
    /// 1–31, valid for the month and year (29 February only in leap years).
    public let day: Int

    /// Nil unless the numbers name a real day of the Gregorian calendar.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`, and also `YYYYMMDD` when `allowCompact` (vCard allows both).
    public init?(_ text: String, allowCompact: Bool = false) {
        let bytes = Array(text.utf8)
        let dash = UInt8(ascii: "-")
        let digits: [UInt8]
        if bytes.count == 10, bytes[4] == dash, bytes[7] == dash {
            digits = Array(bytes[0..<4] + bytes[5..<7] + bytes[8..<10])
        } else if allowCompact, bytes.count == 8 {
            digits = bytes
        } else {
            return nil
        }
        guard digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let number = { (range: Range<Int>) in digits[range].reduce(0) { $0 * 10 + Int($1 - 48) } }
        self.init(year: number(0..<4), month: number(4..<6), day: number(6..<8))
    }

    /// `YYYY-MM-DD`, zero-padded: how the API and the store write a date, and what `init?(_:)` reads back.
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// The UTC calendar day `date` falls on (years 1–9999): `civilDay(of:)`, which every recorded result and
    /// written timestamp asks for (Foundation's calendar took longer than the rest of checking a result).
    public init(_ date: Date) {
        let day = Self.civilDay(of: date)
        self.init(year: day.year, month: day.month, day: day.day)!
    }

    /// The proleptic Gregorian UTC day of `date` and the seconds since its midnight, for any instant: counted
    /// from the days since 1970 (Howard Hinnant's `civil_from_days`), without Foundation's calendar or the C
    /// library's `gmtime_r`, which takes a lock.
    public static func civilDay(of date: Date) -> (year: Int, month: Int, day: Int, secondOfDay: Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let daysSince1970 = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400  // rounded down
        let days = daysSince1970 + 719_468  // from 0000-03-01
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // from 1 March
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 = March
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (
            yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfYear - (153 * shiftedMonth + 2) / 5 + 1,
            seconds - daysSince1970 * 86_400
        )
    }

    /// The day's first instant, midnight UTC: where a period given as days begins.
    public var start: Date {
        Date(timeIntervalSince1970: Double(daysSince1970) * 86_400)
    }

    /// The day's last millisecond (UTC): where a period given as days ends, and the wheel "as of" a day is read.
    public var end: Date {
        start.addingTimeInterval(86_400 - 0.001)
    }

    /// Days from 1970-01-01 to this day (negative before it): Howard Hinnant's `days_from_civil`.
    public var daysSince1970: Int {
        let shiftedYear = month <= 2 ? year - 1 : year  // years start in March
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The instant `months` calendar months after `date` in UTC, as Foundation's calendar adds them: the same
    /// day of the month and time of day, or the month's last day when it is shorter (31 January + 1 → 28 or 29
    /// February). A rescreen falls due 12 months after a screening; every client listed asks.
    public static func adding(months: Int, to date: Date) -> Date {
        let start = civilDay(of: date)
        let monthIndex = start.year * 12 + (start.month - 1) + months
        let (year, month) = (monthIndex / 12, monthIndex % 12 + 1)
        guard let day = CalendarDate(year: year, month: month, day: min(start.day, days(inMonth: month, year: year))) else { return date }
        let fraction = date.timeIntervalSince1970 - date.timeIntervalSince1970.rounded(.down)
        return Date(timeIntervalSince1970: Double(day.daysSince1970 * 86_400 + start.secondOfDay) + fraction)
    }

    /// Whole years from this date until `date` (a person's age on that day).
    public func years(until date: CalendarDate) -> Int {
        var years = date.year - year
        if (date.month, date.day) < (month, day) { years -= 1 }
        return years
    }

    /// Chronological order, so birth dates and result dates compare directly.
    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Reads `YYYY-MM-DD` only (not the compact vCard form); any other string, or a day that does not exist, is an error.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = CalendarDate(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "must be a date as YYYY-MM-DD"))
        }
        self = date
    }

    /// Writes `YYYY-MM-DD`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension Calendar {
    /// The Gregorian calendar in UTC: dates are turned into calendar days (ages, the rescreen date) in UTC everywhere.
    public static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
