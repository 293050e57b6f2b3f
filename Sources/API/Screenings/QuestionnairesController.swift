import HealthwheelCore
import Hummingbird
import Services

/// `GET /v1/questionnaires` and `GET /v1/questionnaires/{id}`: the screening forms client apps render.
struct QuestionnairesController {
    let catalog: QuestionnaireCatalog

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("questionnaires", use: list)
        group.get("questionnaires/:questionnaireId", use: show)
    }

    struct Summary: Encodable {
        var id: String
        var version: Int
        var title: String
        var description: String?
    }

    @Sendable func list(request: Request, context: AuthenticatedContext) async throws -> Response {
        let items = catalog.questionnaires.values.sorted { $0.id < $1.id }.map {
            Summary(id: $0.id, version: $0.version, title: $0.title, description: $0.description)
        }
        return try .json(ListBody(items: items, nextCursor: nil))
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        guard let id = context.parameters.get("questionnaireId"), let questionnaire = catalog[id] else {
            throw Problem.notFound("questionnaire")
        }
        return try .json(questionnaire)
    }
}
