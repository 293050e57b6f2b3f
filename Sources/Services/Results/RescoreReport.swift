import HealthwheelCore

/// What a rescore did to each of a client's results.
public struct RescoreReport: Sendable {
    /// How many results the client had: `changed`, `unchanged` and `skipped` add up to it.
    public var checked: Int
    /// Each changed result before and after, as saved.
    public var changed: [(before: AssessmentResult, after: AssessmentResult)] = []
    /// Results the current scripts score exactly as stored: nothing was written for them.
    public var unchanged = 0
    /// Results left as they were, with why: their exercise is no longer in the company's packs, or they changed
    /// while being re-scored.
    public var skipped: [(result: AssessmentResult, reason: String)] = []

    /// An empty report for `checked` results, filled in as the rescore goes.
    public init(checked: Int) {
        self.checked = checked
    }
}
