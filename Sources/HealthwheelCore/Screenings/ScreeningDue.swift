import Foundation

/// Where a client stands with screening, as a trainer plans their week: never screened, a draft open, due soon
/// (within `soon` of the rescreen date), overdue (past it), or current.
public enum ScreeningDue: String, Sendable, CaseIterable {
    case none, draft, due, overdue, current

    /// How long before the rescreen date a client counts as due: a month, time to book the session.
    public static let soon: TimeInterval = 30 * 86_400

    /// The state at `now` of a client whose screenings are `facts`.
    public static func state(_ facts: ScreeningOverview.Facts, now: Date) -> ScreeningDue {
        guard let completed = facts.latestCompletedAt else { return facts.hasDraft ? .draft : .none }
        let dueAt = ScreeningOverview.rescreenDueAt(after: completed)
        if now > dueAt { return .overdue }
        if dueAt.timeIntervalSince(now) <= soon { return .due }
        return .current
    }

    /// Whether a trainer should act on it: every state but `current`.
    public var needsAttention: Bool { self != .current }
}
