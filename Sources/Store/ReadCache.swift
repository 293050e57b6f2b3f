import Foundation
import StoreContract
import Synchronization

/// Values read from the database on every request's hot path (a session's principal, a list or results
/// version), reused while their stamp has not moved since they were read, and for at most `lifetime`.
///
/// The stamp is a number that moves when what the value was read from may have changed: the commits that
/// changed one of a few tables (`TableChanges`: a client record survives the results
/// posted meanwhile), a `Generation` that writes of one kind move (sessions, whose table the update hook cannot
/// see), or anything per key (a client's own results). Every write of this process goes through its one writer,
/// so the next read after a commit sees it; writes of another process (the CLI) are seen within `lifetime`.
/// A database that other nodes write to (`SQLDatabase.isShared`) gives no stamp: then every value is read.
final class ReadCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var stamp: Int
        var readAt: ContinuousClock.Instant
    }

    private let stamp: @Sendable (Key) -> Int?
    private let lifetime: Duration
    private let capacity: Int
    private let entries = Mutex<[Key: Entry]>([:])

    /// Entries stay while nothing was committed that changed a row of `tables` (which must have rowids).
    convenience init(database: any SQLDatabase, watching tables: [String], lifetime: Duration = .seconds(1), capacity: Int = 10_000) {
        self.init(stamp: { _ in database.changeStamp(of: tables) }, lifetime: lifetime, capacity: capacity)
    }

    /// Entries stay while `generation` has not moved since they were read.
    convenience init(database: any SQLDatabase, generation: Generation, lifetime: Duration = .seconds(1), capacity: Int = 10_000) {
        let shared = database.isShared
        self.init(stamp: { _ in shared ? nil : generation.current }, lifetime: lifetime, capacity: capacity)
    }

    /// Entries stay while `stamp` gives the same number for their key as when they were read; nothing is kept
    /// while it gives nil.
    init(stamp: @escaping @Sendable (Key) -> Int?, lifetime: Duration = .seconds(1), capacity: Int = 10_000) {
        self.stamp = stamp
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The cached value for `key`, or what `read` returns now (then cached). Where this cache has no stamp of
    /// its own (a shared database), `known` serves: a stamp the caller read from the database before this call.
    func value(for key: Key, known: Int? = nil, read: () async throws -> Value) async rethrows -> Value {
        let now = ContinuousClock.now
        // Taken before the read: a commit that lands during it makes the entry stale at once, never hidden.
        guard let current = stamp(key) ?? known else { return try await read() }
        if let entry = entries.withLock({ $0[key] }), entry.stamp == current, now - entry.readAt < lifetime {
            return entry.value
        }
        let value = try await read()
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(value: value, stamp: current, readAt: now)
        }
        return value
    }

    /// Drops the entries whose key `matches` (an erased client's): what is gone must not stay in memory either.
    func forget(where matches: (Key) -> Bool) {
        entries.withLock { entries in entries = entries.filter { !matches($0.key) } }
    }
}

/// A counter that the writes of one kind move once they are committed, for the `ReadCache` of what they change.
final class Generation: Sendable {
    private let value = Atomic<Int>(0)

    var current: Int { value.load(ordering: .acquiring) }

    /// Call after the write's commit returned (a read racing it then caches under the old value, soon stale).
    func advance() { value.add(1, ordering: .releasing) }
}

/// A counter per key (a client, say) that the writes concerning it move once they are committed.
final class KeyedGeneration<Key: Hashable & Sendable>: Sendable {
    private struct Counters {
        var byKey: [Key: Int] = [:]
        /// Moves when `byKey` is emptied to bound its size, so no key's number ever repeats.
        var epoch = 0
    }

    private let counters = Mutex(Counters())
    private let capacity: Int

    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    func current(_ key: Key) -> Int {
        counters.withLock { ($0.epoch << 32) &+ ($0.byKey[key] ?? 0) }
    }

    /// Call after the write's commit returned.
    func advance(_ keys: some Sequence<Key>) {
        counters.withLock { counters in
            if counters.byKey.count >= capacity {
                counters.byKey.removeAll(keepingCapacity: true)
                counters.epoch += 1
            }
            for key in keys { counters.byKey[key, default: 0] &+= 1 }
        }
    }
}
