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
