/// A page of a list: `{items, nextCursor}`, with `nextCursor` null on the last page.
struct ListBody<Item: Encodable>: Encodable {
    var items: [Item]
    var nextCursor: String?
}
