import CSQLCipher
import StoreContract

/// An error reported by SQLite, with its extended result code.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's extended result code (2067 is a UNIQUE constraint); our own checks use 1 (no column) and 20 (mismatch).
    public let code: Int32
    /// SQLite's own message (`sqlite3_errmsg`), or ours for a read that does not fit its Swift type.
    public let message: String

    /// An error of our own making, with a SQLite code so callers handle it like SQLite's.
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    init(code: Int32, connection: OpaquePointer?) {
        self.code = code
        self.message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
    }

    /// A UNIQUE or PRIMARY KEY constraint refused the write.
    public var isUniqueViolation: Bool { code == 2067 || code == 1555 }  // SQLITE_CONSTRAINT_UNIQUE, _PRIMARYKEY

    /// The file is not a database under this key (or not a database at all).
    public var isNotADatabase: Bool { code & 0xff == SQLITE_NOTADB }

    /// `SQLite error 2067: UNIQUE constraint failed: trainers.email`: for logs, not for clients.
    public var description: String { "SQLite error \(code): \(message)" }
}
