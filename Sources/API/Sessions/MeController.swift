import HealthwheelCore
import Hummingbird

/// `GET /v1/me`: who the token belongs to. Answered from the authentication read alone.
struct MeController {
    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("me", use: me)
    }

    struct MeBody: JSONObjectBody {
        var trainer: Trainer
        var company: Company

        var jsonFields: [(key: String, value: JSONField)] { [("trainer", .object(trainer)), ("company", .object(company))] }
    }

    @Sendable func me(request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(MeBody(trainer: context.principal.trainer, company: context.principal.company))
    }
}
