import Foundation
import HealthwheelCore
import Testing

/// `ScreeningOverview`: where a client stands with screening, at a glance.
@Suite struct ScreeningOverviewTests {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// 2027-01-15T08:00:00Z
    static let completedAt = Date(timeIntervalSince1970: 1_800_000_000)
    /// 2028-01-15T08:00:00Z, exactly 12 months later.
    static let twelveMonthsLater = utc.date(byAdding: .month, value: 12, to: completedAt)!

    static func overview(completedAt: Date? = nil, flags: [String] = [], hasDraft: Bool = false, now: Date) -> ScreeningOverview {
        ScreeningOverview(.init(latestCompletedAt: completedAt, latestCompletedFlags: flags, hasDraft: hasDraft), now: now)
    }

    @Test func aClientNeverScreenedHasStatusNone() {
        let overview = Self.overview(now: Self.completedAt)
        #expect(overview.screeningStatus == ScreeningStatusSummary.none)
        #expect(overview.flags == [])
        #expect(!overview.rescreenDue)
        #expect(overview.lastScreenedAt == nil)
        #expect(!overview.allowsAssessments)
    }

    @Test func aStartedScreeningIsADraft() {
        let overview = Self.overview(hasDraft: true, now: Self.completedAt)
        #expect(overview.screeningStatus == .draft)
        #expect(!overview.rescreenDue)
        #expect(!overview.allowsAssessments)
    }

    @Test func aCompletedScreeningCarriesItsFlags() {
        let overview = Self.overview(completedAt: Self.completedAt, flags: ["smoker", "injury"], now: Self.completedAt.addingTimeInterval(60))
        #expect(overview.screeningStatus == .completed)
        #expect(overview.flags == ["smoker", "injury"])
        #expect(overview.lastScreenedAt == Self.completedAt)
        #expect(overview.allowsAssessments)
    }

    @Test func aNewDraftBesideACompletedScreeningStaysCompleted() {
        let overview = Self.overview(completedAt: Self.completedAt, flags: ["smoker"], hasDraft: true, now: Self.completedAt)
        #expect(overview.screeningStatus == .completed)
        #expect(overview.flags == ["smoker"])
    }

    @Test func rescreeningIsNotDueAtExactlyTwelveMonths() {
        #expect(Self.twelveMonthsLater == Date(timeIntervalSince1970: 1_831_536_000))
        #expect(!Self.overview(completedAt: Self.completedAt, now: Self.twelveMonthsLater).rescreenDue)
        #expect(!Self.overview(completedAt: Self.completedAt, now: Self.completedAt.addingTimeInterval(364 * 86_400)).rescreenDue)
    }

    @Test func rescreeningIsDueOnceTwelveMonthsHavePassed() {
        #expect(Self.overview(completedAt: Self.completedAt, now: Self.twelveMonthsLater.addingTimeInterval(1)).rescreenDue)
        #expect(Self.overview(completedAt: Self.completedAt, now: Self.twelveMonthsLater.addingTimeInterval(86_400)).rescreenDue)
    }

    @Test func twelveMonthsCountCalendarMonthsAcrossALeapYear() {
        // 2027-03-01 + 12 months is 2028-03-01: 366 days, because 2028 has a 29 February.
        let completed = Self.utc.date(from: DateComponents(year: 2027, month: 3, day: 1))!
        #expect(!Self.overview(completedAt: completed, now: completed.addingTimeInterval(365 * 86_400 + 1)).rescreenDue)
        #expect(Self.overview(completedAt: completed, now: completed.addingTimeInterval(366 * 86_400 + 1)).rescreenDue)
    }
}
