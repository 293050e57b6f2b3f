import Foundation

/// What a progress report shows of one result: when, the values, the score and the trainer's observations.
/// Reports read thousands of these, so they read only this much.
public struct ResultSummary: Sendable, Equatable, Identifiable {
    /// The result's id: results measured at the same instant are ordered by it.
    public var id: UUID
    /// Which exercise (`push-ups`): a report groups summaries by it.
    public var exerciseId: String
    /// When it was measured: the chart's x-axis.
    public var recordedAt: Date
    /// Every field by key, in stored units (SI).
    public var values: [String: Double]
    /// 0 to 10, one decimal; nil when the result was not scored (the trend chart has no dot for it).
    public var score: Double?
    /// The trainer's notes; nil when there are none.
    public var observations: String?

    /// Builds a summary in code; the result repository reads these straight from its rows.
    public init(id: UUID, exerciseId: String, recordedAt: Date, values: [String: Double], score: Double?, observations: String?) {
        self.id = id
        self.exerciseId = exerciseId
        self.recordedAt = recordedAt
        self.values = values
        self.score = score
        self.observations = observations
    }

    /// The summary of a whole result.
    public init(_ result: AssessmentResult) {
        self.init(
            id: result.id,
            exerciseId: result.exerciseId,
            recordedAt: result.state.recordedAt,
            values: result.state.values,
            score: result.state.score,
            observations: result.state.observations
        )
    }
}
