import Synchronization

/// Reads of one kind that arrive while `lanes` of them are on their way to the database wait, and go together in
/// one statement, at most `maximumGroup` keys each; the same key asked twice meanwhile is read once.
///
/// For a database other nodes write to (PostgreSQL), where every authenticated request reads its session: a round
/// trip costs this node and the server far more than a row does, so under load a few statements serve many
/// requests. Each read still starts after it was asked for, so it sees every change committed before, as a read
/// of its own would. A read asked for while a lane is free goes at once, alone.
///
/// A statement can hang on a connection that died without a word, until the watchdog closes it (75 s): a lane
/// whose read has run for `stalledAfter` no longer counts, so the others are not held behind it (at most
/// `extraLanes` such lanes at once). A group's read fails as a whole: its keys are values a statement cannot
/// refuse one by one (a digest, an id), so what fails is the database, and every caller in the group is told.
final class GroupedReads<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Reads the values of the keys given, once; a key without a value is missing from the answer.
    typealias Fetch = @Sendable ([Key]) async throws -> [Key: Value]

    private struct Line: ~Copyable {
        /// Keys in the order they were first asked for, and who waits for each.
        var order: [Key] = []
        var waiting: [Key: [CheckedContinuation<Value?, any Error>]] = [:]
        /// When each busy lane's current read started (nil: between reads).
        var lanes: [Int: ContinuousClock.Instant?] = [:]
        var nextLane = 0
    }

    private let lanes: Int
    private let extraLanes: Int
    private let maximumGroup: Int
    private let stalledAfter: Duration
    private let fetch: Fetch
    private let line = Mutex(Line())

    init(lanes: Int, maximumGroup: Int, stalledAfter: Duration = .seconds(2), extraLanes: Int = 4, fetch: @escaping Fetch) {
        precondition(lanes > 0 && maximumGroup > 0 && extraLanes >= 0)
        self.lanes = lanes
        self.extraLanes = extraLanes
        self.maximumGroup = maximumGroup
        self.stalledAfter = stalledAfter
        self.fetch = fetch
    }

    /// The value of `key`, read with whatever else waits when a lane is free; nil when there is none.
    func value(for key: Key) async throws -> Value? {
        try await withCheckedThrowingContinuation { continuation in
            let now = ContinuousClock.now
            let lane = line.withLock { line -> Int? in
                if line.waiting[key]?.append(continuation) == nil {
                    line.waiting[key] = [continuation]
                    line.order.append(key)
                }
                let stalled = line.lanes.values.count { started in started.map { now - $0 >= stalledAfter } ?? false }
                guard line.lanes.count - stalled < lanes, line.lanes.count < lanes + extraLanes else { return nil }
                defer { line.nextLane += 1 }
                line.lanes.updateValue(nil, forKey: line.nextLane)
                return line.nextLane
            }
            // A lane reads groups until nothing waits; the others' callers wait for a lane to take them.
            if let lane { Task { await readWhileWaiting(lane: lane) } }
        }
    }

    /// How many callers wait for a lane to take their key (for tests).
    var waitingCallers: Int { line.withLock { line in line.waiting.values.reduce(0) { $0 + $1.count } } }

    private func readWhileWaiting(lane: Int) async {
        while true {
            let group = line.withLock { line -> [(Key, [CheckedContinuation<Value?, any Error>])] in
                let keys = line.order.prefix(maximumGroup)
                line.order.removeFirst(keys.count)
                if keys.isEmpty { line.lanes.removeValue(forKey: lane) } else { line.lanes[lane] = ContinuousClock.now }
                return keys.map { key in (key, line.waiting.removeValue(forKey: key) ?? []) }
            }
            if group.isEmpty { return }
            do {
                let values = try await fetch(group.map(\.0))
                for (key, continuations) in group {
                    for continuation in continuations { continuation.resume(returning: values[key]) }
                }
            } catch {
                for (_, continuations) in group {
                    for continuation in continuations { continuation.resume(throwing: error) }
                }
            }
        }
    }
}
