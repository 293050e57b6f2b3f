import Foundation
import Synchronization

/// Values read from the database on every request's hot path (a session's principal, a list or results
/// version), reused while this process has committed nothing since they were read, and for at most `lifetime`.
///
/// Every write of this process goes through its one writer, so a logout, a password change or a new result
/// makes the next read go to the database at once. Writes of another process (the CLI, a second node later)
/// are seen within `lifetime`.
final class ReadCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var commits: Int
        var readAt: ContinuousClock.Instant
    }

    private let database: Database
    private let lifetime: Duration
    private let capacity: Int
    private let entries = Mutex<[Key: Entry]>([:])

    init(database: Database, lifetime: Duration = .seconds(1), capacity: Int = 10_000) {
        self.database = database
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The cached value for `key`, or what `read` returns now (then cached).
    func value(for key: Key, read: () throws -> Value) rethrows -> Value {
        let now = ContinuousClock.now
        // Taken before the read: a commit that lands during it makes the entry stale at once, never hidden.
        let commits = database.commitCount
        if let entry = entries.withLock({ $0[key] }), entry.commits == commits, now - entry.readAt < lifetime {
            return entry.value
        }
        let value = try read()
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(value: value, commits: commits, readAt: now)
        }
        return value
    }
}
