#if PostgreSQL
import Foundation
import StoreContract
import Logging
import NIOCore
import PostgresNIO

/// A connection of `PostgreSQLDatabase`'s pool, leased to one body, that the repositories run their SQL on as
/// they do on SQLCipher. Each call awaits the server's answer.
///
/// Statements keep SQLite's `?` and `?NNN` parameters; they are numbered `$1…` once per statement text.
/// Parameters go as int8, float8, text or bytea, and each column comes back as the `SQLValue` SQLite would give
/// (a boolean as 0 or 1, a number as an integer or a real). Queries are prepared statements, parsed and planned
/// once per connection (`StatementCatalog`), changes (`run`) included: they are counted by the rows they return.
final class PostgreSQLConnection: SQLConnection {
    var dialect: SQLDialect { .postgres }
    let sealer: ColumnSealer?
    let auditKey: AuditKey?
    let connection: PostgresConnection
    private let statements: StatementCatalog
    private let watchdog: StatementWatchdog
    private let logger: Logger
    /// A statement failed since the last transaction ended: PostgreSQL refuses every other statement of an aborted
    /// transaction, a first preparation included, and postgres-nio would remember that refusal for the
    /// connection's life. So nothing is prepared until the transaction has ended.
    private var failedSinceTransactionEnded = false
    /// Inside `BEGIN` … `COMMIT`/`ROLLBACK`: only there does a row lock outlast its statement.
    private var inTransaction = false
    /// The company whose row the transaction holds locked (`lockCompany`): locking it again would cost a round
    /// trip and change nothing (an import's transaction saves 50 cards, each of which locks it). Forgotten when
    /// the transaction ends, and when work is rolled back to a savepoint, which releases locks taken after it.
    private var lockedCompany: UUID?

    init(
        connection: PostgresConnection,
        statements: StatementCatalog,
        watchdog: StatementWatchdog,
        sealer: ColumnSealer?,
        auditKey: AuditKey?,
        logger: Logger
    ) {
        self.connection = connection
        self.statements = statements
        self.watchdog = watchdog
        self.sealer = sealer
        self.auditKey = auditKey
        self.logger = logger
    }

