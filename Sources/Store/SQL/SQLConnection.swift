import Foundation
import StoreContract

/// Which SQL a connection speaks. The repositories write each statement once, in the SQL both understand
/// (`?` parameters, which the PostgreSQL connection numbers itself); the few places where the two differ ask
/// the connection's dialect, so the difference stays in Store.
public enum SQLDialect: Sendable {
    /// SQLCipher 3.4 on SQLite 3.15: the embedded, encrypted file.
    case sqlite
    /// PostgreSQL 15 or newer, shared by several nodes.
    case postgres

    /// `UPDATE OR FAIL` on SQLite (no statement journal for a one-row update, see
    /// `SQLResultRepository.advanceResultsVersion`); a plain `UPDATE` on PostgreSQL.
    var updateOrFail: String { self == .sqlite ? "UPDATE OR FAIL" : "UPDATE" }

    /// Null-safe inequality: SQLite 3.15 has `IS NOT` (and no `IS DISTINCT FROM`); PostgreSQL's `IS NOT` takes
    /// only NULL, TRUE, FALSE or UNKNOWN.
    var isDistinctFrom: String { self == .sqlite ? "IS NOT" : "IS DISTINCT FROM" }

    /// A join whose left side is read first: SQLite keeps the order of a CROSS JOIN (its planner's way of being
    /// told); PostgreSQL's planner chooses, and takes ON only with a plain JOIN.
    var orderedJoin: String { self == .sqlite ? "CROSS JOIN" : "JOIN" }

    /// Ends a SELECT that claims rows of `table` for the rest of the transaction: PostgreSQL locks them and
    /// passes over rows another node's transaction holds (`FOR UPDATE … SKIP LOCKED`), so claimers on several
    /// nodes take different rows without waiting; SQLite has one writer, which claims alone.
    func claimingRows(of table: String) -> String { self == .sqlite ? "" : " FOR UPDATE OF \(table) SKIP LOCKED" }

    /// Begins a read transaction whose statements all see one snapshot (PostgreSQL's default, READ COMMITTED,
    /// gives each statement its own).
    var beginSnapshot: String { self == .sqlite ? "BEGIN" : "BEGIN ISOLATION LEVEL REPEATABLE READ" }
}

/// One connection the repositories run SQL on, used by one task at a time: a SQLCipher `SQLiteConnection` or a
/// `PostgreSQLConnection`. Values cross as `SQLValue`s (dates as milliseconds, ids as text) on both. The calls are
/// async because PostgreSQL's await the server; SQLite's never suspend (they run where the body runs: inline
/// for a read, on the writer's thread for a write).
public protocol SQLConnection: AnyObject {
    var dialect: SQLDialect { get }
    /// Seals the columns that hold health data where the database itself is not encrypted (PostgreSQL); nil
    /// where it is (SQLCipher encrypts the whole file).
    var sealer: ColumnSealer? { get }
    /// What the audit trail's chain is keyed under (`AuditChain`); nil on a connection that appends nothing.
    var auditKey: AuditKey? { get }
    /// Runs SQL that takes no arguments and returns no rows (DDL, pragmas, `BEGIN`).
    func execute(_ sql: String) async throws
    /// Runs a statement that changes rows; returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ arguments: [any SQLConvertible]) async throws -> Int
    /// Runs a query and returns all of its rows.
    func query(_ sql: String, _ arguments: [any SQLConvertible]) async throws -> [Row]
    /// Runs a query and hands its rows to `body` one at a time.
    func forEachRow(_ sql: String, _ arguments: [any SQLConvertible], _ body: (Row) throws -> Void) async throws
    /// Makes the rest of the transaction the only writer of `company`'s rows that read what they then write (a
    /// client's fields, the last admin, a quota, a daily limit). PostgreSQL runs the writes of several nodes side
    /// by side: there the company's row is locked (`FOR NO KEY UPDATE`, which inserts referring to the company do
    /// not wait for); SQLite has one writer already. Taken first, so every body locks in one order: the
    /// company, its rows, the audit trail's head.
    func lockCompany(_ company: UUID) async throws
}

extension SQLConnection {
    @discardableResult
    public func run(_ sql: String, _ arguments: any SQLConvertible...) async throws -> Int {
        try await run(sql, arguments)
    }

    public func query(_ sql: String, _ arguments: any SQLConvertible...) async throws -> [Row] {
        try await query(sql, arguments)
    }

    /// The first column of the first row (NULL when there is none).
    public func scalar<T: SQLConvertible>(_ sql: String, _ arguments: any SQLConvertible...) async throws -> T {
        try T(sqlValue: await query(sql, arguments).first?.values.first ?? .null)
    }

    /// What to store for health data the user entered: the text itself where the database is encrypted, else
    /// the text sealed (AES-GCM) as bytes. `context` names the column, so a sealed value cannot be moved to
    /// another column and still open.
    public func sealed(_ text: String?, _ context: String) throws -> any SQLConvertible {
        try sealer.sealed(text, context)
    }

    /// Runs `body`'s statements in one read transaction that sees one snapshot (`SQLDialect.beginSnapshot`).
    public func inSnapshot<T>(_ body: () async throws -> T) async throws -> T {
        try await execute(dialect.beginSnapshot)
        do {
            let value = try await body()
            try await execute("COMMIT")
            return value
        } catch {
            try? await execute("ROLLBACK")
            throw error
        }
    }

    /// `sealed` for bytes (a photo, a kept answer, an email, a key).
    public func sealed(bytes: [UInt8]?, _ context: String) throws -> any SQLConvertible {
        guard let sealer, let bytes else { return bytes }
        return try sealer.seal(bytes, context: context)
    }

    /// The bytes `sealed(bytes:)` stored, read back from `row[column]`.
    public func unsealedBytes(_ row: Row, _ column: String, _ context: String) throws -> [UInt8]? {
        let stored: [UInt8]? = try row[column]
        guard let sealer, let stored else { return stored }
        return try sealer.open(stored, context: context)
    }

    /// The text `sealed` stored, read back from `row[column]`.
    public func unsealed(_ row: Row, _ column: String, _ context: String) throws -> String? {
        switch try row.value(column) {
        case .null: return nil
        case .text(let text): return text
        case .blob(let bytes):
            guard let sealer else { throw SQLiteError.typeMismatch(.blob(bytes), String.self) }
            return String(decoding: try sealer.open(bytes, context: context), as: UTF8.self)
        case let other: throw SQLiteError.typeMismatch(other, String.self)
        }
    }
}

/// An error that may be a UNIQUE constraint refusing a write, from either database.
public protocol UniqueViolationReporting: Error {
    var isUniqueViolation: Bool { get }
}

extension SQLiteError: UniqueViolationReporting {}

extension Sequence {
    /// `map` for a transform that awaits (one that runs statements), one element after the other.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var mapped: [T] = []
        mapped.reserveCapacity(underestimatedCount)
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
