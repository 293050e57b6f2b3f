import Foundation

/// What a script was given and what it gave: the part of a result that an edit, a quick correction or a rescore
/// replaces, and that each earlier state of the result keeps.
public struct ScoredState: Sendable, Equatable {
    /// The pack version whose script made the score.
    public var packVersion: Int
    /// Stored units (SI), by field key.
    public var values: [String: Double]
    /// The trainer's notes, trimmed, at most 10,000 characters; nil when there are none.
    public var observations: String?
    /// The client as the script saw them; nil when something a score needs was missing.
    public var subject: Subject?
    /// From 0 to 10, one decimal; nil when the script failed or could not run (then `scoreError` says why).
    public var score: Double?
    /// Why there is no score, when there is none.
    public var scoreError: String?
    /// When the assessment was measured, as the trainer gives it (the server's time if not given); the age the script
    /// sees is counted at this date.
    public var recordedAt: Date

    /// A state as recorded; `subject`, `score` and `scoreError` stay nil until `ExerciseScorer` scores it.
    public init(
        packVersion: Int,
        values: [String: Double],
        observations: String?,
        subject: Subject? = nil,
        score: Double? = nil,
        scoreError: String? = nil,
        recordedAt: Date
    ) {
        self.packVersion = packVersion
        self.values = values
        self.observations = observations
        self.subject = subject
        self.score = score
        self.scoreError = scoreError
        self.recordedAt = recordedAt
    }
}
