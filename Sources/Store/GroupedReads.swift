import Synchronization

/// Reads of one kind that arrive while `lanes` of them are on their way to the database wait, and go together in
/// one statement, at most `maximumGroup` keys each; the same key asked twice meanwhile is read once.
///
/// For a database other nodes write to (PostgreSQL), where every authenticated request reads its session: a round
/// trip costs this node and the server far more than a row does, so under load a few statements serve many
/// requests. Each read still starts after it was asked for, so it sees every change committed before, as a read
/// of its own would. A read asked for while a lane is free goes at once, alone.
final class GroupedReads<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Reads the values of the keys given, once; a key without a value is missing from the answer.
    typealias Fetch = @Sendable ([Key]) async throws -> [Key: Value]

    private struct Line: ~Copyable {
        /// Keys in the order they were first asked for, and who waits for each.
        var order: [Key] = []
        var waiting: [Key: [CheckedContinuation<Value?, any Error>]] = [:]
        var busyLanes = 0
    }

    private let lanes: Int
    private let maximumGroup: Int
    private let fetch: Fetch
    private let line = Mutex(Line())

    init(lanes: Int, maximumGroup: Int, fetch: @escaping Fetch) {
        precondition(lanes > 0 && maximumGroup > 0)
        self.lanes = lanes
        self.maximumGroup = maximumGroup
        self.fetch = fetch
    }

    /// The value of `key`, read with whatever else waits when a lane is free; nil when there is none.
    func value(for key: Key) async throws -> Value? {
        try await withCheckedThrowingContinuation { continuation in
            let opensLane = line.withLock { line in
                if line.waiting[key]?.append(continuation) == nil {
                    line.waiting[key] = [continuation]
                    line.order.append(key)
                }
                guard line.busyLanes < lanes else { return false }
                line.busyLanes += 1
                return true
            }
            // A lane reads groups until nothing waits; the others' callers wait for a lane to take them.
            if opensLane { Task { await readWhileWaiting() } }
        }
    }

    /// How many callers wait for a lane to take their key (for tests).
    var waitingCallers: Int { line.withLock { line in line.waiting.values.reduce(0) { $0 + $1.count } } }

    private func readWhileWaiting() async {
        while true {
            let group = line.withLock { line -> [(Key, [CheckedContinuation<Value?, any Error>])] in
                let keys = line.order.prefix(maximumGroup)
                line.order.removeFirst(keys.count)
                if keys.isEmpty { line.busyLanes -= 1 }
                return keys.map { key in (key, line.waiting.removeValue(forKey: key) ?? []) }
            }
            if group.isEmpty { return }
            await read(group)
        }
    }

    private func read(_ group: [(Key, [CheckedContinuation<Value?, any Error>])]) async {
        do {
            let values = try await fetch(group.map(\.0))
            for (key, continuations) in group {
                for continuation in continuations { continuation.resume(returning: values[key]) }
            }
        } catch {
            guard group.count > 1 else {
                for continuation in group[0].1 { continuation.resume(throwing: error) }
                return
            }
            // Each alone: only a key at fault fails.
            for entry in group { await read([entry]) }
        }
    }
}
