import Foundation
import HealthwheelCore
import Store

/// One company's client list held in memory: every client in list order, already rendered (as JSON, by the API),
/// with a term index for `?q=`. The roster is the screen trainers open most; serving it from memory keeps it about as cheap
/// as reading one client. It is a snapshot of one list version and is trusted only until `validUntil`, the next
/// moment a computed field (age at midnight UTC, rescreenDue) could change.
public final class ClientDirectory: Sendable {
    public struct Entry: Sendable {
        public let record: ClientRecord
        public let cursor: Cursor
        /// The list order, as SQL sorts it: sort name then lower-case id, compared as bytes.
        let orderKey: [UInt8]
        /// The client as the door that built the list renders it (the API: its JSON in metric units).
        public let rendered: [UInt8]
    }

    let version: Int64
    let validUntil: Date
    let entries: [Entry]
    private let index: ClientTermIndex

    init(version: Int64, records: [ClientRecord], now: Date, render: (ClientRecord, Date) throws -> [UInt8]) throws {
        self.version = version
        var entries: [Entry] = []
        entries.reserveCapacity(records.count)
        var validUntil = Calendar.utc.startOfDay(for: now).addingTimeInterval(86_400)
        for record in records {
            let cursor = Cursor(sortKey: ClientSearch.sortKey(for: record.client), id: record.client.id)
            let rendered = try render(record, now)
            entries.append(Entry(record: record, cursor: cursor, orderKey: Self.orderKey(cursor), rendered: rendered))
            if let completed = record.screening.latestCompletedAt,
                let dueAt = Calendar.utc.date(byAdding: .month, value: 12, to: completed), dueAt >= now
            {
                validUntil = min(validUntil, dueAt)
            }
        }
        self.entries = entries
        self.validUntil = validUntil
        self.index = ClientTermIndex(termsByPosition: records.map { Array(ClientSearch.terms(for: $0.client)) })
    }

    /// Up to `limit` entries matching every word, after `cursor`, and whether more follow.
    public func page(matching words: [String], after cursor: Cursor?, limit: Int) -> (entries: [Entry], hasMore: Bool) {
        let start = cursor.map { firstPosition(after: Self.orderKey($0)) } ?? 0
        let positions: ArraySlice<Int>
        if words.isEmpty {
            positions = ArraySlice(start..<min(entries.count, start + limit + 1))
        } else {
            let matches = index.positions(matching: words)
            positions = matches[matches.partitioningIndex { $0 >= start }...].prefix(limit + 1)
        }
        return (positions.prefix(limit).map { entries[$0] }, positions.count > limit)
    }

    private func firstPosition(after key: [UInt8]) -> Int {
        entries.partitioningIndex { key.lexicographicallyPrecedes($0.orderKey) }
    }

    private static func orderKey(_ cursor: Cursor) -> [UInt8] {
        // A 0 byte between the parts: below any character of a sort name, so shorter names sort first, as in SQL.
        Array(cursor.sortKey.utf8) + [0] + Array(cursor.id.uuidString.lowercased().utf8)
    }
}
