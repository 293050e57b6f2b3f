import Foundation
import HealthwheelCore
import Testing

@testable import healthwheel

/// The demo's sample results: a year of them, one in each calendar month, on any day the demo is created.
@Suite struct DemoCompanyTests {
    @Test func monthlyDatesFallInConsecutiveMonthsWhateverTheDay() throws {
        // Every day of a leap year and of the year after, at the first and last minute of the day (UTC).
        let start = try #require(Calendar.utc.date(from: DateComponents(year: 2024, month: 1, day: 1)))
        for day in 0..<(366 + 365) {
            for minute in [0, 1439] {
                let end = start.addingTimeInterval(Double(day) * 86_400 + Double(minute) * 60)
                let dates = DemoCompany.monthlyDates(12, endingAt: end)
                #expect(dates.last == end)
                let months = dates.map { date in
                    let parts = Calendar.utc.dateComponents([.year, .month], from: date)
                    return parts.year! * 12 + parts.month!
                }
                #expect(months == Array((months[11] - 11)...months[11]), "from \(end): \(dates)")
            }
        }
    }
}
