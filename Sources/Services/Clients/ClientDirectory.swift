import Foundation
import HealthwheelCore
import StoreContract

/// One company's client list held in memory: every client in list order, already rendered (as JSON, by the API),
/// with a term index for `?q=`. The roster is the screen trainers open most; serving it from memory keeps it about
/// as cheap as reading one client, however many clients the company has. It is a snapshot of one list version and
/// is trusted only until `validUntil`, the next moment a computed field (age at midnight UTC, rescreenDue) could
/// change.
///
/// Compact, so that a roster of 100,000 clients fits in about 45 MB, and its summaries (some 90 bytes a client)
/// about 9 MB more: per client only its id, sort key and rendered values (`RenderedObjects`, in chunks, not one
/// array each), its summary (`ClientSummary`) and its terms in the shared `ClientTermIndex`; no records.
public final class ClientDirectory: Sendable {
    /// One client of a page.
    public struct Entry: Sendable {
        public let id: UUID
        /// The client as the door that built the list renders it (the API: its JSON in metric units).
        public let rendered: [UInt8]
        /// The client as a list shows them, for a door that renders its own rows (the web console).
        public var summary: ClientSummary { ClientSummary(bytes: summaryBytes) }
        let summaryBytes: ArraySlice<UInt8>
    }

    /// What building a list came to.
    public enum Build: Sendable {
        case built(ClientDirectory)
        /// The company has more clients than a list may hold; `version` is the list version counted at.
        case tooLarge(version: Int64)
    }

    let version: Int64
    let validUntil: Date
    private let ids: [UUID]
    /// The list order, as SQL sorts it: the stored sort name, then the lower-case id, compared as bytes.
    private let sortKeys: ChunkedBytes
    private let rendered: RenderedObjects
    private let summaries: ChunkedBytes
    private let index: ClientTermIndex
    /// Bytes of memory the list holds.
    let byteCount: Int

    public var count: Int { ids.count }

    /// Collects a company's clients in list order (as `ClientRepository.scan` reads them), then makes the list.
    struct Builder {
        private let now: Date
        private let render: (ClientRecord, Date) throws -> [UInt8]
        private var ids: [UUID] = []
        private var sortKeys = ChunkedBytes()
        private var rendered = RenderedObjects()
        private var summaries = ChunkedBytes()
        private var terms = ClientTermIndex.Builder()
        private var validUntil: Date

        init(now: Date, render: @escaping (ClientRecord, Date) throws -> [UInt8]) {
            self.now = now
            self.render = render
            validUntil = Calendar.utc.startOfDay(for: now).addingTimeInterval(86_400)
        }

        /// The next client in list order, with its stored sort name (the key SQL orders and pages by).
        mutating func append(_ record: ClientRecord, sortName: String) throws {
            ids.append(record.client.id)
            sortKeys.append(sortName.utf8)
            rendered.append(try render(record, now))
            summaries.append(ClientSummary(record).bytes)
            terms.append(ClientSearch.terms(for: record.client))
            validUntil = min(validUntil, ClientDirectory.renderedUntil(record, now: now))
        }

        func finish(version: Int64) -> ClientDirectory {
            ClientDirectory(self, version: version)
        }

        fileprivate var parts:
            (ids: [UUID], sortKeys: ChunkedBytes, rendered: RenderedObjects, summaries: ChunkedBytes, index: ClientTermIndex, validUntil: Date)
        {
            var sortKeys = sortKeys
            var rendered = rendered
            var summaries = summaries
            sortKeys.trim()
            rendered.trim()
            summaries.trim()
            return (Array(ids[...]), sortKeys, rendered, summaries, terms.build(), validUntil)
        }
    }

    private init(_ builder: Builder, version: Int64) {
        let parts = builder.parts
        self.version = version
        ids = parts.ids
        sortKeys = parts.sortKeys
        rendered = parts.rendered
        summaries = parts.summaries
        index = parts.index
        validUntil = parts.validUntil
        byteCount = ids.capacity * MemoryLayout<UUID>.stride + sortKeys.byteCount + rendered.byteCount + summaries.byteCount + index.byteCount
    }

    /// Until when a client rendered at `now` stays right, whatever else changes: the next midnight (UTC), when an
    /// age may change, or the moment their rescreen falls due, if sooner.
    static func renderedUntil(_ record: ClientRecord, now: Date) -> Date {
        let midnight = Calendar.utc.startOfDay(for: now).addingTimeInterval(86_400)
        guard let completed = record.screening.latestCompletedAt else { return midnight }
        let dueAt = ScreeningOverview.rescreenDueAt(after: completed)
        return dueAt >= now ? min(midnight, dueAt) : midnight
    }

    /// Up to `limit` clients matching every word, after `cursor`, and the cursor after the last when more follow.
    public func page(matching words: [String], after cursor: Cursor?, limit: Int) -> (entries: [Entry], nextCursor: Cursor?) {
        let start = cursor.map(firstPosition(after:)) ?? 0
        let positions = index.positions(matching: words, from: start, limit: limit + 1)
        let shown = positions.prefix(limit)
        let entries = shown.map { Entry(id: ids[$0], rendered: rendered[$0], summaryBytes: summaries[$0]) }
        guard positions.count > limit, let last = shown.last else { return (entries, nil) }
        return (entries, Cursor(sortKey: String(decoding: sortKeys[last], as: UTF8.self), id: ids[last]))
    }

    /// The first position that comes after `cursor` in list order.
    private func firstPosition(after cursor: Cursor) -> Int {
        var key = Array(cursor.sortKey.utf8)
        return key.withUnsafeMutableBufferPointer { key in
            let key = UnsafeBufferPointer(key)
            var low = 0
            var high = ids.count
            while low < high {
                let middle = (low + high) / 2
                var order = sortKeys.withBytes(middle) { Self.compare($0, key) }
                if order == 0 { order = Self.compare(ids[middle], cursor.id) }
                if order <= 0 { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    private static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        for offset in 0..<min(left.count, right.count) where left[offset] != right[offset] {
            return Int(left[offset]) - Int(right[offset])
        }
        return left.count - right.count
    }

    /// Ids as SQL orders them: their lower-case text, whose order is that of their bytes.
    private static func compare(_ left: UUID, _ right: UUID) -> Int {
        withUnsafeBytes(of: left.uuid) { left in
            withUnsafeBytes(of: right.uuid) { right in
                compare(left.assumingMemoryBound(to: UInt8.self), right.assumingMemoryBound(to: UInt8.self))
            }
        }
    }
}
