import Foundation
import Synchronization

/// Each client's wheel slices, rendered by the door that asked (the API: JSON), for as long as what they were built from is unchanged. Bounded: when full it
/// starts over, which costs one rebuild per client asked for next.
final class WheelCache: Sendable {
    struct Key: Equatable {
        var resultsVersion: Int64
        var catalogGeneration: Int
        var flagBelow: Double
    }

    /// A client's wheel in one system of units.
    struct Slot: Hashable {
        var client: UUID
        var imperial: Bool
    }

    private struct Entry {
        var key: Key
        var slices: [UInt8]
    }

    static let maxEntries = 20_000
    private let entries = Mutex<[Slot: Entry]>([:])

    func slices(of slot: Slot, at key: Key) -> [UInt8]? {
        entries.withLock { entries in entries[slot].flatMap { $0.key == key ? $0.slices : nil } }
    }

    func keep(_ slices: [UInt8], of slot: Slot, at key: Key) {
        entries.withLock { entries in
            if entries.count >= Self.maxEntries, entries[slot] == nil { entries.removeAll(keepingCapacity: true) }
            entries[slot] = Entry(key: key, slices: slices)
        }
    }
}
