import Foundation
import Synchronization

/// Each client's wheel, rendered by the door that asked (the API: JSON slices, SVG or PNG pictures), for as long
/// as what it was built from is unchanged. Bounded in entries and in bytes: when full it starts over, which costs
/// one rebuild per wheel asked for next.
final class WheelCache: Sendable {
    struct Key: Equatable {
        var resultsVersion: Int64
        var catalogGeneration: Int
        var flagBelow: Double
        /// The company's theme version, for pictures; 0 for JSON, which has no theme.
        var themeVersion: Int64 = 0
    }

    /// A client's wheel in one rendering (`json`, `json-imperial`, `svg-512`, `png-1024`…).
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
    /// Pictures are large: a few thousand 2048-pixel PNGs would otherwise fill memory.
    static let maxBytes = 64 << 20
    private let entries = Mutex(Entries())

    func bytes(of slot: Slot, at key: Key) -> [UInt8]? {
        entries.withLock { entries in entries.bySlot[slot].flatMap { $0.key == key ? $0.bytes : nil } }
    }

    func keep(_ bytes: [UInt8], of slot: Slot, at key: Key) {
        entries.withLock { entries in
            let replaced = entries.bySlot[slot]?.bytes.count ?? 0
            let full = entries.bySlot.count >= Self.maxEntries && entries.bySlot[slot] == nil
            if full || entries.bytes - replaced + bytes.count > Self.maxBytes {
                entries = Entries()
            } else {
                entries.bytes -= replaced
            }
            entries.bySlot[slot] = Entry(key: key, bytes: bytes)
            entries.bytes += bytes.count
        }
    }
}
