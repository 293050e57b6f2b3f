#if PostgreSQL
import Dispatch
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
/// The repositories' bodies are synchronous, as SQLite's are; here they run on threads of this type's own
/// (`hw-postgres`), each statement waiting for the server's answer, with a pool of connections opened once.
/// Swift's cooperative threads only queue a body and suspend. Write transactions run side by side (READ
/// COMMITTED), locking only rows: a body that reads then writes locks what its decision rests on first (the
/// company's row, `SQLConnection.lockCompany`; a claimed delivery, `FOR UPDATE SKIP LOCKED`), or writes only if
/// what it read still stands (a result's revision); the audit trail's head row orders appends, so its hash
/// chain cannot fork. Columns of health data are sealed by the repositories (`ColumnSealer`).
public final class PostgreSQLDatabase: SQLDatabase {
    public var dialect: SQLDialect { .postgres }
    /// Several nodes write: nothing read may be kept without asking.
    public var isShared: Bool { true }
    /// Where it is, without the password.
    public let url: PostgreSQLURL
    public let sealer: ColumnSealer?
    public let auditKey: AuditKey?
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let idle = Mutex<[PostgreSQLConnection]>([])
    /// Bodies waiting for a thread, first in first out (a ring: taking the first is O(1) however deep it gets).
    private let jobs = Mutex<(queue: CircularBuffer<@Sendable () -> Void>, closed: Bool)>((CircularBuffer(), false))
    private let wakeUp = DispatchSemaphore(value: 0)
    private let threadCount: Int
    private let answerDeadline: TimeAmount
    private let nextConnectionID = Atomic<Int>(0)

    /// The lock that lets one node at a time migrate.
    static let migrationLock: Int64 = 0x6877_0002

    /// Connects once, to fail now (wrong password, no server, TLS refused) rather than on the first request.
    /// `threads` bounds how many statements this node has in flight at once (and its connections). A statement
    /// unanswered after `answerDeadline` (the server's own `statement_timeout`, 60 s, plus a margin) closes its
    /// connection and fails: a dead server or network never holds a thread for good. Without an `auditKey`
    /// nothing can be added to the audit trail (`StoreError.noAuditKey`).
    public init(
        url: PostgreSQLURL,
        sealer: ColumnSealer?,
        auditKey: AuditKey?,
        threads: Int = 16,
        answerDeadline: TimeAmount = .seconds(75),
        logger: Logger = Logger(label: "healthwheel.postgres")
    ) throws {
        self.url = url
        self.sealer = sealer
        self.auditKey = auditKey
        self.logger = logger
        self.threadCount = threads
        self.answerDeadline = answerDeadline
        var configuration = PostgresConnection.Configuration(
            host: url.host,
            port: url.port,
            username: url.user,
            password: url.password,
            database: url.database,
            tls: try Self.tls(for: url)
        )
        // A statement that runs away is stopped by the server; the name shows in pg_stat_activity.
        configuration.options.additionalStartupParameters = [("application_name", "healthwheel"), ("statement_timeout", "60s")]
        self.configuration = configuration
        let first = try connect()
        idle.withLock { $0.append(first) }
        for _ in 0..<threads {
            let thread = Thread { [self] in
                StoreThread.postgres.configureCurrentThread()
                work()
            }
            thread.start()
        }
    }

    /// The URL without its password.
    public var location: String { url.description }

    /// Media in the database too, sealed in chunks, so that every node reads what another stored.
    public func mediaStorage(folder: URL) throws -> any MediaStorage { PostgreSQLMediaStorage(database: self) }

    /// Lets the threads end once the queued work is done and closes the idle connections. Its threads keep the
    /// database alive until then: call it when done (the server does at shutdown).
    public func close() {
        let wasOpen = jobs.withLock { jobs -> Bool in
            defer { jobs.closed = true }
            return !jobs.closed
        }
        guard wasOpen else { return }
        for _ in 0..<threadCount { wakeUp.signal() }
        for connection in idle.withLock({ $0 }) { try? connection.connection.close().wait() }
    }

    private static func tls(for url: PostgreSQLURL) throws -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch url.tls {
        case .disable: return .disable
        case .allow, .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let path = url.rootCertificatePath { tls.trustRoots = .file(path) }
        let context = try NIOSSLContext(configuration: tls)
        return url.tls == .allow || url.tls == .prefer ? .prefer(context) : .require(context)
    }

