import Foundation
import HealthwheelCore
import Hummingbird
import Services
import Store

/// `/v1/clients/{id}/screenings`: start a screening from a questionnaire, answer it, complete (lock) it, amend the
/// fields that stay editable, and read the amendment history.
struct ScreeningsController {
    let store: Store
    let catalog: QuestionnaireCatalog
    let clock: any WallClock

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("clients/:id/screenings", use: list)
        group.post("clients/:id/screenings", use: create)
        group.get("clients/:id/screenings/:screeningId", use: show)
        group.patch("clients/:id/screenings/:screeningId", use: answer)
        group.post("clients/:id/screenings/:screeningId/complete", use: complete)
        group.get("clients/:id/screenings/:screeningId/history", use: history)
    }

    struct NewScreening: StrictJSONBody {
        var questionnaireId: String
        enum CodingKeys: String, CodingKey, CaseIterable {
            case questionnaireId
        }
    }

    struct Answers: StrictJSONBody {
        var answers: [String: JSONValue]
        enum CodingKeys: String, CodingKey, CaseIterable {
            case answers
        }
    }

    @Sendable func list(request: Request, context: AuthenticatedContext) async throws -> Response {
        let clientId = try context.id(of: "client")
        guard try await store.clients.find(clientId, in: context.trainer.companyId) != nil else { throw Problem.notFound("client") }
        let screenings = try await store.screenings.list(client: clientId, in: context.trainer.companyId)
        return try .json(ListBody(items: screenings, nextCursor: nil))
    }

    @Sendable func create(request: Request, context: AuthenticatedContext) async throws -> Response {
        let clientId = try context.id(of: "client")
        let body = try await request.decodeJSON(NewScreening.self, context: context)
        guard let record = try await store.clients.find(clientId, in: context.trainer.companyId) else { throw Problem.notFound("client") }
        guard let questionnaire = catalog[body.questionnaireId] else {
            throw Problem.invalid("questionnaireId", "is not a questionnaire of this server (GET /v1/questionnaires)")
        }
        let screening = Screening(
            clientId: clientId,
            questionnaire: questionnaire,
            answers: ScreeningRules.prefill(from: record.client, for: questionnaire),
            createdAt: clock.now,
            createdBy: context.trainer.id
        )
        guard try await store.screenings.create(screening, in: context.trainer.companyId) else { throw Problem.notFound("client") }
        return try .json(
            screening,
            status: .created,
            headers: [.location: "/v1/clients/\(clientId.uuidString)/screenings/\(screening.id.uuidString)"]
        )
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        let (clientId, screeningId) = try Self.ids(context)
        guard let screening = try await store.screenings.find(screeningId, client: clientId, in: context.trainer.companyId) else {
            throw Problem.notFound("screening")
        }
        return try .json(screening)
    }

    @Sendable func answer(request: Request, context: AuthenticatedContext) async throws -> Response {
        let (clientId, screeningId) = try Self.ids(context)
        let changes = try await request.decodeJSON(Answers.self, context: context).answers
        let trainer = context.trainer.id
        let now = clock.now
        let catalog = self.catalog
        let updated = try await store.screenings.update(screeningId, client: clientId, in: context.trainer.companyId) { screening, client in
            let questionnaire = try Self.questionnaire(of: screening, in: catalog)
            let outcome = try ScreeningRules.apply(changes, to: screening, questionnaire: questionnaire, by: trainer, at: now)
            var changedClient = client
            if !outcome.mirrored.isEmpty {
                do {
                    try ScreeningRules.clientEdit(for: outcome.mirrored).apply(to: &changedClient, today: CalendarDate(now))
                } catch let error as ValidationError {
                    throw Problem.invalid(Self.answerErrors(error.errors, questionnaire: questionnaire))
                }
                changedClient.updatedAt = now
            }
            return (outcome.screening, outcome.revisions, changedClient)
        }
        guard let updated else { throw Problem.notFound("screening") }
        return try .json(updated)
    }

    @Sendable func complete(request: Request, context: AuthenticatedContext) async throws -> Response {
        let (clientId, screeningId) = try Self.ids(context)
        let trainer = context.trainer.id
        let now = clock.now
        let catalog = self.catalog
        let completed = try await store.screenings.update(screeningId, client: clientId, in: context.trainer.companyId) { screening, _ in
            guard !screening.isLocked else {
                throw Problem.conflict(slug: "already-completed", "this screening was completed already")
            }
            let questionnaire = try Self.questionnaire(of: screening, in: catalog)
            do {
                return (try ScreeningRules.complete(screening, questionnaire: questionnaire, by: trainer, at: now), [], nil)
            } catch let error as ValidationError {
                throw Problem.invalid(error.errors.map { FieldError("answers.\($0.field)", $0.message) })
            }
        }
        guard let completed else { throw Problem.notFound("screening") }
        context.logger.info("screening completed", metadata: ["screening.id": "\(screeningId)"])
        return try .json(completed)
    }

    @Sendable func history(request: Request, context: AuthenticatedContext) async throws -> Response {
        let (clientId, screeningId) = try Self.ids(context)
        guard let revisions = try await store.screenings.history(of: screeningId, client: clientId, in: context.trainer.companyId) else {
            throw Problem.notFound("screening")
        }
        return try .json(ListBody(items: revisions, nextCursor: nil))
    }

    // MARK: - Helpers

    private static func ids(_ context: AuthenticatedContext) throws -> (client: UUID, screening: UUID) {
        (try context.id(of: "client"), try context.id("screeningId", of: "screening"))
    }

    private static func questionnaire(of screening: Screening, in catalog: QuestionnaireCatalog) throws -> Questionnaire {
        guard let questionnaire = catalog[screening.questionnaireId] else {
            throw Problem.conflict(slug: "questionnaire-missing", "the questionnaire \(screening.questionnaireId) is no longer on this server")
        }
        return questionnaire
    }

    /// Client-field errors from mirrored answers, renamed to the answers that caused them.
    private static func answerErrors(_ errors: [FieldError], questionnaire: Questionnaire) -> [FieldError] {
        errors.map { error in
            let clientField = error.field.split(separator: ".").first.map(String.init) ?? error.field
            let key = questionnaire.allFields.first { $0.field.mirrors?.rawValue == clientField }?.field.key ?? clientField
            return FieldError("answers.\(key)", error.message)
        }
    }
}
