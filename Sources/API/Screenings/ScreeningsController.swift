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
        enum CodingKeys: String, CodingKey, CaseIterable {
            case questionnaireId
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
        let screening = try await screenings.start(body.questionnaireId, client: clientId, by: context.trainer)
        return try .json(
            screening,
            status: .created,
            headers: [.location: "/v1/clients/\(clientId.uppercaseHyphenated)/screenings/\(screening.id.uppercaseHyphenated)"]
        )
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        let (clientId, screeningId) = try Self.ids(context)
        return try .json(try await screenings.screening(screeningId, client: clientId, in: context.trainer.companyId))
    }

    @Sendable func answer(request: Request, context: AuthenticatedContext) async throws -> Response {
        let (clientId, screeningId) = try Self.ids(context)
        let changes = try await request.decodeJSON(Answers.self, context: context).answers
        return try .json(try await screenings.answer(changes, screening: screeningId, client: clientId, by: context.trainer))
    }

    @Sendable func complete(request: Request, context: AuthenticatedContext) async throws -> Response {
        let (clientId, screeningId) = try Self.ids(context)
        let completed = try await screenings.complete(screening: screeningId, client: clientId, by: context.trainer)
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
