#if PostgreSQL
import Foundation
import StoreContract
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// One PostgreSQL connection that the repositories run their SQL on, as they do on SQLCipher: each call blocks
/// the calling thread until the server answers, so it is used only from `PostgreSQLDatabase`'s own threads (or
/// a thread of the caller's that may wait), never from Swift's cooperative pool.
///
/// Statements keep SQLite's `?` and `?NNN` parameters; they are numbered `$1…` once per statement text.
/// Parameters go as int8, float8, text or bytea, and each column comes back as the `SQLValue` SQLite would give
/// (a boolean as 0 or 1, a number as an integer or a real).
final class PostgreSQLConnection: SQLConnection, @unchecked Sendable {
    var dialect: SQLDialect { .postgres }
    let sealer: ColumnSealer?
    let auditKey: AuditKey?
    let connection: PostgresConnection
    private let logger: Logger
    /// How long an answer is waited for before the connection is taken for dead and closed.
    private let answerDeadline: TimeAmount
    /// Statement texts with their parameters numbered, by the text as written.
    private var numbered: [String: String] = [:]

    init(connection: PostgresConnection, sealer: ColumnSealer?, auditKey: AuditKey?, answerDeadline: TimeAmount, logger: Logger) {
        self.connection = connection
        self.sealer = sealer
        self.auditKey = auditKey
        self.answerDeadline = answerDeadline
        self.logger = logger
    }

    /// Closed by the server, or given up on (`answer`, `failure`): the pool drops it.
    var isClosed: Bool { gaveUp || connection.isClosed }
    private var gaveUp = false

    deinit {
        // postgres-nio requires a connection to be closed before it goes: one the pool gave up on is closed here,
        // and the closure keeps it alive until it is.
        guard !connection.isClosed else { return }
        let closing = connection
        closing.close().whenComplete { _ in withExtendedLifetime(closing) {} }
    }

    /// Runs each of the statements `sql` holds (a migration's file), one after the other.
    func execute(_ sql: String) throws {
        for statement in Self.statements(sql) {
            do {
                _ = try answer(connection.query(PostgresQuery(unsafeSQL: statement), logger: logger))
            } catch {
                throw failure(error)
            }
        }
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
    func run(_ sql: String, _ arguments: [any SQLConvertible]) throws -> Int {
        try perform(sql, arguments).metadata.rows ?? 0
    }

    func query(_ sql: String, _ arguments: [any SQLConvertible]) throws -> [Row] {
        let result = try perform(sql, arguments)
        var rows: [Row] = []
        rows.reserveCapacity(result.rows.count)
        var columns: [String: Int]?
        for row in result.rows {
            let names = columns ?? Self.columns(of: row)
            columns = names
            rows.append(Row(columns: names, values: try row.map(Self.value)))
        }
        return rows
    }

    func forEachRow(_ sql: String, _ arguments: [any SQLConvertible], _ body: (Row) throws -> Void) throws {
        // Every row arrives before the first is handed on; the callers that stream (a roster scan) read one
        // company's clients, which fits in memory as the directory it builds does.
        for row in try query(sql, arguments) { try body(row) }
    }

    private func perform(_ sql: String, _ arguments: [any SQLConvertible]) throws -> PostgresQueryResult {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument.sqlValue {
            case .null: bindings.appendNull()
            case .integer(let number): bindings.append(number)
            case .real(let number): bindings.append(number)
            case .text(let text): bindings.append(text)
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            }
        }
        let text = numbered[sql] ?? Self.numberingParameters(sql)
        numbered[sql] = text
        do {
            return try answer(connection.query(PostgresQuery(unsafeSQL: text, binds: bindings), logger: logger))
        } catch {
            throw failure(error)
        }
    }

    /// `error` as a `PostgreSQLError`; one that ends the connection (the server stopping or ending it, a broken
    /// socket) also takes it out of the pool, although postgres-nio may not have seen the socket close yet.
    private func failure(_ error: any Error) -> PostgreSQLError {
        let failure = PostgreSQLError(error)
        if failure.endsConnection { gaveUp = true }
        return failure
    }

    /// Waits for `future`, at most `answerDeadline`, and no longer than the connection stays open. A server that
    /// stopped answering without closing the connection (a network dropping packets, a failover) would otherwise
    /// hold this thread, and a stop of the node, for as long as TCP keeps the socket; and postgres-nio 1.33 leaves
    /// a statement unanswered when a stopping server closes its connection mid-statement. Past the deadline the
    /// connection is closed (the pool opens another) and the statement fails.
    private func answer<T: Sendable>(_ future: EventLoopFuture<T>) throws -> T {
        let answered = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<T, any Error>?>(nil)
        future.whenComplete { result in
            outcome.withLock { $0 = result }
            answered.signal()
        }
        let deadline = DispatchTime.now() + .nanoseconds(Int(answerDeadline.nanoseconds))
        while answered.wait(timeout: min(deadline, .now() + .seconds(1))) == .timedOut {
            if connection.isClosed {
                gaveUp = true
                throw PostgreSQLError(sqlState: nil, message: "the server closed the connection before answering")
            }
            if DispatchTime.now() >= deadline {
                gaveUp = true  // the pool drops it, and `deinit` closes it
                throw PostgreSQLError(sqlState: nil, message: "no answer within \(answerDeadline.nanoseconds / 1_000_000_000) s; connection closed")
            }
        }
        return try outcome.withLock { $0! }.get()
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

    /// `?` becomes `$1`, `$2`, … in order and `?NNN` becomes `$NNN` (a bare `?` after `?3` is `$4`, as in
    /// SQLite); question marks inside quotes and comments stay.
    static func numberingParameters(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 16)
        var characters = sql.unicodeScalars[...]
        var highest = 0
        while let character = characters.popFirst() {
            switch character {
            case "'", "\"":
                output.unicodeScalars.append(character)
                while let next = characters.popFirst() {
                    output.unicodeScalars.append(next)
                    if next == character { break }
                }
            case "-" where characters.first == "-":
                output.unicodeScalars.append(character)
                while let next = characters.popFirst() {
                    output.unicodeScalars.append(next)
                    if next == "\n" { break }
                }
            case "?":
                let digits = characters.prefix { ("0"..."9").contains($0) }
                characters = characters.dropFirst(digits.count)
                let number = digits.isEmpty ? highest + 1 : Int(String(String.UnicodeScalarView(digits)))!
                highest = max(highest, number)
                output += "$\(number)"
            default:
                output.unicodeScalars.append(character)
            }
        }
        return output
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
    /// The connection cannot go on: the server ended it (57P01-57P03: shut down, crashed, not accepting), a
    /// connection exception (class 08), or a failure on the client's side of the socket (no SQLSTATE).
    var endsConnection: Bool {
        guard let sqlState else { return true }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }
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
