import Foundation
import HealthwheelCore
import Testing

@Suite struct ScreeningDueTests {
    let completed = Date(timeIntervalSince1970: 1_700_000_000)

    func state(_ completed: Date?, draft: Bool = false, at now: Date) -> ScreeningDue {
        ScreeningDue.state(.init(latestCompletedAt: completed, latestCompletedFlags: [], hasDraft: draft), now: now)
    }

    @Test func aClientIsDueAMonthBeforeTheRescreenDateAndOverdueAfterIt() {
        let dueAt = ScreeningOverview.rescreenDueAt(after: completed)
        #expect(state(completed, at: completed.addingTimeInterval(86_400)) == .current)
        #expect(state(completed, at: dueAt.addingTimeInterval(-ScreeningDue.soon - 1)) == .current)
        #expect(state(completed, at: dueAt.addingTimeInterval(-ScreeningDue.soon)) == .due)
        #expect(state(completed, at: dueAt) == .due)
        #expect(state(completed, at: dueAt.addingTimeInterval(1)) == .overdue)
    }

    @Test func neverScreenedAndDraftsNeedAttention() {
        #expect(state(nil, at: completed) == .none && state(nil, draft: true, at: completed) == .draft)
        #expect(ScreeningDue.allCases.filter(\.needsAttention) == [.none, .draft, .due, .overdue])
    }
}
