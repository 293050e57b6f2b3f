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
    public var trainerId: UUID
    /// The values, the score and what it was made from: what each change replaces and each revision keeps.
    public var state: ScoredState
    public var createdAt: Date
    public var updatedAt: Date
    /// 1 when created; each edit, correction or rescore keeps the earlier state and adds one.
    public var revision: Int

    public init(
        id: UUID? = nil,
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
        self.id = id ?? .timeOrdered(at: createdAt)
        self.clientId = clientId
        self.companyId = companyId
        self.exerciseOwner = exerciseOwner
        self.exerciseId = exerciseId
        self.categoryId = categoryId
        self.trainerId = trainerId
        self.state = ScoredState(packVersion: packVersion, values: values, observations: observations, recordedAt: recordedAt)
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
        public var state: ScoredState
        public var replacedAt: Date
        public var replacedBy: UUID
        public var reason: ChangeReason

        public init(revision: Int, state: ScoredState, replacedAt: Date, replacedBy: UUID, reason: ChangeReason) {
            self.revision = revision
            self.state = state
            self.replacedAt = replacedAt
            self.replacedBy = replacedBy
            self.reason = reason
        }
    }
}

extension AssessmentResult: HoldsScoredState {}
extension AssessmentResult.Revision: HoldsScoredState {}
