import Dispatch
import Foundation
import StoreContract
import Synchronization

/// The encrypted database file and its pooled connections: one writer, owned by its own thread, that commits
/// queued writes in groups (`GroupCommitWriter`), and readers that run in parallel thanks to WAL. Connections are
/// opened once, so keying never happens per request.
///
/// Writes suspend the caller until their batch is durable and never occupy a Swift-concurrency thread while the
/// disk syncs. Reads run inline on the caller's thread: they are served from the page cache in microseconds
/// (measured in bench/run against a thread-pool variant, see docs/ARCHITECTURE.md §3); if every reader is busy a
/// short-lived extra one is opened rather than making anyone wait.
public final class SQLiteDatabase: SQLDatabase {
    public var dialect: SQLDialect { .sqlite }
    /// Only this process writes, but for the command line now and then (its writes are seen within a second).
    public var isShared: Bool { false }
    /// None: SQLCipher encrypts every page of the file.
    public var sealer: ColumnSealer? { nil }
    /// What the audit trail is keyed under (given to the writer's connection); nil where nothing is audited.
    public let auditKey: AuditKey?
    /// The database file, as given: extra readers open it again when every pooled reader is busy.
    public let path: String
    private let key: DatabaseKey
    private let writer: GroupCommitWriter
    private let longReads: LongReads
    let checkpointer: Checkpointer
    private let idleReaders: Mutex<[SQLiteConnection]>
    private let maxIdleReaders: Int
    /// The data folder's shared lock, held while the database is open (see `DataDirectory.openDatabase`).
    private let folderLock: DataDirectory.Lock?

    /// Opens (or creates) the database at `path`. Throws `StoreError.wrongKey` when `key` does not match.
    /// `checkpointAfterFrames`: see `Checkpointer.defaultThreshold`. Without an `auditKey` nothing can be added
    /// to the audit trail (`StoreError.noAuditKey`).
    public init(
        path: String,
        key: DatabaseKey,
        auditKey: AuditKey?,
        readers: Int = 4,
        holding folderLock: DataDirectory.Lock? = nil,
        checkpointAfterFrames: Int = Checkpointer.defaultThreshold
    ) throws {
        self.path = path
        self.key = key
        self.auditKey = auditKey
        self.folderLock = folderLock
        let connection = try SQLiteConnection(path: path, key: key)
        connection.auditKey = auditKey
        // synchronous=FULL: an acknowledged write survives power loss, even in WAL mode. The writer's page cache is
        // larger than a reader's: every page it has to read back from disk costs a decryption, and a large import
        // touches every index of the roster. secure_delete: a deleted row's bytes are overwritten with zeros in its
        // page, and freed pages too, so an erased client leaves nothing in the file (SQLCipher's build has it on
        // already; said here so that no build can turn it off).
        try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA cache_size = -65536; PRAGMA secure_delete = ON;")
        let checkpointConnection = try SQLiteConnection(path: path, key: key)
        try checkpointConnection.execute("PRAGMA synchronous = FULL")
        self.maxIdleReaders = readers
        var pool: [SQLiteConnection] = []
        for _ in 0..<readers { pool.append(try SQLiteDatabase.openReader(path: path, key: key)) }
        self.idleReaders = Mutex(pool)
        // The threads start last, once nothing can throw.
        let checkpointer = Checkpointer(connection: checkpointConnection, threshold: checkpointAfterFrames)
        connection.observeCommittedFrames { [unowned connection] in checkpointer.committed(frames: $0, on: connection) }
        self.checkpointer = checkpointer
        self.writer = GroupCommitWriter(connection: connection)
        self.longReads = LongReads(threads: 2)
    }

    deinit { close() }

    public var location: String { path }

    public func close() {
        writer.close()
        longReads.close()
        checkpointer.close()
    }

    public func mediaStorage(folder: URL) throws -> any MediaStorage { try SealedMediaFiles(root: folder) }

