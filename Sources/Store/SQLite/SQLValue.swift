import Foundation
import StoreContract

/// A value as SQLite stores it.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift type that can be bound to a statement and read back from a row. Dates are stored as whole
/// milliseconds since 1970 (compact, fast to compare, portable to PostgreSQL's BIGINT); UUIDs as lower-case text.
public protocol SQLConvertible: Sendable {
    var sqlValue: SQLValue { get }
    init(sqlValue: SQLValue) throws(SQLiteError)
}

extension SQLiteError {
    static func typeMismatch(_ value: SQLValue, _ type: Any.Type) -> SQLiteError {
        SQLiteError(code: 20, message: "cannot read \(value) as \(type)")  // 20 = SQLITE_MISMATCH
    }
}

extension String: SQLConvertible {
    /// Bound as TEXT (UTF-8).
    public var sqlValue: SQLValue { .text(self) }
    /// Reads TEXT only; any other storage class throws SQLITE_MISMATCH (20), never converts.
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        guard case .text(let text) = sqlValue else { throw .typeMismatch(sqlValue, String.self) }
        self = text
    }
}

extension Int64: SQLConvertible {
    /// Bound as INTEGER.
    public var sqlValue: SQLValue { .integer(self) }
    /// Reads INTEGER only; a REAL or TEXT column throws SQLITE_MISMATCH rather than being truncated or parsed.
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        guard case .integer(let value) = sqlValue else { throw .typeMismatch(sqlValue, Int64.self) }
        self = value
    }
}

extension Int: SQLConvertible {
    /// Bound as a 64-bit INTEGER.
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    /// Reads INTEGER only, as `Int64` does.
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        self = Int(try Int64(sqlValue: sqlValue))
    }
}

extension Double: SQLConvertible {
    /// Bound as REAL; scores, measurements (SI) and thresholds are stored this way.
    public var sqlValue: SQLValue { .real(self) }
    /// Reads REAL, or INTEGER converted (what a column without REAL affinity, or an integer expression, gives).
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        switch sqlValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: throw .typeMismatch(sqlValue, Double.self)
        }
    }
}

extension Bool: SQLConvertible {
    /// Bound as INTEGER 0 or 1, as SQLite has no Boolean type.
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    /// Reads INTEGER: any non-zero value is true (so `EXISTS (…)` columns read directly).
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        self = try Int64(sqlValue: sqlValue) != 0
    }
}

extension Array: SQLConvertible where Element == UInt8 {
    /// Bound as BLOB: photos, logos, encoded messages.
    public var sqlValue: SQLValue { .blob(self) }
    /// Reads BLOB only.
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        guard case .blob(let bytes) = sqlValue else { throw .typeMismatch(sqlValue, [UInt8].self) }
        self = bytes
    }
}

extension UUID: SQLConvertible {
    /// Bound as lower-case hyphenated TEXT, so ids compare and index as text in one spelling.
    public var sqlValue: SQLValue { .text(lowercaseHyphenated) }
    /// Reads hyphenated hex TEXT (either case); anything else throws SQLITE_MISMATCH.
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        guard case .text(let text) = sqlValue, let uuid = UUID(hyphenatedHex: text) else { throw .typeMismatch(sqlValue, UUID.self) }
        self = uuid
    }
}

extension Date: SQLConvertible {
    /// Bound as INTEGER milliseconds since 1970, rounded down: sub-millisecond precision is dropped on save.
    public var sqlValue: SQLValue { .integer(Int64((timeIntervalSince1970 * 1000).rounded(.down))) }
    /// Reads INTEGER milliseconds since 1970.
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        self = Date(timeIntervalSince1970: Double(try Int64(sqlValue: sqlValue)) / 1000)
    }
}

extension Optional: SQLConvertible where Wrapped: SQLConvertible {
    /// Binds NULL for nil, else the wrapped value.
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
    /// Reads NULL as nil, else the wrapped type (whose mismatch still throws).
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        self = sqlValue == .null ? nil : try Wrapped(sqlValue: sqlValue)
    }
}

extension RawRepresentable where RawValue == String, Self: SQLConvertible {
    /// Bound as TEXT: the raw value (enum columns such as `status` and `role`).
    public var sqlValue: SQLValue { .text(rawValue) }
    /// Reads TEXT and throws SQLITE_MISMATCH for a raw value the enum does not have.
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        guard let value = Self(rawValue: try String(sqlValue: sqlValue)) else { throw .typeMismatch(sqlValue, Self.self) }
        self = value
    }
}

/// One result row; columns are read by name.
public struct Row: Sendable {
    let columns: [String: Int]
    /// The row's values in column order; most callers read by name with the subscript.
    public let values: [SQLValue]

    /// The column named `column` as `T`; throws when there is no such column or its value is not a `T`.
    public subscript<T: SQLConvertible>(_ column: String) -> T {
        get throws(SQLiteError) { try T(sqlValue: value(column)) }
    }

    /// The column named `column` as stored; throws when there is no such column.
    public func value(_ column: String) throws(SQLiteError) -> SQLValue {
        guard let index = columns[column] else { throw SQLiteError(code: 1, message: "no column \(column) in result") }
        return values[index]
    }
}