    private func connect() throws -> PostgreSQLConnection {
        let id = nextConnectionID.add(1, ordering: .relaxed).newValue
        do {
            let connection = try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.next(),
                configuration: configuration,
                id: id,
                logger: logger
            ).wait()
            return PostgreSQLConnection(connection: connection, sealer: sealer, auditKey: auditKey, answerDeadline: answerDeadline, logger: logger)
        } catch {
            throw StoreError.cannotConnect(url: url.description, reason: PostgreSQLError(error).description)
        }
    }

    /// Runs `body` with a connection of the pool on the calling thread, which waits for the server. A
    /// connection that broke meanwhile is dropped; the next caller opens a new one.
    @discardableResult
    func withConnection<T>(_ body: (PostgreSQLConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? connect()
        defer {
            if !connection.isClosed {
                let closed = jobs.withLock { $0.closed }
                if closed { try? connection.connection.close().wait() } else { idle.withLock { $0.append(connection) } }
            }
        }
        return try body(connection)
    }

    /// Runs `body` on one of this database's threads and suspends the caller meanwhile.
    private func onDatabaseThread<T: Sendable>(_ body: (PostgreSQLConnection) throws -> T) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            let box = UncheckedBody(body)
            return try await withCheckedThrowingContinuation { continuation in
                let accepted = jobs.withLock { jobs -> Bool in
                    guard !jobs.closed else { return false }
                    jobs.queue.append {
                        let outcome = Result { try self.withConnection { try box.run($0) } }
                        // Dropped before the caller resumes, which checks that nothing kept its body.
                        box.release()
                        continuation.resume(with: outcome)
                    }
                    return true
                }
                if accepted { wakeUp.signal() } else { continuation.resume(throwing: StoreError.closed) }
            }
        }
    }

    private func work() {
        while true {
            wakeUp.wait()
            let job = jobs.withLock { jobs -> (@Sendable () -> Void)? in
                jobs.queue.popFirst()
            }
            // No job for a wake-up means `close`.
            guard let job else { return }
            job()
        }
    }

    public func read<T: Sendable>(_ body: (any SQLConnection) throws -> T) async throws -> T {
        try await onDatabaseThread { try body($0) }
    }

    public func readBlocking<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try withConnection { try body($0) }
    }

    /// Every read here runs on this type's threads already.
    public func longRead<T: Sendable>(for company: UUID, _ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        try await read(body)
    }

    @discardableResult
    public func write<T: Sendable>(_ body: (any SQLConnection) throws -> T) async throws -> T {
        try await onDatabaseThread { connection in try Self.transaction(on: connection) { try body(connection) } }
    }

    /// Without `BEGIN` and `COMMIT`: the statement is its own transaction, and locks only the rows it changes.
    @discardableResult
    public func writeStatement(_ sql: String, _ arguments: [any SQLConvertible]) async throws -> Int {
        try await onDatabaseThread { connection in try Self.retrying { try connection.run(sql, arguments) } }
    }

    public func writeEach<Item: Sendable, T: Sendable>(
        _ items: [Item],
        _ body: (Item, any SQLConnection) throws -> T
    ) async -> [Result<T, any Error>] {
        guard !items.isEmpty else { return [] }
        do {
            // One transaction for all, a savepoint for each: one that throws is rolled back alone.
            return try await onDatabaseThread { connection in
                try Self.transaction(on: connection) {
                    items.map { item in
                        do {
                            try connection.execute("SAVEPOINT item")
                            let value = try body(item, connection)
                            try connection.execute("RELEASE SAVEPOINT item")
                            return .success(value)
                        } catch {
                            try? connection.execute("ROLLBACK TO SAVEPOINT item")
                            return .failure(error)
                        }
                    }
                }
            }
        } catch {
            return items.map { _ in .failure(error) }
        }
    }

    /// `BEGIN`, `body`, `COMMIT`; rolled back if anything throws, and `retrying`.
    static func transaction<T>(on connection: PostgreSQLConnection, _ body: () throws -> T) throws -> T {
        try retrying {
            do {
                try connection.execute("BEGIN")
                let value = try body()
                try connection.execute("COMMIT")
                return value
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Runs `write` again (five times in all at most) while PostgreSQL reports a serialization failure or a
    /// deadlock: writes of several nodes run side by side, and one of two that lock rows in turn may be chosen.
    static func retrying<T>(_ write: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            do {
                return try write()
            } catch let failure as PostgreSQLError where failure.isRetryable && attempt < 5 {
                attempt += 1
            }
        }
    }

    public func changeStamp(of tables: [String]) -> Int? { nil }

    /// VACUUM removes the deleted rows' versions from the tables' pages and indexes.
    public func purgeDeleted(from tables: [String]) async throws {
        try await onDatabaseThread { connection in
            for table in tables { try connection.execute("VACUUM \(table)") }
        }
    }
}

/// The caller's non-escaping body on its way to a database thread; the caller stays suspended until the body
/// has run, so it never outlives the call that lent it (see `SQLiteDatabase`'s `PendingWrite`).
private final class UncheckedBody<T>: @unchecked Sendable {
    private var body: ((PostgreSQLConnection) throws -> T)?
    init(_ body: @escaping (PostgreSQLConnection) throws -> T) { self.body = body }

    func run(_ connection: PostgreSQLConnection) throws -> T {
        guard let body else { throw StoreError.closed }
        return try body(connection)
    }

    func release() { body = nil }
}
#endif