    private static func openReader(path: String, key: DatabaseKey) throws -> SQLiteConnection {
        let reader = try SQLiteConnection(path: path, key: key)
        try reader.execute("PRAGMA query_only = ON")
        return reader
    }

    /// Runs `body` on a read-only connection, inline (see the type's comment). Each statement sees a consistent
    /// snapshot; wrap several reads in `BEGIN`/`COMMIT` inside `body` if they must agree with each other.
    public func read<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T {
        let reader = try idleReaders.withLock { $0.popLast() } ?? SQLiteDatabase.openReader(path: path, key: key)
        defer { giveBack(reader) }
        return try await body(reader)
    }

    /// Runs `body` on one of the long reads' threads (`LongReads`), in `company`'s turn, and suspends the caller
    /// meanwhile.
    public func longRead<T: Sendable>(for company: UUID, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            longReads.run(for: company) { [self] in continuation.resume(with: Result { try readBlocking(body) }) }
        }
    }

    public func readBlocking<T: Sendable>(_ body: (any SQLConnection) async throws -> T) throws -> T {
        try ThreadExecutor.run { try await read(body) }
    }

    private func giveBack(_ reader: SQLiteConnection) {
        // A body that began a transaction and then threw must not hand a stale snapshot to the next reader.
        if reader.isInTransaction { try? reader.execute("ROLLBACK") }
        idleReaders.withLock { idle in
            if idle.count < maxIdleReaders { idle.append(reader) }
        }
    }

    /// Runs `body` on the writer thread inside a group transaction, and returns once the COMMIT holding its work
    /// is durable. If `body` throws, its own changes are rolled back and the error comes back; the writes batched
    /// with it go on. `body` must not begin or end transactions itself, and must change nothing but the database:
    /// when another write of its batch throws, the batch is rolled back and runs again, `body` included.
    @discardableResult
    public func write<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T {
        try await write(synced: true, body)
    }

    /// A batch of unsynced writes only commits with `synchronous = NORMAL` (no fsync in WAL mode); one durable
    /// write in the batch makes the whole batch durable.
    @discardableResult
    public func writeUnsynced<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T {
        try await write(synced: false, body)
    }

    private func write<T: Sendable>(synced: Bool, _ body: (any SQLConnection) async throws -> T) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            let job = PendingWrite { try await body($0) }
            return try await withCheckedThrowingContinuation { continuation in
                var queued = job.job(resuming: continuation)
                queued.synced = synced
                writer.enqueue([queued])
            }
        }
    }

    /// Runs each body as its own write, all queued at once and in order, so that they share transactions: one
    /// fsync for many (an import of thousands of cards). Each outcome is its body's alone: one that throws is
    /// rolled back by itself and the others still land. Returns once every one is durable or failed.
    /// On the writer's thread like every write: one writer orders them all here.
    @discardableResult
    public func writeStatement(_ sql: String, _ arguments: [any SQLConvertible]) async throws -> Int {
        try await write { db in try await db.run(sql, arguments) }
    }

    public func writeEach<Item: Sendable, T: Sendable>(
        _ items: [Item],
        _ body: (Item, any SQLConnection) async throws -> T
    ) async -> [Result<T, any Error>] {
        guard !items.isEmpty else { return [] }
        return await withoutActuallyEscaping(body) { body in
            await withCheckedContinuation { continuation in
                let outcomes = Outcomes<T>(count: items.count) { continuation.resume(returning: $0) }
                writer.enqueue(
                    items.enumerated().map { index, item in
                        PendingWrite { try await body(item, $0) }.job { outcomes.set(index, $0) }
                    }
                )
            }
        }
    }

    /// Runs `body` on the writer connection outside any transaction, for work that manages its own (migrations,
    /// backup, rekey). Blocks the calling thread until done: for start-up and command-line tools only, never
    /// from a request.
    public func withWriter<T: Sendable>(_ body: (SQLiteConnection) async throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            let job = PendingWrite(body)
            let done = DispatchSemaphore(value: 0)
            let outcome = Mutex<Result<T, any Error>?>(nil)
            var queued = job.job { result in
                outcome.withLock { $0 = result }
                done.signal()
            }
            queued.ownsTransaction = true
            writer.enqueue([queued])
            done.wait()
            return try outcome.withLock { $0! }.get()
        }
    }

    /// Copies the whole write-ahead log into the database file and truncates the log to zero bytes, on the
    /// writer thread between two transactions: after an erasure no old page image of what was deleted stays in
    /// the `-wal` file. Readers that keep it busy for more than about half a second (other writes wait meanwhile)
    /// hand it to the checkpointer's thread, which keeps trying until it is done; returns false then.
    @discardableResult
    public func truncateLog() async throws -> Bool {
        let job = PendingWrite { try $0.checkpointTruncating(within: .milliseconds(500)) }
        let truncated = try await withCheckedThrowingContinuation { continuation in
            var queued = job.job(resuming: continuation)
            queued.ownsTransaction = true
            writer.enqueue([queued])
        }
        if !truncated { checkpointer.requestTruncation() }
        return truncated
    }

    /// Checkpoints the checkpointer thread has completed, for tests.
    var checkpointCount: Int { checkpointer.count }

    /// Moves after every commit that changed a row of one of `tables` (rowid tables only; see `TableChanges`).
    public func changeStamp(of tables: [String]) -> Int? { writer.tableChanges.stamp(of: tables) }

    /// The deleted rows' bytes are zeroed in their pages already (`secure_delete`); what is left is the
    /// write-ahead log's older page images, so the log is truncated.
    public func purgeDeleted(from tables: [String]) async throws {
        try await truncateLog()
    }

    public func refreshStatistics(of tables: [String]) async {}

    /// Commits and jobs the writer has done so far (a commit holds one or more jobs).
    public var writeStatistics: (commits: Int, jobs: Int) {
        let counters = writer.statistics
        return (counters.commits, counters.jobs)
    }
}

