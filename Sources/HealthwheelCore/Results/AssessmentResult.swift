import Foundation

/// One recorded assessment: the raw values (stored units) always kept, and the score the exercise's script gave
/// for them, or why it gave none.
public struct AssessmentResult: Sendable, Equatable {
    /// Time-ordered (made from `createdAt`), so ids sort roughly by when results were recorded.
    public var id: UUID
    /// The client the result is for; always one of `companyId`'s clients.
    public var clientId: UUID
    /// The company of the client and trainer: every read is scoped to it.
    public var companyId: UUID
    /// `*` for packs every company sees, else the company id: with `exerciseId`, which exercise this is.
    public var exerciseOwner: String
    /// The exercise within its pack (`push-ups`); with `exerciseOwner`, which script scores it.
    public var exerciseId: String
    /// The pack (wheel category) the exercise belonged to when recorded: the wheel slice the score counts for.
    public var categoryId: String
    /// The trainer who recorded it: the one who may delete it besides an admin, and whose quick corrections amend it.
    public var trainerId: UUID
    /// The values, the score and what it was made from: what each change replaces and each revision keeps.
    public var state: ScoredState
    /// When it was first recorded on the server (not when it was measured: that is `recordedAt`).
    public var createdAt: Date
    /// When the last edit, correction or rescore was saved; `createdAt` until then.
    public var updatedAt: Date
    /// 1 when created; each edit, correction or rescore keeps the earlier state and adds one.
    public var revision: Int

    /// A new result at revision 1, not yet scored; `id` nil makes a time-ordered id from `createdAt`.
    /// `AssessmentResults.record` fills its values with a `ResultEdit` and scores it before saving.
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
        /// The revision number this state had while it was current (1 for the first).
        public var revision: Int
        /// The values, score and date as they were.
        public var state: ScoredState
        /// When this state was replaced.
        public var replacedAt: Date
        /// The trainer (or admin, for a rescore) whose change replaced it.
        public var replacedBy: UUID
        /// Why it was replaced.
        public var reason: ChangeReason

        /// Builds a revision in code; the result repository makes these from `result_revisions` rows.
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
