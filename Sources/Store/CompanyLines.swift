import Foundation
import NIOCore

/// Work waiting in one line per company, taken from the lines in turn: a company that queues many waits for
/// each other company's next item between two of its own. `LongReads` (threads) and, on PostgreSQL,
/// `CompanyTurns` (pool connections) hand out their slots from it.
struct CompanyLines<Item> {
    private var waiting: [UUID: CircularBuffer<Item>] = [:]
    /// Companies with items waiting, in the order they are served next.
    private var turn = CircularBuffer<UUID>()

    var isEmpty: Bool { turn.isEmpty }

    /// Items waiting in all lines.
    var count: Int { waiting.values.reduce(0) { $0 + $1.count } }

    mutating func append(_ item: Item, company: UUID) {
        if waiting[company] == nil {
            waiting[company] = []
            turn.append(company)
        }
        waiting[company]!.append(item)
    }

    /// The first item of the company whose turn it is; that company goes to the back if it has more.
    mutating func next() -> Item? {
        guard let company = turn.popFirst() else { return nil }
        let item = waiting[company]!.removeFirst()
        if waiting[company]!.isEmpty {
            waiting[company] = nil
        } else {
            turn.append(company)
        }
        return item
    }
}