/// A caller's body on its way to the writer thread, and its value on the way back.
///
/// The body is the caller's non-escaping closure (see `withoutActuallyEscaping` above): it is dropped on the
/// writer thread before the caller is resumed, so it never outlives the call that lent it. `@unchecked
/// Sendable` because only the writer thread touches `body` and `value`, and the caller reads nothing until
/// it is resumed after them.
private final class PendingWrite<T: Sendable>: @unchecked Sendable {
    private var body: ((SQLiteConnection) async throws -> T)?
    private var value: T?

    init(_ body: @escaping (SQLiteConnection) async throws -> T) {
        self.body = body
    }

    func job(resuming continuation: CheckedContinuation<T, any Error>) -> GroupCommitWriter.Job {
        job { continuation.resume(with: $0) }
    }

    func job(finishing: @escaping @Sendable (Result<T, any Error>) -> Void) -> GroupCommitWriter.Job {
        GroupCommitWriter.Job(
            run: { connection in
                guard let body = self.body else { return }
                self.value = try await body(connection)
            },
            finish: { error in
                self.body = nil
                let value = self.value
                self.value = nil
                if let error {
                    finishing(.failure(error))
                } else if let value {
                    finishing(.success(value))
                } else {
                    finishing(.failure(StoreError.closed))
                }
            }
        )
    }
}

/// The outcomes of `writeEach`, handed over once the last one is in.
private final class Outcomes<T: Sendable>: Sendable {
    private let state: Mutex<(results: [Result<T, any Error>?], missing: Int)>
    private let completion: @Sendable ([Result<T, any Error>]) -> Void

    init(count: Int, completion: @escaping @Sendable ([Result<T, any Error>]) -> Void) {
        state = Mutex((Array(repeating: nil, count: count), count))
        self.completion = completion
    }

    func set(_ index: Int, _ outcome: Result<T, any Error>) {
        let all = state.withLock { state -> [Result<T, any Error>]? in
            state.results[index] = outcome
            state.missing -= 1
            return state.missing == 0 ? state.results.map { $0! } : nil
        }
        if let all { completion(all) }
    }
}
