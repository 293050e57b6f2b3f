#if PostgreSQL
import StoreContract
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// A PostgreSQL database that several Healthwheel nodes share, behind the same `SQLDatabase` calls as the
/// embedded file.
///
/// Statements go through postgres-nio's `PostgresClient`: its pool leases a connection to a body for as long as
/// the body runs, and each statement awaits the server's answer, so no thread (of ours or of Swift's pool) waits
/// on the network. The statements every request makes are prepared once per connection (`StatementCatalog`).
/// Write transactions run side by side (READ COMMITTED), locking only rows: a body that reads then writes locks
/// what its decision rests on first (the company's row, `SQLConnection.lockCompany`; a claimed delivery,
/// `FOR UPDATE SKIP LOCKED`), or writes only if what it read still stands (a result's revision); the audit
/// trail's head row orders appends, so its hash chain cannot fork. Columns of health data are sealed by the
/// repositories (`ColumnSealer`).
public final class PostgreSQLDatabase: SQLDatabase {
    public var dialect: SQLDialect { .postgres }
    /// Several nodes write: nothing read may be kept without asking.
    public var isShared: Bool { true }
    /// Where it is, without the password.
    public let url: PostgreSQLURL
    public let sealer: ColumnSealer?
    public let auditKey: AuditKey?
    /// The connections of the callers that suspend: requests and the server's background work.
    private let pool: Pool
    /// The connections of the callers that block their thread while they wait (`readBlocking`, the media files,
    /// migrations): kept apart, because holders of `pool` need Swift's threads to go on and release, and a blocking
    /// caller may be one of those threads.
    private let blockingConnections: BlockingConnections
    /// The media files' own blocking connections, whose commits do not wait for the disk (`withMediaConnection`).
    private let mediaConnections: BlockingConnections
    private let statements = StatementCatalog()
    private let watchdog: StatementWatchdog
    /// Long reads hold at most half the pool's connections, so the other half always serves everything else.
    private let longReadTurns: CompanyTurns
    /// Memory a burst of work freed goes back to the system once the node has been idle for 10 s.
    private let idleRelease = IdleMemoryRelease(every: .seconds(10))
    private let logger: Logger

    /// The lock that lets one node at a time migrate.
    static let migrationLock: Int64 = 0x6877_0002

    /// Connects once, to fail now (wrong password, no server, TLS refused) rather than on the first request.
    /// `connections` bounds how many this node opens, and so how many statements it has in flight at once. A
    /// statement unanswered after `answerDeadline` (the server's own `statement_timeout`, 60 s, plus a margin)
    /// closes its connection and fails: a dead server or network never holds a request for good. Without an
    /// `auditKey` nothing can be added to the audit trail (`StoreError.noAuditKey`).
    public init(
        url: PostgreSQLURL,
        sealer: ColumnSealer?,
        auditKey: AuditKey?,
        connections: Int = 16,
        answerDeadline: Duration = .seconds(75),
        logger: Logger = Logger(label: "healthwheel.postgres")
    ) throws {
        self.url = url
        self.sealer = sealer
        self.auditKey = auditKey
        self.logger = logger
        let tls = try Self.tls(for: url)
        var connectionConfiguration = PostgresConnection.Configuration(
            host: url.host,
            port: url.port,
            username: url.user,
            password: url.password,
            database: url.database,
            tls: try tls.connection()
        )
        connectionConfiguration.options.additionalStartupParameters = Self.startup
        pool = Pool(try Self.poolConfiguration(url, connections: connections), logger: logger)
        blockingConnections = BlockingConnections(connectionConfiguration, idleLimit: max(1, connections / 4), logger: logger)
        connectionConfiguration.options.additionalStartupParameters = Self.startup + [("synchronous_commit", "off")]
        mediaConnections = BlockingConnections(connectionConfiguration, idleLimit: max(1, connections / 4), logger: logger)
        watchdog = StatementWatchdog(deadline: answerDeadline)
        longReadTurns = CompanyTurns(slots: connections / 2)
        // One connection now (kept for the blocking callers), which also gives the pool's task time to start before
        // anything asks it for one.
        do {
            try withConnectionBlocking { _ in }
        } catch {
            close()
            throw StoreError.cannotConnect(url: url.description, reason: PostgreSQLError(error).description)
        }
    }

