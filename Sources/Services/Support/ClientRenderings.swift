import Foundation
import Synchronization

/// What was rendered from a client's results (their wheel as JSON slices, SVG or PNG; a page of their results),
/// kept for as long as what it was built from is unchanged. Bounded in entries and in bytes: when full it starts
/// over, which costs one rebuild per rendering asked for next.
final class ClientRenderings: Sendable {
    struct Key: Equatable {
        var resultsVersion: Int64
        var catalogGeneration: Int
        /// The company's wheel threshold; 0 where it plays no part.
        var flagBelow: Double = 0
        /// The company's theme version, for pictures; 0 for JSON, which has no theme.
        var themeVersion: Int64 = 0
    }

    /// One rendering of a client's results: a wheel (`json`, `json-imperial`, `svg-512`, `png-1024`…) or a page
    /// of results (its query).
    struct Slot: Hashable {
        var client: UUID
        var rendering: String
    }

    private struct Entry {
        var key: Key
        var bytes: [UInt8]
    }

    private struct Entries {
        var bySlot: [Slot: Entry] = [:]
        var bytes = 0
    }

    static let maxEntries = 20_000
    /// At most this many bytes are kept.
    let maxBytes: Int
    private let entries = Mutex(Entries())

    /// Pictures are large: without a bound in bytes a few thousand 2048-pixel PNGs would fill memory.
    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    func bytes(of slot: Slot, at key: Key) -> [UInt8]? {
        entries.withLock { entries in entries.bySlot[slot].flatMap { $0.key == key ? $0.bytes : nil } }
    }

    /// Drops every rendering of `client` (erased).
    func forget(client: UUID) {
        entries.withLock { entries in
            for (slot, entry) in entries.bySlot where slot.client == client {
                entries.bySlot[slot] = nil
                entries.bytes -= entry.bytes.count
            }
        }
    }

    func keep(_ bytes: [UInt8], of slot: Slot, at key: Key) {
        entries.withLock { entries in
            let replaced = entries.bySlot[slot]?.bytes.count ?? 0
            let full = entries.bySlot.count >= Self.maxEntries && entries.bySlot[slot] == nil
            if full || entries.bytes - replaced + bytes.count > maxBytes {
                entries = Entries()
            } else {
                entries.bytes -= replaced
            }
            entries.bySlot[slot] = Entry(key: key, bytes: bytes)
            entries.bytes += bytes.count
        }
    }
}
