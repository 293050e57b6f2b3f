import CSQLCipher
import Foundation
import StoreContract

/// One SQLCipher connection: open + key, prepared statements (cached per SQL text), transactions.
///
/// A connection is used by one thread at a time; `SQLiteDatabase` guarantees that by handing each one out exclusively,
/// which is why the type can be `@unchecked Sendable`.
public final class SQLiteConnection: SQLConnection, @unchecked Sendable {
    public var dialect: SQLDialect { .sqlite }
    /// None: SQLCipher encrypts every page of the file.
    public var sealer: ColumnSealer? { nil }
    /// Set on the connection that writes (`SQLiteDatabase`'s writer); nil on readers.
    public internal(set) var auditKey: AuditKey?
    let handle: OpaquePointer
    /// Prepared once per SQL text and reused, with their column-name lookup.
    private var statements: [String: PreparedStatement] = [:]
    /// The data folder's lock, held for as long as this connection is open (see `DataDirectory.openConnection`).
    var folderLock: DataDirectory.Lock?
    /// What `observeRowChanges` and `observeCommittedFrames` installed: kept alive as long as SQLite may call them.
    private var rowChangeObserver: Hook<UnsafePointer<CChar>>?
    private var walObserver: Hook<Int>?

    private struct PreparedStatement {
        let handle: OpaquePointer
        let columns: [String: Int]
    }

    /// Opens `path` (creating it if absent), applies `key` as a raw 256-bit key (no key derivation runs) and proves
    /// the key by reading the schema. A wrong key throws `StoreError.wrongKey` before anything is written.
    public init(path: String, key: DatabaseKey) throws {
        // Health data: the file (and the -wal/-shm files SQLite derives from its mode) is readable by us only.
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(code: code, connection: handle)
            sqlite3_close_v2(handle)
            throw StoreError.cannotOpen(path: path, reason: error.message)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        let keySpec = Array(key.rawKeySpec.utf8)
        guard sqlite3_key(handle, keySpec, Int32(keySpec.count)) == SQLITE_OK else {
            throw StoreError.cannotOpen(path: path, reason: "SQLCipher refused the key")
        }
        do {
            _ = try scalar("SELECT count(*) FROM sqlite_master") as Int64
        } catch let error as SQLiteError where error.isNotADatabase {
            throw StoreError.wrongKey(path: path)
        }
        // A 16 MiB page cache per connection keeps the hot part of the database decrypted: SQLCipher pays AES and an
        // HMAC for every page it reads from disk, so a cache hit saves far more than it does in plain SQLite.
        try execute("PRAGMA foreign_keys = ON; PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds); PRAGMA cache_size = -16384;")
    }

