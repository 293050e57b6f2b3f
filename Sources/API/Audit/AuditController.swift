import Foundation
import HealthwheelCore
import Hummingbird
import HummingbirdCore
import Services
import StoreContract

/// `GET /v1/audit`: the company's audit trail for its admins, newest first, narrowed by `clientId`, `actor` (a
/// trainer's id), `action` (`client.created`, …) and the period `from`…`to`.
struct AuditController {
    let audit: AuditTrail

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("audit", use: list)
    }

    @Sendable func list(request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.requireAdmin(to: "read the audit trail")
        let filter = try Self.filter(request.uri)
        let query = try ListQuery(request.uri)
        let page = try await audit.list(filter, after: query.cursor, limit: query.limit, by: context.trainer)
        return try .json(ListBody(items: page.items.map(AuditEventBody.init), nextCursor: page.nextCursor?.token))
    }

    /// Every action name the trail can hold: `subject.action`.
    static let actionNames: [String] = AuditEvent.Subject.allCases.flatMap { subject in
        AuditEvent.Action.allCases.map { "\(subject.rawValue).\($0.rawValue)" }
    }

    private static func filter(_ uri: URI) throws -> AuditFilter {
        var problems = FieldErrorCollector()
        func id(_ name: String) -> UUID? {
            guard let raw = uri.parameter(name) else { return nil }
            guard let id = UUID(hyphenatedHex: raw) else {
                problems.add(name, "must be a UUID")
                return nil
            }
            return id
        }
        var filter = AuditFilter(clientId: id("clientId"), actorId: id("actor"))
        if let action = uri.parameter("action") {
            if actionNames.contains(action) {
                filter.action = action
            } else {
                problems.add("action", "must be subject.action, such as client.created or result.viewed-as-report")
            }
        }
        // The period's own errors join the others, so one answer names every bad parameter.
        let period: PeriodQuery
        do {
            period = try PeriodQuery(uri)
        } catch let problem as Problem {
            for error in problem.errors { problems.add(error.field, error.message) }
            try problems.throwIfAny()
            throw problem
        }
        try problems.throwIfAny()
        filter.from = period.from
        filter.to = period.to
        return filter
    }
}

/// One line of the audit trail. `subjectId` and `clientId` are null once the client it was about is erased
/// (`erased` says so), and `subjectId` is null for the company's own settings.
struct AuditEventBody: JSONObjectBody {
    var stored: StoredAuditEvent

    var jsonFields: [(key: String, value: JSONField)] {
        let event = stored.event
        return [
            ("sequence", .int(Int(stored.sequence))),
            ("at", .date(event.at)),
            ("actorType", .string(event.actor.kind)),
            ("actorId", .uuid(event.actor.id)),
            ("action", .string(event.name)),
            ("subjectType", .string(event.subject.rawValue)),
            ("subjectId", .string(event.subjectId)),
            ("clientId", .uuid(event.clientId)),
            ("erased", .bool(stored.erased)),
        ]
    }
}
