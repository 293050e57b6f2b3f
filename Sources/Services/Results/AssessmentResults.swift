import Foundation
import HealthwheelCore
import StoreContract

/// Clients' assessment results: recorded, changed and re-scored with the exercise's current script, each change
/// keeping the earlier state in the result's history.
public struct AssessmentResults: Sendable {
    let clients: any ClientRepository
    let companies: any CompanyRepository
    let audit: any AuditRepository
    let results: any ResultRepository
    /// Removes the files of media that a delete took with it (nil where no media are kept, as in some tests).
    let mediaFiles: MediaFileRemover?
    let catalog: ExerciseCatalog
    let scorer: ExerciseScorer
    let clock: any WallClock
    /// Pages of results as the API rendered them (`renderedList`).
    let renderedPages = ClientRenderings(maxBytes: 16 << 20)

    /// One per process (`UseCases` builds it); scores through `scorer` with the catalog's current pack versions.
    public init(store: Repositories, catalog: ExerciseCatalog, scorer: ExerciseScorer, clock: any WallClock, mediaFiles: MediaFileRemover? = nil) {
        self.mediaFiles = mediaFiles
        self.clients = store.clients
        self.companies = store.companies
        self.audit = store.audit
        self.results = store.results
        self.catalog = catalog
        self.scorer = scorer
        self.clock = clock
    }

    /// The result, if it is one of `company`'s.
    public func result(_ id: UUID, in company: UUID) async throws -> AssessmentResult {
        guard let result = try await results.find(id, in: company) else { throw ServiceError.notFound("result") }
        return result
    }

    /// A page of the client's results (newest first, narrowed by `filter`) as `render` writes it, served from memory while the client's results and
    /// the catalog are unchanged: a trainer's app asks for the same history again and again, and reading and
    /// encoding fifty results costs ten times a cached answer. `rendering` names whatever else the bytes depend
    /// on (the units, say). The client's results version comes from memory too (as for the wheel), so a result
    /// written by another process (the CLI) shows within a second.
    public func renderedList(
        client: UUID,
        in company: UUID,
        filter: ResultFilter,
        after cursor: Cursor?,
        limit: Int,
        rendering: String,
        render: (Page<AssessmentResult>) throws -> [UInt8]
    ) async throws -> [UInt8] {
        guard let stamp = try await results.wheelStamp(client: client, in: company) else { throw ServiceError.notFound("client") }
        let key = ClientRenderings.Key(resultsVersion: stamp.resultsVersion, catalogGeneration: catalog.generation)
        // Each part after its length: the exercise is the caller's text, so no separator alone keeps two queries apart.
        let query = [
            rendering, filter.exerciseId ?? "", filter.from.map { "\($0.timeIntervalSince1970)" } ?? "",
            filter.to.map { "\($0.timeIntervalSince1970)" } ?? "", cursor?.token ?? "", "\(limit)",
        ]
        let slot = ClientRenderings.Slot(client: client, rendering: query.map { "\($0.utf8.count):\($0)" }.joined())
        if let bytes = renderedPages.bytes(of: slot, at: key) { return bytes }
        // Kept under the version read before the page: a write landing meanwhile makes it stale at once.
        let bytes = try render(try await results.list(client: client, in: company, filter: filter, after: cursor, limit: limit))
        renderedPages.keep(bytes, of: slot, at: key)
        return bytes
    }

    /// The trainer's result of `exerciseId` for the client recorded within the company's correction window, which a
    /// new entry with `amendRecent` would correct instead of adding one; nil when there is none.
    public func correctable(client: UUID, exerciseId: String, by trainer: Trainer) async throws -> AssessmentResult? {
        let window = try await companies.settings(of: trainer.companyId).correctionWindow
        guard window > 0 else { return nil }
        let recent = try await results.latest(
            client: client,
            exerciseId: exerciseId,
            trainer: trainer.id,
            createdSince: clock.now.addingTimeInterval(-window)
        )
        return recent?.companyId == trainer.companyId ? recent : nil
    }