    /// Runs each of the statements `sql` holds (a migration's file), one after the other.
    func execute(_ sql: String) async throws {
        for statement in Self.statements(sql) {
            _ = try await answer { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).get() }
            let command = statement.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
            if command.hasPrefix("BEGIN") { inTransaction = true }
            if command.hasPrefix("COMMIT") || command.hasPrefix("ROLLBACK") {
                failedSinceTransactionEnded = false
                lockedCompany = nil
                if !command.hasPrefix("ROLLBACK TO") { inTransaction = false }
            }
        }
    }

    func lockCompany(_ company: UUID) async throws {
        guard lockedCompany != company else { return }
        _ = try await query("SELECT 1 FROM companies WHERE id = ? FOR NO KEY UPDATE", company)
        if inTransaction { lockedCompany = company }
    }

    /// `sql` cut at the semicolons that end statements: not those inside quotes, comments or a function's
    /// dollar-quoted body.
    static func statements(_ sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var rest = sql.unicodeScalars[...]
        func take(until end: String) {
            while !rest.isEmpty {
                if rest.starts(with: end.unicodeScalars) {
                    current.unicodeScalars.append(contentsOf: end.unicodeScalars)
                    rest = rest.dropFirst(end.unicodeScalars.count)
                    return
                }
                current.unicodeScalars.append(rest.removeFirst())
            }
        }
        while let character = rest.first {
            if character == ";" {
                rest.removeFirst()
                statements.append(current)
                current = ""
            } else if character == "'" || character == "\"" {
                current.unicodeScalars.append(rest.removeFirst())
                take(until: String(character))
            } else if rest.starts(with: "--".unicodeScalars) {
                take(until: "\n")
            } else if rest.starts(with: "/*".unicodeScalars) {
                take(until: "*/")
            } else if character == "$", let close = rest.dropFirst().firstIndex(of: "$"),
                rest[rest.index(after: rest.startIndex)..<close].allSatisfy({ $0 == "_" || $0.properties.isAlphabetic })
            {
                let tag = String(String.UnicodeScalarView(rest[...close]))
                current += tag
                rest = rest[rest.index(after: close)...]
                take(until: tag)
            } else {
                current.unicodeScalars.append(rest.removeFirst())
            }
        }
        statements.append(current)
        return statements.filter { statement in
            // What is left once comments are gone: blank pieces (after the last semicolon) are not statements.
            statement.split(separator: "\n").contains { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return !trimmed.isEmpty && !trimmed.hasPrefix("--")
            }
        }
    }

    @discardableResult
    func run(_ sql: String, _ arguments: [any SQLConvertible]) async throws -> Int {
        let (bindings, signature) = Self.bindings(arguments)
        switch statements.command(sql, signature: signature, preparing: !failedSinceTransactionEnded) {
        case .change(let text, let name):
            // A row per changed row (`StatementCatalog.counted`).
            var changed = 0
            try await rows(text, name: name, bindings) { _ in changed += 1 }
            return changed
        case .other(let text):
            let query = PostgresQuery(unsafeSQL: text, binds: bindings)
            return try await answer { try await connection.query(query, logger: logger).get() }.metadata.rows ?? 0
        }
    }

    func query(_ sql: String, _ arguments: [any SQLConvertible]) async throws -> [Row] {
        var rows: [Row] = []
        try await forEachRow(sql, arguments) { rows.append($0) }
        return rows
    }

    func forEachRow(_ sql: String, _ arguments: [any SQLConvertible], _ body: (Row) throws -> Void) async throws {
        let (bindings, signature) = Self.bindings(arguments)
        let (text, name) = statements.statement(sql, signature: signature, preparing: !failedSinceTransactionEnded)
        var columns: [String: Int]?
        try await rows(text, name: name, bindings) { row in
            let names = columns ?? name.map { statements.columns(ofPrepared: $0) { Self.columns(of: row) } } ?? Self.columns(of: row)
            columns = names
            try body(Row(columns: names, values: try row.map(Self.value)))
        }
    }

    /// Runs `text`, prepared under `name` or unnamed, and hands each row to `body`.
    private func rows(_ text: String, name: String?, _ bindings: PostgresBindings, _ body: (PostgresRow) throws -> Void) async throws {
        try await answer {
            if let name {
                let prepared = try await PreparedQuery.$current.withValue((name, text)) {
                    try await connection.execute(PreparedQuery(bindings: bindings), logger: logger)
                }
                for try await row in prepared { try body(row) }
            } else {
                for try await row in try await connection.query(PostgresQuery(unsafeSQL: text, binds: bindings), logger: logger) {
                    try body(row)
                }
            }
        }
    }

    /// The arguments as postgres-nio sends them, and their types' signature (`StatementCatalog.signature`).
    private static func bindings(_ arguments: [any SQLConvertible]) -> (PostgresBindings, String) {
        var bindings = PostgresBindings(capacity: arguments.count)
        let values = arguments.map(\.sqlValue)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let number): bindings.append(number)
            case .real(let number): bindings.append(number)
            case .text(let text): bindings.append(text)
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            }
        }
        return (bindings, StatementCatalog.signature(values))
    }

    /// Runs one statement's exchange with the server, watched (`StatementWatchdog`): past the deadline the
    /// connection is closed, which fails the statement. A failure of the server's or the connection's is a
    /// `PostgreSQLError`, and keeps later statements of this lease from being prepared until the transaction ends.
    private func answer<T>(_ exchange: () async throws -> T) async throws -> T {
        let watch = watchdog.watch(connection)
        defer { watchdog.release(watch) }
        do {
            return try await exchange()
        } catch {
            // What the caller's row handler threw goes back as it was; the server's transaction is not aborted.
            guard error is PSQLError else { throw error }
            failedSinceTransactionEnded = true
            let expired = watchdog.expired(watch)
            if expired || Self.endsConnection(error) {
                // The statement fails before the socket has closed. Once it has, the pool has seen the connection
                // go and will not lease it to the next caller.
                let _: EventLoopFuture<Void> = connection.close()
                try? await connection.closeFuture.get()
            }
            throw expired ? watchdog.failure : PostgreSQLError(error)
        }
    }

    /// Whether `error` means the connection cannot go on: the socket closed or failed, or the server ended the
    /// session (57P01-57P03: shut down, crashed, terminated; class 08: a connection exception).
    private static func endsConnection(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        if [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown].contains(error.code) { return true }
        guard let sqlState = error.serverInfo?[.sqlState] else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }

    private static func columns(of row: PostgresRow) -> [String: Int] {
        var columns: [String: Int] = [:]
        for cell in row where columns[cell.columnName] == nil { columns[cell.columnName] = cell.columnIndex }
        return columns
    }

    private static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .float4, .float8: return .real(try cell.decode(Double.self))
        case .numeric:
            // sum() of integers: whole numbers read back as integers, as SQLite's would.
            let number = try cell.decode(Decimal.self)
            if number == number.rounded(), let whole = Int64(exactly: NSDecimalNumber(decimal: number).doubleValue) {
                return .integer(whole)
            }
            return .real(NSDecimalNumber(decimal: number).doubleValue)
        case .bytea:
            var bytes = cell.bytes!
            return .blob(bytes.readBytes(length: bytes.readableBytes) ?? [])
        default: return .text(try cell.decode(String.self))
        }
    }
}

/// What PostgreSQL reported, with its SQLSTATE, so callers can tell a broken constraint or a serialization
/// failure from other errors.
public struct PostgreSQLError: Error, Sendable, CustomStringConvertible, UniqueViolationReporting {
    /// The five-character SQLSTATE (`23505` is a unique violation), or nil when the server said nothing.
    public let sqlState: String?
    public let message: String

    init(sqlState: String?, message: String) {
        self.sqlState = sqlState
        self.message = message
    }

    init(_ error: any Error) {
        if let error = error as? PSQLError {
            sqlState = error.serverInfo?[.sqlState]
            message = error.serverInfo?[.message] ?? "\(error.code)"
        } else if let error = error as? PostgreSQLError {
            self = error
            return
        } else {
            sqlState = nil
            message = "\(error)"
        }
    }

    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// A transaction another one conflicted with, or a deadlock: running it again may succeed.
    public var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }
    public var description: String { "PostgreSQL error \(sqlState ?? "-"): \(message)" }
}

extension Decimal {
    fileprivate func rounded() -> Decimal {
        var value = self
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        return rounded
    }
}
#endif
