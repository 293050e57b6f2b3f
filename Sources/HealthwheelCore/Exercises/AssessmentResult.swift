import Foundation

/// One recorded assessment: the raw values (stored units) always kept, and the score the exercise's script gave
/// for them, or why it gave none.
public struct AssessmentResult: Sendable, Equatable {
    public var id: UUID
    public var clientId: UUID
    public var companyId: UUID
    /// `*` for packs every company sees, else the company id: with `exerciseId`, which exercise this is.
    public var exerciseOwner: String
    public var exerciseId: String
    public var categoryId: String
    /// The pack version whose script made the score.
    public var packVersion: Int
    public var trainerId: UUID
    public var values: [String: Double]
    public var observations: String?
    /// The client as the script saw them; nil when something a score needs was missing.
    public var subject: Subject?
    public var score: Double?
    public var scoreError: String?
    public var recordedAt: Date
    public var createdAt: Date
    public var updatedAt: Date
    /// 1 when created; each edit, correction or rescore keeps the earlier state and adds one.
    public var revision: Int

    public init(
        id: UUID = UUID(),
        clientId: UUID,
        companyId: UUID,
        exerciseOwner: String,
        exerciseId: String,
        categoryId: String,
        packVersion: Int,
        trainerId: UUID,
        values: [String: Double],
        observations: String?,
        recordedAt: Date,
        createdAt: Date
    ) {
        self.id = id
        self.clientId = clientId
        self.companyId = companyId
        self.exerciseOwner = exerciseOwner
        self.exerciseId = exerciseId
        self.categoryId = categoryId
        self.packVersion = packVersion
        self.trainerId = trainerId
        self.values = values
        self.observations = observations
        self.recordedAt = recordedAt
        self.createdAt = createdAt
        self.updatedAt = createdAt
        self.revision = 1
    }

    /// Why an earlier state of a result was replaced.
    public enum ChangeReason: String, Codable, Sendable {
        /// A trainer edited it (PATCH).
        case edit
        /// A quick correction: the same trainer re-entered it within the correction window.
        case correction
        /// An admin re-scored it with the current pack version.
        case rescore
    }

    /// An earlier state of a result, and who replaced it when and why.
    public struct Revision: Sendable, Equatable {
        public var revision: Int
        public var packVersion: Int
        public var values: [String: Double]
        public var observations: String?
        public var subject: Subject?
        public var score: Double?
        public var scoreError: String?
        public var recordedAt: Date
        public var replacedAt: Date
        public var replacedBy: UUID
        public var reason: ChangeReason

        public init(
            revision: Int,
            packVersion: Int,
            values: [String: Double],
            observations: String?,
            subject: Subject?,
            score: Double?,
            scoreError: String?,
            recordedAt: Date,
            replacedAt: Date,
            replacedBy: UUID,
            reason: ChangeReason
        ) {
            self.revision = revision
            self.packVersion = packVersion
            self.values = values
            self.observations = observations
            self.subject = subject
            self.score = score
            self.scoreError = scoreError
            self.recordedAt = recordedAt
            self.replacedAt = replacedAt
            self.replacedBy = replacedBy
            self.reason = reason
        }

        public init(of result: AssessmentResult, replacedAt: Date, replacedBy: UUID, reason: ChangeReason) {
            revision = result.revision
            packVersion = result.packVersion
            values = result.values
            observations = result.observations
            subject = result.subject
            score = result.score
            scoreError = result.scoreError
            recordedAt = result.recordedAt
            self.replacedAt = replacedAt
            self.replacedBy = replacedBy
            self.reason = reason
        }
    }
}
