import Foundation
import HealthwheelCore

/// RFC 3339 timestamps: written in UTC to the second (`2026-11-22T09:30:00Z`), read in the whole grammar.
/// By hand, because Foundation's formatter and parser were a measurable share of every response and every POST.
enum RFC3339 {
    static func string(from date: Date) -> String {
        let day = CalendarDate.civilDay(of: date)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var remaining = value
            while divisor > 0 {
                bytes.append(UInt8(48 + remaining / divisor % 10))
                remaining %= divisor
                divisor /= 10
            }
        }
        // Years outside 1–9999 have no four-digit form; the store and the API never hold one.
        digits(min(max(day.year, 0), 9999), 4)
        bytes.append(UInt8(ascii: "-"))
        digits(day.month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day.day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(day.secondOfDay / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(day.secondOfDay / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(day.secondOfDay % 60, 2)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The `.custom` date decoding strategy for request bodies: any RFC 3339 `date-time` (`date(from:)`), with
    /// `.iso8601`'s error otherwise.
    @Sendable static func decode(_ decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        if let date = date(from: try container.decode(String.self)) { return date }
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected date string to be ISO8601-formatted.")
    }

    /// An RFC 3339 `date-time` (section 5.6) exactly as the contract's `format: date-time` promises:
    /// `YYYY-MM-DD(T|t)HH:MM:SS[.fraction](Z|z|±HH:MM)` in the proleptic Gregorian calendar, every part in range
    /// (a leap second, `:60`, is read as the next second); else nil. Read by hand: Foundation's parser was a
    /// measurable share of a result POST, refuses fractions of a second and lower-case `t`/`z`, and lets through
    /// forms the grammar does not have (`+2:00`, `:61`, a trailing space).
    static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] | 0x20 == UInt8(ascii: "t"),
                bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
            else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? {
                guard start + count <= bytes.count else { return nil }
                var value = 0
                for index in start..<(start + count) {
                    let digit = Int(bytes[index]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
                let minute = number(14, 2), let second = number(17, 2), (1...12).contains(month), hour < 24, minute < 60, second <= 60,
                (1...daysIn(month, of: year)).contains(day)
            else { return nil }
            var index = 19
            var fraction = 0.0
            if bytes[index] == UInt8(ascii: ".") {
                index += 1
                var scale = 0.1
                let start = index
                while index < bytes.count, (48...57).contains(bytes[index]) {
                    fraction += Double(bytes[index] - 48) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start, index < bytes.count else { return nil }
            }
            var offset = 0
            switch bytes[index] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                guard index + 1 == bytes.count else { return nil }
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"), let hours = number(index + 1, 2),
                    let minutes = number(index + 4, 2),
                    hours < 24, minutes < 60
                else { return nil }
                offset = (bytes[index] == UInt8(ascii: "+") ? 1 : -1) * (hours * 3_600 + minutes * 60)
            default:
                return nil
            }
            let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second - offset
            return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
        }
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
