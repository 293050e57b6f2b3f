import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import HummingbirdCore
import Services
import StoreContract

/// `/v1/clients/{id}/results`, `/v1/results/{id}` and `/v1/clients/{id}/rescore`: assessment results, scored by
/// their exercise's script when recorded and whenever they change. Every earlier state is kept.
struct ResultsController {
    let results: AssessmentResults
    let idempotency: IdempotentRequests
    let catalog: ExerciseCatalog
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

    struct RecordRequest: StrictJSONBody, Equatable {
        var exerciseId: String
        var edit: ResultEdit
        /// Replace this trainer's result of the same exercise recorded within the correction window, if any.
        var amendRecent: Bool
        /// The id an app chose, recording offline (`AppChosenIds`).
        var id: UUID?
        /// When the app recorded it offline.
        var takenAt: Date?

        init(exerciseId: String, edit: ResultEdit, amendRecent: Bool, id: UUID? = nil, takenAt: Date? = nil) {
            self.exerciseId = exerciseId
            self.edit = edit
            self.amendRecent = amendRecent
            self.id = id
            self.takenAt = takenAt
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case exerciseId, values, observations, recordedAt, amendRecent, id, takenAt
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            exerciseId = try container.decode(String.self, forKey: .exerciseId)
            amendRecent = try container.decodeIfPresent(Bool.self, forKey: .amendRecent) ?? false
            id = try container.decodeIfPresent(UUID.self, forKey: .id)
            takenAt = try container.decodeIfPresent(Date.self, forKey: .takenAt)
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
        return try await idempotency.run(request, body: data, context: context) { ticket in
            try await record(
                try RecordRequest.plain(data) ?? RecordRequest.decodeStrictly(from: data),
                imperial: try wantsImperialUnits(request),
                ticket: ticket,
                context
            )
        }
    }

    private func record(
        _ body: RecordRequest,
        imperial: Bool,
        ticket: IdempotentRequests.Ticket?,
        _ context: AuthenticatedContext
    ) async throws -> JSONReply {
        let new = NewResult(
            clientId: try context.id(of: "client"),
            exerciseId: body.exerciseId,
            edit: body.edit,
            amendRecent: body.amendRecent,
            id: body.id,
            takenAt: body.takenAt
        )
        func reply(_ result: AssessmentResult, amended: Bool) throws -> JSONReply {
            let body = self.body(result, imperial: imperial, context, amended: amended)
            if amended { return try JSONReply(body) }
            return try JSONReply(body, status: .created, headers: [.location: "/v1/results/\(result.id.uppercaseHyphenated)"])
        }
        // The answer is built once, before the write, so the same bytes are sent and kept under the key.
        var kept: JSONReply?
        let recorded: (result: AssessmentResult, amended: Bool, replayed: Bool)
        do {
            recorded = try await results.record(new, by: context.trainer, freshness: context.principal.freshness) { result, amended in
                let answer = try reply(result, amended: amended)
                kept = answer
                return ticket?.record(answer)
            }
        } catch let refusal as ServiceError where body.id != nil {
            // What the server holds under the app's id, for it to adopt.
            throw await refusal.withCurrent {
                self.body(try await results.result(body.id!, in: context.trainer.companyId), imperial: imperial, context)
            }
        }
        let (result, amended) = (recorded.result, recorded.amended)
        if recorded.replayed { return try reply(result, amended: false).replayed }
        if !amended {
            context.logger.info("result recorded", metadata: ["result.id": "\(result.id)", "exercise.id": "\(result.exerciseId)"])
        }
        return try kept ?? reply(result, amended: amended)
    }

    @Sendable func list(request: Request, context: AuthenticatedContext) async throws -> Response {
        let query = try ListQuery(request.uri)
        let filter = try Self.filter(request.uri)
        let imperial = try wantsImperialUnits(request)
        let client = try context.id(of: "client")
        let page = try await results.renderedList(
            client: client,
            in: context.trainer.companyId,
            filter: filter,
            after: query.cursor,
            limit: query.limit,
            rendering: imperial ? "imperial" : "si"
        ) { page in
            try ResponseJSONEncoder().encode(
                ListBody(items: page.items.map { body($0, imperial: imperial, context) }, nextCursor: page.nextCursor?.token)
            )
        }
        return JSONReply(status: .ok, body: page).response
    }

    /// `?exercise=&from=&to=`.
    static func filter(_ uri: URI) throws -> ResultFilter {
        let period = try PeriodQuery(uri)
        return ResultFilter(exerciseId: uri.parameter("exercise"), from: period.from, to: period.to)
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(body(try await result(context), imperial: try wantsImperialUnits(request), context))
    }

    /// Changes values, observations or the date; the result is re-scored and its earlier state kept.
    @Sendable func edit(request: Request, context: AuthenticatedContext) async throws -> Response {
        let current = try await result(context)
        let body = try await request.decodeJSON(EditRequest.self, context: context)
        let changed = try await results.edit(current, with: body.edit, by: context.trainer)
        return try .json(self.body(changed, imperial: try wantsImperialUnits(request), context))
    }

    @Sendable func delete(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let current = try await result(context)
        try await results.delete(current, by: context.trainer)
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
        let revisions = try await results.revisions(of: current)
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

    /// An admin re-scores every result of a client with the current pack versions (after a corrected script, or
    /// once a missing birth date or sex is recorded). Changed results keep their earlier state in history.
    @Sendable func rescore(request: Request, context: AuthenticatedContext) async throws -> Response {
        let client = try context.id(of: "client")
        let report = try await results.rescore(client: client, by: context.trainer)
        context.logger.info(
            "client results rescored",
            metadata: ["client.id": "\(client)", "changed": "\(report.changed.count)", "checked": "\(report.checked)"]
        )
        return try .json(RescoreBody(report))
    }

    // MARK: - Helpers

    /// The result as the API shows it; with `imperial`, its values also in inches, pounds or miles.
    private func body(_ result: AssessmentResult, imperial: Bool, _ context: AuthenticatedContext, amended: Bool? = nil) -> ResultBody {
        var body = ResultBody(result: result, amended: amended)
        if imperial, let entry = catalog.exercise(result.exerciseId, for: context.trainer.companyId) {
            body.display = ImperialDisplay.values(result.values, of: entry.exercise)
        }
        return body
    }

    private func result(_ context: AuthenticatedContext) async throws -> AssessmentResult {
        try await results.result(try context.id(of: "result"), in: context.trainer.companyId)
    }
}
