import Foundation
import Synchronization

/// The encrypted database file and its pooled connections: one writer that serialises every write, and readers
/// that run in parallel thanks to WAL. Connections are opened once, so keying never happens per request.
///
/// Work on a connection is synchronous and never suspends, so a connection is held only for the few microseconds
/// a query takes; if every reader is busy a short-lived extra one is opened rather than making anyone wait.
public final class Database: Sendable {
    public let path: String
    private let key: DatabaseKey
    private let writer: Mutex<Connection>
    private let idleReaders: Mutex<[Connection]>
    private let maxIdleReaders: Int
    /// The data folder's shared lock, held while the database is open (see `DataDirectory.openDatabase`).
    private let folderLock: DataDirectory.Lock?

    /// Opens (or creates) the database at `path`. Throws `StoreError.wrongKey` when `key` does not match.
    public init(path: String, key: DatabaseKey, readers: Int = 4, holding folderLock: DataDirectory.Lock? = nil) throws {
        self.path = path
        self.key = key
        self.folderLock = folderLock
        let writer = try Connection(path: path, key: key)
        // synchronous=FULL: an acknowledged write survives power loss, even in WAL mode.
        try writer.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
        self.writer = Mutex(writer)
        self.maxIdleReaders = readers
        var pool: [Connection] = []
        for _ in 0..<readers { pool.append(try Database.openReader(path: path, key: key)) }
        self.idleReaders = Mutex(pool)
    }

    private static func openReader(path: String, key: DatabaseKey) throws -> Connection {
        let reader = try Connection(path: path, key: key)
        try reader.execute("PRAGMA query_only = ON")
        return reader
    }

    /// Runs `body` on a read-only connection. Each statement sees a consistent snapshot; wrap several reads in
    /// `BEGIN`/`COMMIT` inside `body` if they must agree with each other.
    public func read<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        let reader = try idleReaders.withLock { $0.popLast() } ?? Database.openReader(path: path, key: key)
        defer {
            // A body that began a transaction and then threw must not hand a stale snapshot to the next reader.
            if reader.isInTransaction { try? reader.execute("ROLLBACK") }
            idleReaders.withLock { idle in
                if idle.count < maxIdleReaders { idle.append(reader) }
            }
        }
        return try body(reader)
    }

    /// Runs `body` inside one write transaction; everything it did is committed together or not at all.
    @discardableResult
    public func write<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try writer.withLock { connection in
            try connection.transaction { try body(connection) }
        }
    }

    /// Runs `body` on the writer outside any transaction, for work that manages its own (migrations, backup).
    public func withWriter<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try writer.withLock { connection in try body(connection) }
    }
}
