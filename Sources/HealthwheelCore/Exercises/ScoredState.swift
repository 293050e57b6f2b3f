import Foundation

/// What a script was given and what it gave: the part of a result that an edit, a quick correction or a rescore
/// replaces, and that each earlier state of the result keeps.
public struct ScoredState: Sendable, Equatable {
    /// The pack version whose script made the score.
    public var packVersion: Int
    /// Stored units (SI), by field key.
    public var values: [String: Double]
    public var observations: String?
    /// The client as the script saw them; nil when something a score needs was missing.
    public var subject: Subject?
    public var score: Double?
    /// Why there is no score, when there is none.
    public var scoreError: String?
    public var recordedAt: Date

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
