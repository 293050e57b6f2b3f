import Foundation
import HealthwheelCore

/// A page of a list, ordered by a stable key; `nextCursor` continues after the last item.
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var nextCursor: Cursor?

    public init(items: [Item], nextCursor: Cursor?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

/// Where a list continues: the sort key and id of the last item seen. Clients see it only as an opaque string.
public struct Cursor: Sendable, Equatable {
    public var sortKey: String
    public var id: UUID

    public init(sortKey: String, id: UUID) {
        self.sortKey = sortKey
        self.id = id
    }

    /// Base64url of `id:sortKey` — opaque to clients, but no secret (it holds nothing the page did not show).
    public var token: String {
        Base64URL.encode("\(id.uuidString.lowercased()):\(sortKey)".utf8)
    }

    public init?(token: String) {
        guard let bytes = Base64URL.decode(token), let text = String(validating: bytes, as: UTF8.self),
            let colon = text.firstIndex(of: ":"), let id = UUID(uuidString: String(text[..<colon]))
        else { return nil }
        self.init(sortKey: String(text[text.index(after: colon)...]), id: id)
    }
}
