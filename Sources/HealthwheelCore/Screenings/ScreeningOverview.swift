import Foundation

/// What a client's screenings mean at a glance: the status, the latest completed screening's flags, and whether
/// it is time to screen again.
public struct ScreeningOverview: Codable, Sendable, Equatable {
    public var screeningStatus: ScreeningStatusSummary
    public var flags: [String]
    public var lastScreenedAt: Date?
    /// The latest completion is more than 12 months old.
    public var rescreenDue: Bool

    /// The facts the overview is made from.
    public struct Facts: Sendable, Equatable {
        public var latestCompletedAt: Date?
        public var latestCompletedFlags: [String]
        public var hasDraft: Bool

        public init(latestCompletedAt: Date?, latestCompletedFlags: [String], hasDraft: Bool) {
            self.latestCompletedAt = latestCompletedAt
            self.latestCompletedFlags = latestCompletedFlags
            self.hasDraft = hasDraft
        }
    }

    public init(_ facts: Facts, now: Date) {
        lastScreenedAt = facts.latestCompletedAt
        flags = facts.latestCompletedFlags
        if let completed = facts.latestCompletedAt {
            screeningStatus = .completed
            let dueAt = Calendar.utc.date(byAdding: .month, value: 12, to: completed) ?? completed
            rescreenDue = now > dueAt
        } else {
            screeningStatus = facts.hasDraft ? .draft : .none
            rescreenDue = false
        }
    }

    /// Assessments may be recorded only for a client with a completed screening.
    public var allowsAssessments: Bool { screeningStatus == .completed }
}
