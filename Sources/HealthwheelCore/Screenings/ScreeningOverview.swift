import Foundation

/// What a client's screenings mean at a glance: the status, the latest completed screening's flags, and whether
/// it is time to screen again.
public struct ScreeningOverview: Codable, Sendable, Equatable {
    /// Completed when any screening is, else draft when one is started, else none.
    public var screeningStatus: ScreeningStatusSummary
    /// The flags of the latest completed (or amended) screening; empty when none is completed.
    public var flags: [String]
    /// When the latest screening was completed; nil when none is.
    public var lastScreenedAt: Date?
    /// The latest completion is more than 12 months old.
    public var rescreenDue: Bool

    /// The facts the overview is made from.
    public struct Facts: Sendable, Equatable {
        /// When the newest completed screening was completed; nil when none is.
        public var latestCompletedAt: Date?
        /// That screening's flags, as raised at completion or the last amendment.
        public var latestCompletedFlags: [String]
        /// True when a screening is started but not completed.
        public var hasDraft: Bool

        /// Builds facts in code; the client repository reads them with every client record.
        public init(latestCompletedAt: Date?, latestCompletedFlags: [String], hasDraft: Bool) {
            self.latestCompletedAt = latestCompletedAt
            self.latestCompletedFlags = latestCompletedFlags
            self.hasDraft = hasDraft
        }
    }

    /// Sums up `facts` as of `now`: a rescreen is due 12 calendar months (UTC) after the latest completion.
    public init(_ facts: Facts, now: Date) {
        lastScreenedAt = facts.latestCompletedAt
        flags = facts.latestCompletedFlags
        if let completed = facts.latestCompletedAt {
            screeningStatus = .completed
            rescreenDue = now > Self.rescreenDueAt(after: completed)
        } else {
            screeningStatus = facts.hasDraft ? .draft : .none
            rescreenDue = false
        }
    }

    /// When a client screened at `completed` should be screened again: 12 calendar months later (UTC).
    public static func rescreenDueAt(after completed: Date) -> Date {
        CalendarDate.adding(months: 12, to: completed)
    }

    /// Assessments may be recorded only for a client with a completed screening.
    public var allowsAssessments: Bool { screeningStatus == .completed }
}
