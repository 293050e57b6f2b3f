import Foundation
import HealthwheelCore

/// A page of a list, ordered by a stable key; `nextCursor` continues after the last item.
public struct Page<Item: Sendable>: Sendable {
    /// At most the limit asked for, in the list's order (newest first for results and deliveries).
    public var items: [Item]
    /// Where the next page starts; nil on the last page. The API hands out its `token`.
    public var nextCursor: Cursor?

    /// A page as given; repositories make theirs by reading one row more than the limit.
    public init(items: [Item], nextCursor: Cursor?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    /// A page from `fetched`, read with `LIMIT limit + 1`: one row more than the page means there is a next page,
    /// which continues after the page's last item (`cursor` makes its cursor).
    public init(fetched: [Item], limit: Int, cursor: (Item) -> Cursor) {
        self.init(items: Array(fetched.prefix(limit)), nextCursor: fetched.count > limit ? cursor(fetched[limit - 1]) : nil)
    }
}

/// The sort key of a newest-first list ordered by a time: its milliseconds since 1970, as stored.
public func millisecondsKey(_ date: Date) -> String {
    String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
}

/// Where a list continues: the sort key and id of the last item seen. Clients see it only as an opaque string.
public struct Cursor: Sendable, Equatable {
    /// The value the list is ordered by, as text: milliseconds since 1970 for time-ordered lists.
    public var sortKey: String
    /// The last item's id: breaks ties between items with the same sort key, so no item is skipped or repeated.
    public var id: UUID

    /// A cursor after an item with `sortKey` and `id`.
    public init(sortKey: String, id: UUID) {
        self.sortKey = sortKey
        self.id = id
    }

    /// Base64url of `id:sortKey` — opaque to clients, but no secret (it holds nothing the page did not show).
    public var token: String {
        Base64URL.encode("\(id.lowercaseHyphenated):\(sortKey)".utf8)
    }

    /// Reads a `token`; nil for anything that is not base64url of `uuid:sortKey` (the API refuses it as `cursor`).
    public init?(token: String) {
        guard let bytes = Base64URL.decode(token), let text = String(validating: bytes, as: UTF8.self),
            let colon = text.firstIndex(of: ":"), let id = UUID(hyphenatedHex: String(text[..<colon]))
        else { return nil }
        self.init(sortKey: String(text[text.index(after: colon)...]), id: id)
    }
}
