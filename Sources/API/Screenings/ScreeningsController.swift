import Foundation
import HealthwheelCore
import Hummingbird
import Services

/// `/v1/clients/{id}/screenings`: start a screening from a questionnaire, answer it, complete (lock) it, amend the
/// fields that stay editable, and read the amendment history.
struct ScreeningsController {
    let screenings: ClientScreenings

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("clients/:id/screenings", use: list)
        group.post("clients/:id/screenings", use: create)
        group.get("clients/:id/screenings/:screeningId", use: show)
        group.patch("clients/:id/screenings/:screeningId", use: answer)
        group.post("clients/:id/screenings/:screeningId/complete", use: complete)
        group.get("clients/:id/screenings/:screeningId/history", use: history)
    }

    struct NewScreening: StrictJSONBody {
        static let nullableKeys: Set<String>? = []
        var questionnaireId: String
        /// The id an app chose when it started the screening offline (`AppChosenIds`).
        var id: UUID?
        enum CodingKeys: String, CodingKey, CaseIterable {
            case questionnaireId, id
        }
    }

    /// Completing: optionally when an app completed it offline.
    struct Completion: StrictJSONBody {
        static let nullableKeys: Set<String>? = []
        var completedAt: Date?
        enum CodingKeys: String, CodingKey, CaseIterable {
            case completedAt
        }
    }

    struct Answers: StrictJSONBody {
        static let nullableKeys: Set<String>? = []
        var answers: [String: JSONValue]
        enum CodingKeys: String, CodingKey, CaseIterable {
            case answers
        }
    }

    @Sendable func list(request: Request, context: AuthenticatedContext) async throws -> Response {
        let screenings = try await screenings.list(client: try context.id(of: "client"), in: context.trainer.companyId)
        return try .json(ListBody(items: screenings, nextCursor: nil))
    }

    @Sendable func create(request: Request, context: AuthenticatedContext) async throws -> Response {
        let clientId = try context.id(of: "client")
        let body = try await request.decodeJSON(NewScreening.self, context: context)
        let outcome: AppChosenIds.Outcome<Screening>
        do {
            outcome = try await screenings.start(body.questionnaireId, id: body.id, client: clientId, by: context.trainer)
        } catch let refusal as ServiceError where body.id != nil {
            throw await refusal.withCurrent { try await screenings.screening(body.id!, client: clientId, in: context.trainer.companyId) }
        }
        let screening = outcome.record
        let reply = try JSONReply(
            screening,
            status: .created,
            headers: [.location: "/v1/clients/\(clientId.uppercaseHyphenated)/screenings/\(screening.id.uppercaseHyphenated)"]
        )
        if case .replayed = outcome { return reply.replayed.response }
        return reply.response
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        let (clientId, screeningId) = try Self.ids(context)
        return try .json(try await screenings.screening(screeningId, client: clientId, in: context.trainer.companyId))
    }

    @Sendable func answer(request: Request, context: AuthenticatedContext) async throws -> Response {
        let (clientId, screeningId) = try Self.ids(context)
        let changes = try await request.decodeJSON(Answers.self, context: context).answers
        do {
            return try .json(try await screenings.answer(changes, screening: screeningId, client: clientId, by: context.trainer))
        } catch {
            throw await completedMeanwhile(error, screeningId, clientId, context)
        }
    }

    /// A screening completed meanwhile (on another device) refuses locked answers, or completing it again, with
    /// the screening as it is now (`current`), so the app can adopt it; any other error as it is.
    private func completedMeanwhile(_ error: any Error, _ screening: UUID, _ client: UUID, _ context: AuthenticatedContext) async -> any Error {
        let problem: Problem
        switch error {
        case let refusal as ScreeningRules.Refusal:
            guard case .locked = refusal else { return error }
            problem = refusal.problem
        case let refusal as ServiceError:
            guard case .conflict(slug: "already-completed", _, _) = refusal else { return error }
            problem = refusal.problem
        default:
            return error
        }
        guard let current = try? await screenings.screening(screening, client: client, in: context.trainer.companyId) else { return error }
        return problem.with(current: current)
    }

    @Sendable func complete(request: Request, context: AuthenticatedContext) async throws -> Response {
        let (clientId, screeningId) = try Self.ids(context)
        // A body is optional: an app that completed the screening offline says when.
        let completedAt = try await request.decodeJSONIfPresent(Completion.self, context: context)?.completedAt
        let completed: Screening
        do {
            completed = try await screenings.complete(screening: screeningId, client: clientId, by: context.trainer, completedAt: completedAt)
        } catch {
            throw await completedMeanwhile(error, screeningId, clientId, context)
        }
        context.logger.info("screening completed", metadata: ["screening.id": "\(screeningId)"])
        return try .json(completed)
    }

    @Sendable func history(request: Request, context: AuthenticatedContext) async throws -> Response {
        let (clientId, screeningId) = try Self.ids(context)
        let revisions = try await screenings.history(of: screeningId, client: clientId, in: context.trainer.companyId)
        return try .json(ListBody(items: revisions, nextCursor: nil))
    }

    private static func ids(_ context: AuthenticatedContext) throws -> (client: UUID, screening: UUID) {
        (try context.id(of: "client"), try context.id("screeningId", of: "screening"))
    }
}