    /// How long a statement waits for a lock another connection holds.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    deinit {
        for statement in statements.values { sqlite3_finalize(statement.handle) }
        sqlite3_close_v2(handle)
    }

    /// Nothing to lock: the file has one writer, whose transaction is the only one that writes.
    public func lockCompany(_ company: UUID) {}

    /// Runs one or more SQL statements that take no arguments and return no rows (DDL, pragmas, migrations).
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteError(code: code, message: text)
        }
    }

    @discardableResult
    public func run(_ sql: String, _ arguments: [any SQLConvertible]) throws -> Int {
        try withStatement(sql, arguments) { statement, _ in
            while try step(statement) {}
            return Int(sqlite3_changes(handle))
        }
    }

    public func query(_ sql: String, _ arguments: [any SQLConvertible]) throws -> [Row] {
        try withStatement(sql, arguments) { statement, columns in
            let count = Int32(columns.count)
            var rows: [Row] = []
            while try step(statement) {
                rows.append(Row(columns: columns, values: (0..<count).map { column(statement, $0) }))
            }
            return rows
        }
    }

    /// Runs a query and hands its rows to `body` one at a time, as SQLite steps to them: a query of 100,000 rows
    /// never holds them all.
    public func forEachRow(_ sql: String, _ arguments: [any SQLConvertible], _ body: (Row) throws -> Void) throws {
        try withStatement(sql, arguments) { statement, columns in
            let count = Int32(columns.count)
            while try step(statement) {
                try body(Row(columns: columns, values: (0..<count).map { column(statement, $0) }))
            }
        }
    }

    // The protocol's conveniences, synchronous: SQLite-only code (the writer's loop, migrations, the
    // checkpointer) calls them without `await`.
    @discardableResult
    public func run(_ sql: String, _ arguments: any SQLConvertible...) throws -> Int { try run(sql, arguments) }

    public func query(_ sql: String, _ arguments: any SQLConvertible...) throws -> [Row] { try query(sql, arguments) }

    /// The first column of the first row (NULL when there is none).
    public func scalar<T: SQLConvertible>(_ sql: String, _ arguments: any SQLConvertible...) throws -> T {
        try T(sqlValue: query(sql, arguments).first?.values.first ?? .null)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws. IMMEDIATE takes the write lock
    /// up front, so a transaction that reads then writes cannot fail half-way on a lock upgrade.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: - Statements

    private func withStatement<T>(
        _ sql: String,
        _ arguments: [any SQLConvertible],
        _ body: (OpaquePointer, _ columns: [String: Int]) throws -> T
    ) throws -> T {
        let prepared = try prepare(sql)
        let statement = prepared.handle
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, argument) in arguments.enumerated() {
            try bind(argument.sqlValue, at: Int32(offset + 1), in: statement)
        }
        return try body(statement, prepared.columns)
    }

    private func prepare(_ sql: String) throws -> PreparedStatement {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw SQLiteError(code: code, connection: handle) }
        var columns: [String: Int] = [:]
        for index in 0..<sqlite3_column_count(statement) {
            columns[String(cString: sqlite3_column_name(statement, index))] = Int(index)
        }
        let prepared = PreparedStatement(handle: statement, columns: columns)
        statements[sql] = prepared
        return prepared
    }

    private func bind(_ value: SQLValue, at index: Int32, in statement: OpaquePointer) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(statement, index)
        case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
        case .real(let number): code = sqlite3_bind_double(statement, index, number)
        case .text(let text):
            // With its length: as a C string it would end at the first NUL, which a caller's text may hold.
            var text = text
            code = text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    // An empty text still needs a pointer: a null one would bind NULL.
                    guard let start = characters.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, sqliteTransient) }
                    return sqlite3_bind_text(statement, index, start, Int32(characters.count), sqliteTransient)
                }
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), sqliteTransient) }
        }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: handle) }
    }

    /// Advances the statement: true while it yields a row.
    private func step(_ statement: OpaquePointer) throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw SQLiteError(code: code, connection: handle)
        }
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            // By its length, like the binding: a stored NUL does not end the text.
            guard let characters = sqlite3_column_text(statement, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, index))
            return .text(String(decoding: UnsafeRawBufferPointer(start: characters, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}

/// SQLite copies bound text and blobs when told SQLITE_TRANSIENT (-1), a macro Swift cannot import.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension SQLiteConnection {
    /// Calls `onChange` with the table's name (SQLite's own C string) for every row that an INSERT, UPDATE or
    /// DELETE on this connection changes, including those of triggers and foreign-key actions. SQLite's update
    /// hook: rows of `WITHOUT ROWID` tables are not reported.
    func observeRowChanges(_ onChange: @escaping (UnsafePointer<CChar>) -> Void) {
        let hook = Hook(onChange)
        rowChangeObserver = hook
        sqlite3_update_hook(
            handle,
            { context, _, _, table, _ in
                guard let context, let table else { return }
                Unmanaged<Hook<UnsafePointer<CChar>>>.fromOpaque(context).takeUnretainedValue().call(table)
            },
            Unmanaged.passUnretained(hook).toOpaque()
        )
    }

    /// Calls `onCommit` with the number of frames in the write-ahead log after each commit of this connection.
    /// SQLite's WAL hook, which replaces its automatic checkpoints: the caller checkpoints instead.
    func observeCommittedFrames(_ onCommit: @escaping (Int) -> Void) {
        let hook = Hook(onCommit)
        walObserver = hook
        sqlite3_wal_hook(
            handle,
            { context, _, _, frames in
                if let context { Unmanaged<Hook<Int>>.fromOpaque(context).takeUnretainedValue().call(Int(frames)) }
                return SQLITE_OK
            },
            Unmanaged.passUnretained(hook).toOpaque()
        )
    }

    /// Lets go of the page cache's unused pages (after a commit, every page): they are read again as needed.
    func releaseCachedPages() {
        sqlite3_db_release_memory(handle)
    }

    /// Copies what it can of the write-ahead log into the database file without waiting for anyone; the one
    /// thing a WAL hook may do to the connection (SQLite's own automatic checkpoint does it there).
    func checkpointPassively() {
        sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    /// Copies the whole log into the database file and truncates the log to zero bytes; the log's old page images
    /// (what a deleted row looked like) are gone afterwards. Readers of older snapshots are waited for, and another
    /// checkpoint running (busy at once, past the busy handler) is tried again every 10 ms, for `budget` at most;
    /// then it returns false. Throws any other error.
    func checkpointTruncating(within budget: Duration) throws -> Bool {
        let deadline = ContinuousClock.now + budget
        // The busy handler's wait, shortened meanwhile: one call must not wait past the budget for a reader.
        sqlite3_busy_timeout(handle, 20)
        defer { sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds) }
        while true {
            let code = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
            if code == SQLITE_OK { return true }
            guard code == SQLITE_BUSY || code == SQLITE_LOCKED else { throw SQLiteError(code: code, connection: handle) }
            guard ContinuousClock.now < deadline else { return false }
            usleep(10_000)
        }
    }
}

/// The closure behind one of a connection's C hooks, passed to SQLite as its context pointer.
private final class Hook<Argument> {
    let call: (Argument) -> Void
    init(_ call: @escaping (Argument) -> Void) { self.call = call }
}
