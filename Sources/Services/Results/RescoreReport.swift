import HealthwheelCore

/// What a rescore did to each of a client's results.
public struct RescoreReport: Sendable {
    public var checked: Int
    /// Each changed result before and after, as saved.
    public var changed: [(before: AssessmentResult, after: AssessmentResult)] = []
    public var unchanged = 0
    /// Results left as they were, with why: their exercise is no longer in the company's packs, or they changed
    /// while being re-scored.
    public var skipped: [(result: AssessmentResult, reason: String)] = []

    public init(checked: Int) {
        self.checked = checked
    }
}
