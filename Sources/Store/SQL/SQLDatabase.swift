import Foundation
import StoreContract

/// A database the repositories read and write through: the embedded SQLCipher file (`SQLiteDatabase`) or a PostgreSQL
/// server that several nodes share (`PostgreSQLDatabase`). Either way, a write's body runs in one transaction and
/// the call returns once it is durable; neither ever blocks a thread of Swift's cooperative pool on I/O (SQLite's
/// writes and long reads run on threads of the store's own, PostgreSQL's statements await the server). The
/// embedded file has one writer, so no two bodies interleave; PostgreSQL runs them side by side, so a body that
/// reads then writes locks what its decision rests on first (`SQLConnection.lockCompany`).
public protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }
    /// Where it is, for logs and messages: the file's path, or the server's URL without its password.
    var location: String { get }
    /// Whether other processes write to it as a matter of course (several nodes): then nothing read may be kept
    /// in this process's caches without asking the database whether it is still current.
    var isShared: Bool { get }
    /// What seals health data where the database's files are not encrypted (nil for SQLCipher); the same one
    /// every connection has, for values prepared before a transaction.
    var sealer: ColumnSealer? { get }
    /// What the audit trail's chain is keyed under; every connection that writes has the same one.
    var auditKey: AuditKey? { get }
    /// Runs `body` on a connection for reading; each statement sees committed data.
    func read<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T
    /// `read` for what can take long (a search of a large roster by SQL, a page of the audit trail, an export):
    /// runs on a thread of the store's own while the caller suspends, never on Swift's cooperative threads, in
    /// `company`'s turn (companies share those threads fairly).
    func longRead<T: Sendable>(for company: UUID, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T
    /// `read` for a thread of its own that may wait (a roster scan, the command line): blocks the calling thread,
    /// which runs the body itself (`ThreadExecutor`).
    func readBlocking<T: Sendable>(_ body: (any SQLConnection) async throws -> T) throws -> T
    /// Runs `body` in a write transaction and returns once it is durable. If `body` throws, its changes are rolled
    /// back. `body` must change nothing but the database: it may run again after a rollback.
    @discardableResult
    func write<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T
    /// `write` for bookkeeping whose loss in a power cut only makes work be done again: an outbox's claims and
    /// outcomes, where a delivery claimed or finished in the last moments is sent once more, as at-least-once
    /// delivery allows (receivers tell a repeat by its message id). Returns once committed, without waiting for
    /// the disk; the next durable commit makes it durable too (both logs are flushed in order). A webhook
    /// delivery then costs no flush of its own: with a flush taking up to 50 ms here, two a delivery kept one
    /// company's deliveries under 20 a second.
    @discardableResult
    func writeUnsynced<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T
    /// Runs one statement as a write of its own and returns, once it is durable, how many rows it changed. On
    /// PostgreSQL that is one round trip without `BEGIN` or `COMMIT` (one statement, data-modifying WITH entries
    /// included, is one transaction there); it locks nothing first, so it must not rely on what it reads.
    @discardableResult
    func writeStatement(_ sql: String, _ arguments: [any SQLConvertible]) async throws -> Int
    /// Runs each body as its own write, sharing transactions where the backend can (an import of thousands).
    func writeEach<Item: Sendable, T: Sendable>(
        _ items: [Item],
        _ body: (Item, any SQLConnection) async throws -> T
    ) async -> [Result<T, any Error>]
    /// A number that moves after every commit of this process that changed a row of one of `tables`: caches of
    /// what is read from them keep entries while it stands. Nil when `isShared`.
    func changeStamp(of tables: [String]) -> Int?
    /// After an erasure: makes sure no older copy of the deleted rows stays in the database's files (SQLCipher's
    /// write-ahead log is truncated; PostgreSQL's tables are vacuumed).
    func purgeDeleted(from tables: [String]) async throws
    /// After a bulk insert into `tables` (an import): where the database plans a statement once from the
    /// statistics it took of a table (PostgreSQL: prepared statements, foreign-key checks), takes them again once
    /// a table has grown to twice the size they counted. A plan made when a table was nearly empty (a scan)
    /// would otherwise serve it while an import fills it, and each row would cost more than the last, until
    /// autovacuum came round. SQLite plans without statistics: nothing to do.
    func refreshStatistics(of tables: [String]) async
    /// Where media are kept beside this database, for every node that reaches it: sealed files under
    /// `folder` for the embedded file, the database itself for PostgreSQL.
    func mediaStorage(folder: URL) throws -> any MediaStorage
    /// Stops it; nothing is to be asked of it after. The embedded file finishes its queued writes, stops its
    /// threads and closes (blocking until done; later writes fail with `StoreError.closed`); PostgreSQL's pool
    /// stops leasing and its connections close as the bodies holding them end. For the end of a command or of
    /// `serve`.
    func close()
}
