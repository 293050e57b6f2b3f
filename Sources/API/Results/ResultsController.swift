import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import HummingbirdCore
import Store

/// `/v1/clients/{id}/results`, `/v1/results/{id}` and `/v1/clients/{id}/rescore`: assessment results, scored by
/// their exercise's script when recorded and whenever they change. Every earlier state is kept.
struct ResultsController {
    let store: Store
    let catalog: ExerciseCatalog
    let scorer: ExerciseScorer
    let clock: any WallClock

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.post("clients/:id/results", use: record)
        group.get("clients/:id/results", use: list)
        group.post("clients/:id/rescore", use: rescore)
        group.get("results/:id", use: show)
        group.patch("results/:id", use: edit)
        group.delete("results/:id", use: delete)
        group.get("results/:id/history", use: history)
    }

    struct RecordRequest: StrictJSONBody {
        var exerciseId: String
        var edit: ResultEdit
        /// Replace this trainer's result of the same exercise recorded within the correction window, if any.
        var amendRecent: Bool

        enum CodingKeys: String, CodingKey, CaseIterable {
            case exerciseId, values, observations, recordedAt, amendRecent
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            exerciseId = try container.decode(String.self, forKey: .exerciseId)
            amendRecent = try container.decodeIfPresent(Bool.self, forKey: .amendRecent) ?? false
            edit = try ResultEdit(from: decoder)
            if edit.values == .unchanged {
                throw DecodingError.keyNotFound(CodingKeys.values, .init(codingPath: [], debugDescription: "values is required"))
            }
        }
    }

    struct EditRequest: StrictJSONBody {
        var edit: ResultEdit
        typealias CodingKeys = ResultEdit.CodingKeys

        init(from decoder: any Decoder) throws {
            edit = try ResultEdit(from: decoder)
        }
    }

    /// Records a result, or with `amendRecent` corrects the trainer's last one. An `Idempotency-Key` makes a
    /// retried POST answer as the first did and store nothing new.
    @Sendable func record(request: Request, context: AuthenticatedContext) async throws -> Response {
        let data = try await request.collectJSON(context: context)
        return try await IdempotentRequests(repository: store.idempotency, clock: clock).run(request, body: data, context: context) { ticket in
            try await record(try RecordRequest.decodeStrictly(from: data), imperial: try wantsImperialUnits(request), ticket: ticket, context)
        }
    }

    private func record(
        _ body: RecordRequest,
        imperial: Bool,
        ticket: IdempotentRequests.Ticket?,
        _ context: AuthenticatedContext
    ) async throws -> JSONReply {
        let client = try await store.client(context)
        try ScreeningGate.requireCompletedScreening(client)
        let company = context.trainer.companyId
        guard let entry = catalog.exercise(body.exerciseId, for: company) else {
            throw Problem.invalid("exerciseId", "is not an exercise of this company (GET /v1/exercises)")
        }
        let now = clock.now
        if body.amendRecent {
            let window = try await store.companies.settings(of: company).correctionWindow
            let recent = try await store.results.latest(
                client: client.client.id,
                exerciseId: entry.exercise.id,
                trainer: context.trainer.id,
                createdSince: now.addingTimeInterval(-window)
            )
            if let recent {
                let reply = { (result: AssessmentResult) in try JSONReply(self.body(result, imperial: imperial, context, amended: true)) }
                let amended = try await change(recent, with: body.edit, entry: entry, client: client.client, reason: .correction, context) {
                    try ticket?.record(reply($0))
                }
                return try reply(amended)
            }
        }
        var result = AssessmentResult(
            clientId: client.client.id,
            companyId: company,
            exerciseOwner: entry.owner,
            exerciseId: entry.exercise.id,
            categoryId: entry.pack.id,
            packVersion: entry.pack.version,
            trainerId: context.trainer.id,
            values: [:],
            observations: nil,
            recordedAt: now,
            createdAt: now
        )
        try body.edit.apply(to: &result, exercise: entry.exercise, birthDate: client.client.birthDate, now: now)
        scorer.apply(entry, client: client.client, to: &result)
        let reply = try JSONReply(
            self.body(result, imperial: imperial, context, amended: false),
            status: .created,
            headers: [.location: "/v1/results/\(result.id.uuidString)"]
        )
        try await store.results.create(result, keeping: ticket?.record(reply))
        context.logger.info("result recorded", metadata: ["result.id": "\(result.id)", "exercise.id": "\(result.exerciseId)"])
        return reply
    }

    @Sendable func list(request: Request, context: AuthenticatedContext) async throws -> Response {
        let query = try ListQuery(request.uri)
        let filter = try Self.filter(request.uri)
        let imperial = try wantsImperialUnits(request)
        let client = try ClientsController.clientId(context)
        let company = context.trainer.companyId
        guard try await store.clients.exists(client, in: company) else { throw Problem.notFound("client") }
        let page = try await store.results.list(client: client, in: company, filter: filter, after: query.cursor, limit: query.limit)
        return try .json(ListBody(items: page.items.map { body($0, imperial: imperial, context) }, nextCursor: page.nextCursor?.token))
    }

    /// `?exercise=&from=&to=`: `from` and `to` are RFC 3339 instants or whole days (`2027-01-15`, from its start
    /// to its end, UTC).
    static func filter(_ uri: URI) throws -> ResultFilter {
        let query = uri.queryParameters
        var problems = FieldErrorCollector()
        var filter = ResultFilter(exerciseId: query["exercise"].map(String.init))
        func instant(_ name: String, endOfDay: Bool) -> Date? {
            guard let raw = query[Substring(name)].map(String.init) else { return nil }
            if let date = try? Date(raw, strategy: .iso8601) { return date }
            if let day = CalendarDate(raw) {
                let start = Calendar.utc.date(from: DateComponents(year: day.year, month: day.month, day: day.day))!
                return endOfDay ? start.addingTimeInterval(86_400 - 0.001) : start
            }
            problems.add(name, "must be an RFC 3339 time or a date as YYYY-MM-DD")
            return nil
        }
        filter.from = instant("from", endOfDay: false)
        filter.to = instant("to", endOfDay: true)
        if let from = filter.from, let to = filter.to, from > to { problems.add("to", "must not be before from") }
        try problems.throwIfAny()
        return filter
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(body(try await result(context), imperial: try wantsImperialUnits(request), context))
    }

    /// Changes values, observations or the date; the result is re-scored and its earlier state kept.
    @Sendable func edit(request: Request, context: AuthenticatedContext) async throws -> Response {
        let current = try await result(context)
        let body = try await request.decodeJSON(EditRequest.self, context: context)
        guard let client = try await store.clients.find(current.clientId, in: current.companyId) else { throw Problem.notFound("result") }
        let changed = try await change(
            current,
            with: body.edit,
            entry: try entry(of: current, context),
            client: client.client,
            reason: .edit,
            context
        )
        return try .json(self.body(changed, imperial: try wantsImperialUnits(request), context))
    }

    @Sendable func delete(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let current = try await result(context)
        let trainer = context.trainer
        guard trainer.role == .admin || current.trainerId == trainer.id else {
            throw Problem.forbidden("only an admin or the trainer who recorded a result can delete it")
        }
        guard try await store.results.delete(current.id, in: trainer.companyId) else { throw Problem.notFound("result") }
        context.logger.info("result deleted", metadata: ["result.id": "\(current.id)"])
        return .noContent
    }

    struct HistoryBody: Encodable {
        var result: ResultBody
        /// Earlier states, oldest first.
        var revisions: [RevisionBody]
    }

    @Sendable func history(request: Request, context: AuthenticatedContext) async throws -> Response {
        let current = try await result(context)
        let revisions = try await store.results.revisions(of: current.id)
        let imperial = try wantsImperialUnits(request)
        let exercise = imperial ? catalog.exercise(current.exerciseId, for: context.trainer.companyId)?.exercise : nil
        return try .json(
            HistoryBody(
                result: body(current, imperial: imperial, context),
                revisions: revisions.map { revision in
                    RevisionBody(revision: revision, display: exercise.map { ImperialDisplay.values(revision.values, of: $0) })
                }
            )
        )
    }

    // MARK: - Rescore

    struct RescoreBody: Encodable {
        var checked: Int
        var changed: [Change]
        var unchanged: Int
        /// Results left as they were, with why: their exercise is no longer in the company's packs, or they
        /// changed while being re-scored.
        var skipped: [Skip]

        struct Change: Encodable {
            var resultId: UUID
            var exerciseId: String
            var before: State
            var after: State
        }

        struct State: Encodable {
            var packVersion: Int
            var score: Double?
            var scoreError: String?

            init(_ result: AssessmentResult) {
                packVersion = result.packVersion
                score = result.score
                scoreError = result.scoreError
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(packVersion, forKey: .packVersion)
                try container.encode(score, forKey: .score)
                try container.encode(scoreError, forKey: .scoreError)
            }

            enum CodingKeys: String, CodingKey {
                case packVersion, score, scoreError
            }
        }

        struct Skip: Encodable {
            var resultId: UUID
            var exerciseId: String
            var reason: String
        }
    }

    /// An admin re-scores every result of a client with the current pack versions (after a corrected script, or
    /// once a missing birth date or sex is recorded). Changed results keep their earlier state in history.
    @Sendable func rescore(request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.requireAdmin()
        let client = try await store.client(context)
        let results = try await store.results.all(client: client.client.id, in: context.trainer.companyId)
        var report = RescoreBody(checked: results.count, changed: [], unchanged: 0, skipped: [])
        var changes: [(before: AssessmentResult, after: AssessmentResult)] = []
        for result in results {
            guard let entry = catalog.exercise(result.exerciseId, for: context.trainer.companyId) else {
                report.skipped.append(
                    .init(resultId: result.id, exerciseId: result.exerciseId, reason: "the exercise is no longer in this company's packs")
                )
                continue
            }
            var rescored = result
            scorer.apply(entry, client: client.client, to: &rescored)
            if rescored == result { report.unchanged += 1 } else { changes.append((result, rescored)) }
        }
        // Saved in batches: few disk syncs, yet no transaction long enough to hold up other writes.
        for batch in stride(from: 0, to: changes.count, by: Self.rescoreBatch).map({ changes[$0..<min($0 + Self.rescoreBatch, changes.count)] }) {
            let saved = try await store.results.replace(Array(batch), by: context.trainer.id, reason: .rescore, at: clock.now, keeping: nil)
            for (change, after) in zip(batch, saved) {
                let before = change.before
                if let after {
                    report.changed.append(.init(resultId: before.id, exerciseId: before.exerciseId, before: .init(before), after: .init(after)))
                } else {
                    report.skipped.append(
                        .init(resultId: before.id, exerciseId: before.exerciseId, reason: "it was changed or deleted while being re-scored")
                    )
                }
            }
        }
        context.logger.info(
            "client results rescored",
            metadata: ["client.id": "\(client.client.id)", "changed": "\(report.changed.count)", "checked": "\(report.checked)"]
        )
        return try .json(report)
    }

    static let rescoreBatch = 500

    // MARK: - Helpers

    /// The result as the API shows it; with `imperial`, its values also in inches, pounds or miles.
    private func body(_ result: AssessmentResult, imperial: Bool, _ context: AuthenticatedContext, amended: Bool? = nil) -> ResultBody {
        var body = ResultBody(result: result, amended: amended)
        if imperial, let entry = catalog.exercise(result.exerciseId, for: context.trainer.companyId) {
            body.display = ImperialDisplay.values(result.values, of: entry.exercise)
        }
        return body
    }

    /// Applies `edit`, re-scores with the entry's current script and saves, keeping the earlier state; an edit
    /// that changes nothing saves nothing. `answer` makes the idempotency record kept with the save, from the
    /// result as it will be saved.
    private func change(
        _ current: AssessmentResult,
        with edit: ResultEdit,
        entry: ExerciseCatalog.Entry,
        client: Client,
        reason: AssessmentResult.ChangeReason,
        _ context: AuthenticatedContext,
        keeping answer: (AssessmentResult) throws -> IdempotencyRecord? = { _ in nil }
    ) async throws -> AssessmentResult {
        let now = clock.now
        var changed = current
        try edit.apply(to: &changed, exercise: entry.exercise, birthDate: client.birthDate, now: now)
        scorer.apply(entry, client: client, to: &changed)
        if changed == current { return current }
        (changed.revision, changed.updatedAt) = (current.revision + 1, now)  // as `replace` saves it
        let saved = try await store.results.replace(
            [(current, changed)],
            by: context.trainer.id,
            reason: reason,
            at: now,
            keeping: try answer(changed)
        )
        guard let saved = saved[0] else {
            throw Problem.conflict(slug: "result-changed", "the result was changed or deleted meanwhile: load it again and retry")
        }
        return saved
    }

    private func result(_ context: AuthenticatedContext) async throws -> AssessmentResult {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
            let result = try await store.results.find(id, in: context.trainer.companyId)
        else { throw Problem.notFound("result") }
        return result
    }

    /// The current version of the result's exercise: edits are scored with it.
    private func entry(of result: AssessmentResult, _ context: AuthenticatedContext) throws -> ExerciseCatalog.Entry {
        guard let entry = catalog.exercise(result.exerciseId, for: context.trainer.companyId) else {
            throw Problem.conflict(
                slug: "exercise-unavailable",
                "exercise '\(result.exerciseId)' is no longer in this company's packs, so the result cannot be re-scored"
            )
        }
        return entry
    }
}
