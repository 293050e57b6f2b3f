import Foundation
import HealthwheelCore
import Testing

@Suite struct CalendarDateTests {
    static func date(_ text: String) throws -> CalendarDate {
        try #require(CalendarDate(text))
    }

    @Test func parsesYearMonthDay() throws {
        let date = try Self.date("1985-03-14")
        #expect(date.year == 1985)
        #expect(date.month == 3)
        #expect(date.day == 14)
        #expect(date.description == "1985-03-14")
    }

    @Test func writesFourDigitYearsAndTwoDigitMonthsAndDays() throws {
        #expect(try #require(CalendarDate(year: 987, month: 1, day: 5)).description == "0987-01-05")
    }

    @Test func compactFormIsRefusedUnlessAllowed() throws {
        #expect(CalendarDate("19850314") == nil)
        let compact = try #require(CalendarDate("19850314", allowCompact: true))
        #expect(compact == CalendarDate(year: 1985, month: 3, day: 14))
    }

    @Test func compactFormStillNeedsARealDay() {
        #expect(CalendarDate("19851314", allowCompact: true) == nil)
        #expect(CalendarDate("1985031", allowCompact: true) == nil)
    }

    @Test func february29ExistsOnlyInLeapYears() {
        #expect(CalendarDate("2024-02-29") != nil)
        #expect(CalendarDate("2000-02-29") != nil)
        #expect(CalendarDate("2023-02-29") == nil)
        #expect(CalendarDate("1900-02-29") == nil)
    }

    @Test func invalidMonthsAndDaysAreRefused() {
        #expect(CalendarDate("2024-13-01") == nil)
        #expect(CalendarDate("2024-00-10") == nil)
        #expect(CalendarDate("2024-04-31") == nil)
        #expect(CalendarDate("2024-01-00") == nil)
        #expect(CalendarDate("2024-01-32") == nil)
    }

    @Test func otherShapesAreRefused() {
        #expect(CalendarDate("2024-1-05") == nil)
        #expect(CalendarDate("14/03/1985") == nil)
        #expect(CalendarDate("1985-03-14T00:00:00Z") == nil)
        #expect(CalendarDate("198a-03-14") == nil)
        #expect(CalendarDate("+985-03-14") == nil)
        #expect(CalendarDate("") == nil)
    }

    @Test func theDayOfADateIsItsUTCDay() throws {
        // 2027-01-15T23:30:00Z is still the 15th in UTC.
        let date = Date(timeIntervalSince1970: 1_800_055_800)
        #expect(CalendarDate(date) == (try Self.date("2027-01-15")))
    }

    /// Foundation's Gregorian calendar turns Julian before October 1582; CalendarDate is proleptic Gregorian (its
    /// leap years throughout), so the two are compared from 1583 on, and the earlier days are walked one by one.
    @Test func theDayOfADateIsTheOneFoundationsCalendarGives() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var generator = SystemRandomNumberGenerator()
        let start = calendar.date(from: DateComponents(year: 1583, month: 1, day: 1))!.timeIntervalSince1970
        let end = 253_402_300_799.0  // 9999-12-31T23:59:59Z
        var instants = (0..<20_000).map { _ in Double.random(in: start...end, using: &generator).rounded(.down) }
        for year in [1600, 1900, 1969, 1970, 2000, 2024, 2100, 9999] {
            for (month, day) in [(1, 1), (2, 28), (2, 29), (3, 1), (12, 31)] {
                guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { continue }
                instants += [date.timeIntervalSince1970, date.timeIntervalSince1970 - 1, date.timeIntervalSince1970 + 86_399]
            }
        }
        for instant in instants where (start...end).contains(instant) {
            let date = Date(timeIntervalSince1970: instant)
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            #expect(CalendarDate(date) == CalendarDate(year: parts.year!, month: parts.month!, day: parts.day!), "\(instant)")
        }
    }

    @Test func daysBefore1583FollowEachOtherWithGregorianLeapYears() {
        var expected = CalendarDate(year: 1, month: 1, day: 1)!
        var noon = -62_135_596_800.0 + 43_200  // 0001-01-01T12:00:00Z, proleptic Gregorian
        while expected.year < 1583 {
            let day = CalendarDate(Date(timeIntervalSince1970: noon))
            guard day == expected else {
                Issue.record("\(noon): \(day), expected \(expected)")
                return
            }
            expected =
                CalendarDate(year: expected.year, month: expected.month, day: expected.day + 1)
                ?? CalendarDate(year: expected.year, month: expected.month + 1, day: 1)
                ?? CalendarDate(year: expected.year + 1, month: 1, day: 1)!
            noon += 86_400
        }
    }

    @Test func monthsAreAddedAsFoundationsCalendarAddsThem() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var generator = SystemRandomNumberGenerator()
        var instants = (0..<5_000).map { _ in Double.random(in: -2_208_988_800...4_102_444_800, using: &generator) }
        for year in [1996, 2000, 2023, 2024, 2100] {
            for (month, day) in [(1, 31), (2, 29), (2, 28), (3, 31), (8, 31), (12, 31)] {
                if let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 23, minute: 59, second: 59)) {
                    instants.append(date.timeIntervalSince1970 + 0.5)
                }
            }
        }
        for instant in instants {
            let date = Date(timeIntervalSince1970: instant)
            for months in [1, 12, 13, -1] {
                #expect(
                    CalendarDate.adding(months: months, to: date) == calendar.date(byAdding: .month, value: months, to: date),
                    "\(instant) + \(months)"
                )
            }
        }
        for day in [
            CalendarDate(year: 1, month: 1, day: 1)!, CalendarDate(year: 1970, month: 1, day: 1)!, CalendarDate(year: 2024, month: 2, day: 29)!,
        ] {
            #expect(CalendarDate(Date(timeIntervalSince1970: Double(day.daysSince1970) * 86_400)) == day)
        }
    }

    @Test func datesCompareByDay() throws {
        #expect(try Self.date("1985-03-14") < (try Self.date("1985-03-15")))
        #expect(try Self.date("1985-12-31") < (try Self.date("1986-01-01")))
        #expect(!(try Self.date("1986-01-01") < (try Self.date("1985-12-31"))))
    }

    @Test func yearsUntilCountsOnlyCompletedBirthdays() throws {
        let born = try Self.date("2000-06-15")
        #expect(born.years(until: try Self.date("2024-06-14")) == 23)
        #expect(born.years(until: try Self.date("2024-06-15")) == 24)
        #expect(born.years(until: try Self.date("2024-12-31")) == 24)
        #expect(born.years(until: try Self.date("2025-01-01")) == 24)
        #expect(born.years(until: born) == 0)
    }

    @Test func aLeapDayBirthdayCountsFromMarch1stInOtherYears() throws {
        let born = try Self.date("2000-02-29")
        #expect(born.years(until: try Self.date("2023-02-28")) == 22)
        #expect(born.years(until: try Self.date("2023-03-01")) == 23)
        #expect(born.years(until: try Self.date("2024-02-29")) == 24)
    }

    @Test func decodesAndEncodesAsText() throws {
        let decoded = try JSONDecoder().decode([CalendarDate].self, from: Data(#"["1985-03-14"]"#.utf8))
        #expect(decoded == [try Self.date("1985-03-14")])
        #expect(String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self) == #"["1985-03-14"]"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CalendarDate].self, from: Data(#"["1985-02-30"]"#.utf8)) }
    }
}
