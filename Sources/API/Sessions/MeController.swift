import Foundation
import HealthwheelCore
import Hummingbird
import Synchronization

/// `GET /v1/me`: who the token belongs to. Answered from the authentication read alone.
struct MeController {
    /// The answers already written, one per trainer.
    let rendered = RenderedMe()

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("me", use: me)
    }

    struct MeBody: JSONObjectBody {
        var trainer: Trainer
        var company: Company

        var jsonFields: [(key: String, value: JSONField)] { [("trainer", .object(trainer)), ("company", .object(company))] }
    }

    @Sendable func me(request: Request, context: AuthenticatedContext) async throws -> Response {
        JSONReply(status: .ok, body: try rendered.body(trainer: context.principal.trainer, company: context.principal.company)).response
    }
}

/// `/v1/me` is what an app asks at every start and refresh: its answer is kept per trainer, as written, and given
/// again while the session's trainer and company records are equal to those it was written from (compared whole:
/// any change to either writes it anew). At most `capacity` trainers are kept; when full, it starts again.
final class RenderedMe: Sendable {
    private let bodies = Mutex<[UUID: (trainer: Trainer, company: Company, body: [UInt8])]>([:])
    static let capacity = 10_000

    func body(trainer: Trainer, company: Company) throws -> [UInt8] {
        if let kept = bodies.withLock({ $0[trainer.id] }), kept.trainer == trainer, kept.company == company { return kept.body }
        let body = try ResponseJSONEncoder().encode(MeController.MeBody(trainer: trainer, company: company))
        bodies.withLock { bodies in
            if bodies.count >= Self.capacity { bodies.removeAll(keepingCapacity: true) }
            bodies[trainer.id] = (trainer, company, body)
        }
        return body
    }
}
