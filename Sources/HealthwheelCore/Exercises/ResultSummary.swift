import Foundation

/// What a progress report shows of one result: when, the values, the score and the trainer's observations.
/// Reports read thousands of these, so they read only this much.
public struct ResultSummary: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var exerciseId: String
    public var recordedAt: Date
    public var values: [String: Double]
    public var score: Double?
    public var observations: String?

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
