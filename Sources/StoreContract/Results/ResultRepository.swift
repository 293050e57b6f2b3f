import Foundation
import HealthwheelCore

/// Assessment results, always inside one company; each change keeps the earlier state as a revision.
public protocol ResultRepository: Sendable {
    /// Inserts the result, with its line in the audit trail (created by its `trainerId` at its `createdAt`); with `answer`, keeps the request's answer under its key in the same transaction
    /// (throws `IdempotencyKeyUsed`, storing nothing, when the key was answered meanwhile).
    func create(_ result: AssessmentResult, keeping answer: IdempotencyRecord?) async throws
    /// `create`, for a result whose id an app chose: in a transaction of its own (never grouped with others', whose
    /// writes a clash must not undo); `RecordIdTaken` when a record has the id already.
    func createWithAppId(_ result: AssessmentResult) async throws
    func find(_ id: UUID, in company: UUID) async throws -> AssessmentResult?
    /// Newest first (recordedAt, then id).
    func list(client: UUID, in company: UUID, filter: ResultFilter, after cursor: Cursor?, limit: Int) async throws -> Page<AssessmentResult>
    /// The client's results recorded from `from` to `to`, newest first, at most `limit`: only what a report shows.
    func summaries(client: UUID, in company: UUID, from: Date, to: Date, limit: Int) async throws -> [ResultSummary]
    /// Every result of the client, oldest first.
    func all(client: UUID, in company: UUID) async throws -> [AssessmentResult]
    /// The newest result `trainer` recorded for the client and exercise since `since`: a quick correction's target.
    func latest(client: UUID, exerciseId: String, trainer: UUID, createdSince since: Date) async throws -> AssessmentResult?
    /// The newest result `trainer` recorded for the client and exercise that was taken (`recordedAt`) within
    /// `period`: a quick correction's target as it was when a result sent later by an app was taken.
    func latest(client: UUID, exerciseId: String, trainer: UUID, takenWithin period: ClosedRange<Date>) async throws -> AssessmentResult?
    /// Saves each `after` over its `before`, keeping `before` as a revision, in one transaction. A result that is
    /// gone, or was changed by someone else since `before` was read, is left alone: its slot in the answer is nil.
    /// Each saved result has revision `before.revision + 1` and `updatedAt == now`, and an audit line (changed by `trainer`). With `answer`, the answer is
    /// kept under its key in the same transaction if every change was saved (see `create`).
    func replace(
        _ changes: [(before: AssessmentResult, after: AssessmentResult)],
        by trainer: UUID,
        reason: AssessmentResult.ChangeReason,
        at now: Date,
        keeping answer: IdempotencyRecord?
    ) async throws -> [AssessmentResult?]
    /// Deletes the result (its revisions and media rows go with it), recording `trainer` as its deleter.
    func delete(_ id: UUID, in company: UUID, by trainer: UUID, at now: Date) async throws -> Bool
    /// Earlier states, oldest first.
    func revisions(of id: UUID) async throws -> [AssessmentResult.Revision]
    /// The earlier states of every result of the client, by result, each oldest first (an export), in one query.
    func revisions(client: UUID, in company: UUID) async throws -> [UUID: [AssessmentResult.Revision]]
    /// What a wheel request needs first, in one point query: the client's results version (moved by triggers on
    /// every change to their results) and the company's flag threshold. Nil when the company has no such client.
    func wheelStamp(client: UUID, in company: UUID) async throws -> WheelStamp?
    /// Per exercise: the newest result with a score, and the newest result at all, with the results version they
    /// are at. One index seek each, so the cost does not grow with the number of past results. With `asOf`, only
    /// results recorded by then count: the wheel as it stood on that day.
    func latestForWheel(client: UUID, exerciseIds: [String], asOf: Date?) async throws -> WheelResults
}
