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

    /// A value being made for a key that missed, and how many more callers wait for it.
    private struct Making {
        let task: Task<Value, any Error>
        let token: UInt64
        var waiting = 0
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var making: [String: Making] = [:]
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

    /// The value kept under `key`, or the one `make` gives, then kept at the cost `cost` gives. Callers that miss
    /// the same key together wait for one `make` (a report opened by many at once draws each of its pictures
    /// once, not once a request); when it throws, each of them gets the error and nothing is kept.
    public func value(
        for key: String,
        cost: @escaping @Sendable (Value) -> Int,
        make: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let found = state.withLock { state -> Found in
            if let entry = state.entries[key] {
                state.clock += 1
                state.entries[key]?.used = state.clock
                return .kept(entry.value)
            }
            if let making = state.making[key] {
                state.making[key]?.waiting += 1
                return .making(making.task)
            }
            state.clock += 1
            let token = state.clock
            // The task's own bookkeeping waits for this lock, so it always finds its entry in `making`.
            let task = Task<Value, any Error> {
                do {
                    let value = try await make()
                    self.finishMaking(key, token, keeping: value, cost: cost(value))
                    return value
                } catch {
                    self.finishMaking(key, token, keeping: nil, cost: 0)
                    throw error
                }
            }
            state.making[key] = Making(task: task, token: token)
            return .making(task)
        }
        switch found {
        case .kept(let value): return value
        case .making(let task): return try await task.value
        }
    }

    private enum Found {
        case kept(Value)
        case making(Task<Value, any Error>)
    }

    /// Callers waiting for a value being made under `key`, besides the one that started it (tests wait on it).
    func waiting(for key: String) -> Int? {
        state.withLock { $0.making[key]?.waiting }
    }

    /// Ends the making of `key` by the task holding `token`; keeps `value` unless it was forgotten meanwhile.
    private func finishMaking(_ key: String, _ token: UInt64, keeping value: Value?, cost: Int) {
        state.withLock { state in
            guard state.making[key]?.token == token else { return }
            state.making[key] = nil
            if let value { keep(key, value, cost: cost, in: &state) }
        }
    }

    /// Drops the values whose key `matches` (those of an erased client); a value being made for such a key is
    /// still given to whoever waits for it, but not kept.
    public func forget(where matches: (String) -> Bool) {
        state.withLock { state in
            for (key, entry) in state.entries where matches(key) {
                state.entries[key] = nil
                state.bytes -= entry.cost
            }
            for key in state.making.keys where matches(key) {
                state.making[key] = nil
            }
        }
    }

    public func put(_ key: String, _ value: Value, cost: Int) {
        state.withLock { keep(key, value, cost: cost, in: &$0) }
    }

    private func keep(_ key: String, _ value: Value, cost: Int, in state: inout State) {
        guard cost <= limit else { return }
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