    /// A page of the client's results, newest first, narrowed by `filter`; `notFound` for another company's client.
    public func list(
        client: UUID,
        in company: UUID,
        filter: ResultFilter = ResultFilter(),
        after cursor: Cursor?,
        limit: Int
    ) async throws
        -> Page<AssessmentResult>
    {
        guard try await results.wheelStamp(client: client, in: company) != nil else { throw ServiceError.notFound("client") }
        return try await results.list(client: client, in: company, filter: filter, after: cursor, limit: limit)
    }

    /// The earlier states of `result`, oldest first.
    public func revisions(of result: AssessmentResult) async throws -> [AssessmentResult.Revision] {
        try await results.revisions(of: result.id)
    }

    /// Changes values, observations or the date of `current`; the result is re-scored and its earlier state kept.
    public func edit(_ current: AssessmentResult, with edit: ResultEdit, by trainer: Trainer) async throws -> AssessmentResult {
        guard let client = try await clients.find(current.clientId, in: current.companyId) else { throw ServiceError.notFound("result") }
        return try await change(current, with: edit, entry: try entry(of: current), client: client.client, reason: .edit, by: trainer)
    }

    /// Deletes `current`: only an admin or the trainer who recorded it may.
    public func delete(_ current: AssessmentResult, by trainer: Trainer) async throws {
        guard trainer.role == .admin || current.trainerId == trainer.id else {
            throw ServiceError.forbidden(detail: "only an admin or the trainer who recorded a result can delete it")
        }
        guard try await results.delete(current.id, in: trainer.companyId, by: trainer.id, at: clock.now) else {
            throw ServiceError.notFound("result")
        }
        // Its media rows went with it; their files go now.
        try await mediaFiles?.removeFiles()
    }

    /// Applies `edit`, re-scores with the entry's current script and saves, keeping the earlier state; an edit
    /// that changes nothing saves nothing. `answer` makes the idempotency record kept with the save, from the
    /// result as it will be saved.
    func change(
        _ current: AssessmentResult,
        with edit: ResultEdit,
        entry: ExerciseCatalog.Entry,
        client: Client,
        reason: AssessmentResult.ChangeReason,
        by trainer: Trainer,
        keeping answer: (AssessmentResult) throws -> IdempotencyRecord? = { _ in nil }
    ) async throws -> AssessmentResult {
        try ServiceError.requireFitting(edit.values, of: entry.exercise, partial: true)
        let now = clock.now
        var changed = current
        try edit.apply(to: &changed, exercise: entry.exercise, now: now)
        try Self.requireAfterBirth(edit, of: client, in: changed)
        await scorer.apply(entry, client: client, to: &changed)
        if changed == current { return current }
        (changed.revision, changed.updatedAt) = (current.revision + 1, now)  // as `replace` saves it
        let saved = try await results.replace([(current, changed)], by: trainer.id, reason: reason, at: now, keeping: try answer(changed))
        guard let saved = saved[0] else {
            throw ServiceError.conflict(slug: "result-changed", detail: "the result was changed or deleted meanwhile: load it again and retry")
        }
        return saved
    }

    /// The current version of the result's exercise: edits are scored with it.
    func entry(of result: AssessmentResult) throws(ServiceError) -> ExerciseCatalog.Entry {
        guard let entry = catalog.exercise(result.exerciseId, for: result.companyId) else {
            throw .conflict(
                slug: "exercise-unavailable",
                detail: "exercise '\(result.exerciseId)' is no longer in this company's packs, so the result cannot be re-scored"
            )
        }
        return entry
    }

    /// The client, if it is one of `company`'s.
    func client(_ id: UUID, in company: UUID, knownVersion: Int64? = nil) async throws -> ClientRecord {
        guard let record = try await clients.find(id, in: company, knownVersion: knownVersion) else { throw ServiceError.notFound("client") }
        return record
    }
}
