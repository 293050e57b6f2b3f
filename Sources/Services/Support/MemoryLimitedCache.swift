import Synchronization

/// Values by key, at most `limit` bytes in all (each value's cost given when kept); the least recently used leave
/// first. For pictures drawn from files that never change (thumbnails, report pictures) and pages rendered from
/// the same view (the web console).
public final class MemoryLimitedCache<Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var cost: Int
        var used: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let limit: Int
    private let state: Mutex<State>

    public init(limit: Int) {
        self.limit = limit
        state = Mutex(State())
    }

    public func get(_ key: String) -> Value? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.used = state.clock
            state.entries[key] = entry
            return entry.value
        }
    }

    /// Drops the values whose key `matches` (those of an erased client).
    public func forget(where matches: (String) -> Bool) {
        state.withLock { state in
            for (key, entry) in state.entries where matches(key) {
                state.entries[key] = nil
                state.bytes -= entry.cost
            }
        }
    }

    public func put(_ key: String, _ value: Value, cost: Int) {
        guard cost <= limit else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries.updateValue(Entry(value: value, cost: cost, used: state.clock), forKey: key) {
                state.bytes -= old.cost
            }
            state.bytes += cost
            while state.bytes > limit, let oldest = state.entries.min(by: { $0.value.used < $1.value.used }) {
                state.entries[oldest.key] = nil
                state.bytes -= oldest.value.cost
            }
        }
    }
}
