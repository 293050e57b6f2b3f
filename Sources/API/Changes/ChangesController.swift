import Foundation
import HealthwheelCore
import Hummingbird
import HummingbirdCore
import Services

/// `GET /v1/changes`: the company's changes feed (`ChangesFeed`) for apps that keep a copy of its records.
/// `?cursor=` continues after a page (none: from the beginning; `now`: where the feed ends, to resynchronise
/// from), `?limit=` 1…500 (default 100), `?wait=` 0…30 seconds to hold a request that finds nothing new.
struct ChangesController {
    let changes: ChangesFeed

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("changes", use: page)
    }

    static let defaultLimit = 100

    @Sendable func page(request: Request, context: AuthenticatedContext) async throws -> Response {
        let query = try Query(request.uri)
        let cursor: ChangesCursor
        switch query.cursor {
        case .now: cursor = try await changes.end(by: context.trainer)
        case .after(let given): cursor = given
        }
        let bytes = try await changes.renderedPage(after: cursor, limit: query.limit, wait: .seconds(query.wait), by: context.trainer)
        return JSONReply(status: .ok, body: bytes).response
    }

    /// The query, every bad parameter named at once.
    struct Query {
        enum Start {
            case now
            case after(ChangesCursor)
        }

        var cursor = Start.after(.start)
        var limit = ChangesController.defaultLimit
        var wait = 0

        init(_ uri: URI) throws {
            var problems = FieldErrorCollector()
            if let raw = uri.parameter("limit", blankIsAbsent: false) {
                if let value = Int(digits: raw), (1...ChangesFeed.maximumLimit).contains(value) {
                    limit = value
                } else {
                    problems.add("limit", "must be a whole number from 1 to \(ChangesFeed.maximumLimit)")
                }
            }
            let maximumWait = Int(ChangesFeed.maximumWait.components.seconds)
            if let raw = uri.parameter("wait", blankIsAbsent: false) {
                if let value = Int(digits: raw), (0...maximumWait).contains(value) {
                    wait = value
                } else {
                    problems.add("wait", "must be a whole number of seconds from 0 to \(maximumWait)")
                }
            }
            try problems.throwIfAny()
            if let raw = uri.parameter("cursor") {
                if raw == "now" {
                    cursor = .now
                } else if let given = ChangesCursor(token: raw) {
                    cursor = .after(given)
                } else {
                    // Well formed, as any text is; but no page starts there (404), as for the lists' cursors.
                    throw Problem(
                        .notFound,
                        slug: "cursor-not-found",
                        detail: "no page starts at this cursor: send a cursor this server gave out, none for the beginning, or now",
                        errors: [FieldError("cursor", "is not a cursor this server gave out")]
                    )
                }
            }
        }
    }
}

/// How the API keeps a page of the changes feed, ready to send: `{items: [{kind, id, removed, record}], cursor,
/// hasMore}`, each record as its own `GET` answers it (metric units), null in a tombstone. The door's part of
/// `UseCases(renderChanges:)`.
public let changesRendering: @Sendable (ChangesFeed.Page, Date) throws -> [UInt8] = { page, now in
    try ResponseJSONEncoder().encode(ChangesBody(page: page, now: now))
}

struct ChangesBody: JSONObjectBody {
    let page: ChangesFeed.Page
    let now: Date

    var jsonFields: [(key: String, value: JSONField)] {
        [
            ("items", .encodable(page.items.map { Item(item: $0, now: now) })),
            ("cursor", .string(page.cursor.token)),
            ("hasMore", .bool(page.hasMore)),
        ]
    }

    struct Item: JSONObjectBody {
        let item: ChangesFeed.Item
        let now: Date

        var jsonFields: [(key: String, value: JSONField)] {
            [
                ("kind", .string(item.change.kind.rawValue)),
                ("id", .string(item.change.id)),
                ("removed", .bool(item.change.removed)),
                ("record", record),
            ]
        }

        private var record: JSONField {
            switch item.record {
            case nil: .object(nil)
            case .client(let record): .object(ClientBody(record, now: now, imperial: false))
            case .screening(let screening): .encodable(screening)
            case .result(let result): .object(ResultBody(result: result, amended: nil))
            case .media(let file): .encodable(MediaController.MediaBody(file: file))
            case .delivery(let delivery): .encodable(DeliveryBody(delivery: delivery))
            case .trainer(let trainer): .object(trainer)
            case .theme(let current): .encodable(ThemeBody(current))
            }
        }
    }
}