    /// The URL without its password.
    public var location: String { url.description }

    /// Media in the database too, sealed in chunks, so that every node reads what another stored.
    public func mediaStorage(folder: URL) throws -> any MediaStorage { PostgreSQLMediaStorage(database: self) }

    /// Stops the pool: connections close once the bodies holding them are done, and later calls fail.
    public func close() {
        pool.close()
        blockingConnections.close()
        mediaConnections.close()
        watchdog.stop()
        idleRelease.stop()
    }

    /// A statement that runs away is stopped by the server; the name shows in pg_stat_activity.
    private static let startup = [("application_name", "healthwheel"), ("statement_timeout", "60s")]

    /// How a node's pool reaches `url` (TLS as the URL asks, the node's session settings) with `connections`, all
    /// opened at the start and kept without keep-alive queries: a connection handed back then schedules no timers
    /// (an idle timeout, a keep-alive), which cost a timer task and its cancellation on every lease. A connection
    /// the server ends is seen closing by its event loop and replaced (`withConnection` passes over one leased
    /// before the pool saw it go); one that hangs is the watchdog's. bench/pg-client-bench measures postgres-nio
    /// alone with the same.
    public static func poolConfiguration(_ url: PostgreSQLURL, connections: Int) throws -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: url.host,
            port: url.port,
            username: url.user,
            password: url.password,
            database: url.database,
            tls: try tls(for: url).client
        )
        configuration.options.additionalStartupParameters = startup
        configuration.options.maximumConnections = max(1, connections)
        configuration.options.minimumConnections = configuration.options.maximumConnections
        configuration.options.keepAliveBehavior = nil
        return configuration
    }

    private struct TLSChoice {
        let client: PostgresClient.Configuration.TLS
        let connection: () throws -> PostgresConnection.Configuration.TLS
    }

    private static func tls(for url: PostgreSQLURL) throws -> TLSChoice {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch url.tls {
        case .disable: return TLSChoice(client: .disable, connection: { .disable })
        case .allow, .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let path = url.rootCertificatePath { tls.trustRoots = .file(path) }
        let prefer = url.tls == .allow || url.tls == .prefer
        let configuration = tls
        return TLSChoice(
            client: prefer ? .prefer(configuration) : .require(configuration),
            connection: {
                let context = try NIOSSLContext(configuration: configuration)
                return prefer ? .prefer(context) : .require(context)
            }
        )
    }

    /// `withConnection` for a caller that may block its thread (the media files' calls, which run on threads
    /// that may wait, and start-up): the calling thread runs the body (`ThreadExecutor`), with a connection of
    /// the blocking callers'.
    @discardableResult
    func withConnectionBlocking<T>(_ body: (PostgreSQLConnection) async throws -> T) throws -> T {
        try withConnectionBlocking(of: blockingConnections, body)
    }

    /// `withConnectionBlocking` for the media files' chunks and marks, on connections whose commits do not wait
    /// for the disk (`synchronous_commit = off`). A medium's bytes are megabytes of write-ahead log: waiting for
    /// each chunk's flush kept every other company's commits queued behind one company's uploads. Nothing is
    /// lost by it: a file counts only once the media row naming it is committed, durably and after it, and a flush
    /// takes the log in order, so that commit makes the file's rows durable too; a file cut short by a crash has
    /// no row and is swept.
    @discardableResult
    func withMediaConnection<T>(_ body: (PostgreSQLConnection) async throws -> T) throws -> T {
        try withConnectionBlocking(of: mediaConnections, body)
    }

    private func withConnectionBlocking<T>(of connections: BlockingConnections, _ body: (PostgreSQLConnection) async throws -> T) throws -> T {
        idleRelease.noteActivity()
        return try ThreadExecutor.run {
            let connection = try await connections.take()
            defer { connections.giveBack(connection) }
            do {
                return try await body(wrapping(connection))
            } catch let error as PSQLError {
                throw PostgreSQLError(error)
            }
        }
    }

    private func wrapping(_ connection: PostgresConnection) -> PostgreSQLConnection {
        PostgreSQLConnection(connection: connection, statements: statements, watchdog: watchdog, sealer: sealer, auditKey: auditKey, logger: logger)
    }

    /// Runs `body` with a connection of the pool, leased for as long as it runs. A connection that closed while it
    /// was idle (the server ended it, or the watchdog gave up on it) may be leased before the pool has seen it
    /// close: it is handed back, and another asked for.
    @discardableResult
    func withConnection<T>(_ body: (PostgreSQLConnection) async throws -> T) async throws -> T {
        idleRelease.noteActivity()
        do {
            for attempt in 1... {
                let outcome: T? = try await pool.client.withConnection { connection in
                    if connection.isClosed && attempt < 10 { return nil }
                    return try await body(wrapping(connection))
                }
                if let outcome { return outcome }
                await Task.yield()
            }
            fatalError("unreachable")
        } catch let error as PSQLError {
            throw PostgreSQLError(error)
        }
    }

    public func read<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T {
        try await withConnection { try await body($0) }
    }

    public func readBlocking<T: Sendable>(_ body: (any SQLConnection) async throws -> T) throws -> T {
        try withConnectionBlocking { try await body($0) }
    }

    /// Reads suspend while the server works: a long one holds a connection, not a thread, and takes one of half
    /// the pool's connections in its company's turn (`CompanyTurns`).
    public func longRead<T: Sendable>(for company: UUID, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await longReadTurns.run(for: company) { try await read(body) }
    }

    @discardableResult
    public func write<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T {
        try await withConnection { connection in try await Self.transaction(on: connection) { try await body(connection) } }
    }

    /// `synchronous_commit = off` for this transaction only: the server acknowledges the commit before its log is
    /// flushed, and flushes it with the next (within `wal_writer_delay`, 200 ms).
    @discardableResult
    public func writeUnsynced<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T {
        try await write { connection in
            try await connection.execute("SET LOCAL synchronous_commit = off")
            return try await body(connection)
        }
    }

    /// Without `BEGIN` and `COMMIT`: the statement is its own transaction, and locks only the rows it changes.
    @discardableResult
    public func writeStatement(_ sql: String, _ arguments: [any SQLConvertible]) async throws -> Int {
        try await withConnection { connection in try await Self.retrying { try await connection.run(sql, arguments) } }
    }

    /// Items in transactions of `itemsPerTransaction`. Each transaction first runs its items without savepoints
    /// (two round trips fewer per item); if one throws, it is rolled back and runs again with a savepoint per item,
    /// so that only the one that throws is undone, as on SQLite (`GroupCommitWriter`). PostgreSQL keeps a
    /// transaction's first 64 subtransactions (savepoints) in shared memory and the rest on disk (`pg_subtrans`),
    /// which every visibility check of the server then reads: more per transaction would slow every session.
    public func writeEach<Item: Sendable, T: Sendable>(
        _ items: [Item],
        _ body: (Item, any SQLConnection) async throws -> T
    ) async -> [Result<T, any Error>] {
        var outcomes: [Result<T, any Error>] = []
        outcomes.reserveCapacity(items.count)
        for start in stride(from: 0, to: items.count, by: Self.itemsPerTransaction) {
            let batch = items[start..<min(start + Self.itemsPerTransaction, items.count)]
            do {
                outcomes += try await withConnection { connection in
                    do {
                        return try await Self.transaction(on: connection) {
                            var values: [Result<T, any Error>] = []
                            for item in batch { values.append(.success(try await body(item, connection))) }
                            return values
                        }
                    } catch {
                        return try await Self.transaction(on: connection) {
                            var outcomes: [Result<T, any Error>] = []
                            for item in batch {
                                do {
                                    try await connection.execute("SAVEPOINT item")
                                    let value = try await body(item, connection)
                                    try await connection.execute("RELEASE SAVEPOINT item")
                                    outcomes.append(.success(value))
                                } catch {
                                    try? await connection.execute("ROLLBACK TO SAVEPOINT item")
                                    outcomes.append(.failure(error))
                                }
                            }
                            return outcomes
                        }
                    }
                }
            } catch {
                outcomes += batch.map { _ in .failure(error) }
            }
        }
        return outcomes
    }

    static let itemsPerTransaction = 50

    /// `BEGIN`, `body`, `COMMIT`; rolled back if anything throws, and `retrying`.
    static func transaction<T>(on connection: PostgreSQLConnection, _ body: () async throws -> T) async throws -> T {
        try await retrying {
            do {
                try await connection.execute("BEGIN")
                let value = try await body()
                try await connection.execute("COMMIT")
                return value
            } catch {
                try? await connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Runs `write` again (five times in all at most) while PostgreSQL reports a serialization failure or a
    /// deadlock: writes of several nodes run side by side, and one of two that lock rows in turn may be chosen.
    static func retrying<T>(_ write: () async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await write()
            } catch let failure as PostgreSQLError where failure.isRetryable && attempt < 5 {
                attempt += 1
            }
        }
    }

    public func changeStamp(of tables: [String]) -> Int? { nil }

    /// VACUUM removes the deleted rows' versions from the tables' pages and indexes.
    public func purgeDeleted(from tables: [String]) async throws {
        try await withConnection { connection in
            for table in tables { try await connection.execute("VACUUM \(table)") }
        }
    }
}

extension PostgreSQLDatabase {
    public func refreshStatistics(of tables: [String]) async {
        do {
            try await withConnection { connection in
                for table in tables {
                    // The table's pages now against those its statistics counted: read off the file's size, so
                    // exact and at once (the server's row counters reach the statistics views up to seconds late).
                    let rows = try await connection.query(
                        "SELECT relpages, pg_relation_size(oid) / current_setting('block_size')::int AS pages FROM pg_class WHERE oid = ?::regclass",
                        table
                    )
                    guard let row = rows.first else { continue }
                    let counted: Int = try row["relpages"]
                    let pages: Int = try row["pages"]
                    if pages >= 2 * counted + Self.pagesBeforeStatistics {
                        try await connection.execute("ANALYZE \(table)")
                    }
                }
            }
        } catch {
            // Autovacuum takes them in a minute or so.
            logger.warning("statistics not refreshed", metadata: ["tables": "\(tables)", "error": "\(error)"])
        }
    }

    /// Growth (in 8 kB pages) worth statistics of its own, however small the table was.
    static let pagesBeforeStatistics = 8
}

/// A `PostgresClient` and the task that runs it until `close`.
private struct Pool: Sendable {
    let client: PostgresClient
    private let running: Task<Void, Never>

    init(_ configuration: PostgresClient.Configuration, logger: Logger) {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        // The pool's own work (opening connections, keeping them alive) runs on an event loop: callers that block
        // threads of Swift's pool while they wait for a connection cannot starve it.
        running = Task(executorPreference: EventLoopTaskExecutor(MultiThreadedEventLoopGroup.singleton.next())) {
            await client.run()
        }
    }

    /// Connections close once the bodies holding them are done; later leases fail.
    func close() { running.cancel() }
}

/// Connections for callers that block their thread: opened when none is idle, and kept (up to `idleLimit`) for
/// the next. Unlike `PostgresClient`'s pool, nothing here needs a task of its own to go on.
private final class BlockingConnections: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let idleLimit: Int
    private let logger: Logger
    private let idle = Mutex<(connections: [PostgresConnection], closed: Bool)>(([], false))
    private let nextID = Atomic<Int>(0)

    init(_ configuration: PostgresConnection.Configuration, idleLimit: Int, logger: Logger) {
        self.configuration = configuration
        self.idleLimit = idleLimit
        self.logger = logger
    }

    func take() async throws -> PostgresConnection {
        while true {
            let (connection, closed) = idle.withLock { ($0.connections.popLast(), $0.closed) }
            if closed { throw StoreError.closed }
            guard let connection else { break }
            if !connection.isClosed { return connection }
        }
        let id = nextID.add(1, ordering: .relaxed).newValue
        return try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
    }

    func giveBack(_ connection: PostgresConnection) {
        let kept = idle.withLock { idle -> Bool in
            guard !idle.closed, !connection.isClosed, idle.connections.count < idleLimit else { return false }
            idle.connections.append(connection)
            return true
        }
        if !kept { Self.close(connection) }
    }

    func close() {
        let connections = idle.withLock { idle in
            idle.closed = true
            defer { idle.connections.removeAll() }
            return idle.connections
        }
        for connection in connections { Self.close(connection) }
    }

    /// postgres-nio requires a connection to be closed before it goes: the closure keeps it until it is.
    private static func close(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }
}

/// Runs a task's jobs on a NIO event loop (NIO's loops are serial executors, not task executors).
private final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        eventLoop.execute { job.runSynchronously(on: executor) }
    }
}
#endif
