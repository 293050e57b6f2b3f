import Foundation

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
    public var sqlValue: SQLValue { .text(self) }
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        guard case .text(let text) = sqlValue else { throw .typeMismatch(sqlValue, String.self) }
        self = text
    }
}

extension Int64: SQLConvertible {
    public var sqlValue: SQLValue { .integer(self) }
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        guard case .integer(let value) = sqlValue else { throw .typeMismatch(sqlValue, Int64.self) }
        self = value
    }
}

extension Int: SQLConvertible {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        self = Int(try Int64(sqlValue: sqlValue))
    }
}

extension Double: SQLConvertible {
    public var sqlValue: SQLValue { .real(self) }
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        switch sqlValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: throw .typeMismatch(sqlValue, Double.self)
        }
    }
}

extension Bool: SQLConvertible {
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        self = try Int64(sqlValue: sqlValue) != 0
    }
}

extension Array: SQLConvertible where Element == UInt8 {
    public var sqlValue: SQLValue { .blob(self) }
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        guard case .blob(let bytes) = sqlValue else { throw .typeMismatch(sqlValue, [UInt8].self) }
        self = bytes
    }
}

extension UUID: SQLConvertible {
    public var sqlValue: SQLValue { .text(uuidString.lowercased()) }
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        guard case .text(let text) = sqlValue, let uuid = UUID(hyphenatedHex: text) else { throw .typeMismatch(sqlValue, UUID.self) }
        self = uuid
    }

    /// Parses `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` directly: Foundation's parser goes through `sscanf`, which
    /// was a visible share of reading a page of clients.
    init?(hyphenatedHex text: String) {
        var utf8 = text.utf8.makeIterator()
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        func nibble(_ byte: UInt8?) -> UInt8? {
            switch byte {
            case .some(48...57): return byte! - 48
            case .some(97...102): return byte! - 87
            case .some(65...70): return byte! - 55
            default: return nil
            }
        }
        let parsed = withUnsafeMutableBytes(of: &bytes) { buffer -> Bool in
            for index in 0..<16 {
                // Hyphens come before bytes 4, 6, 8 and 10.
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard utf8.next() == UInt8(ascii: "-") else { return false }
                }
                guard let high = nibble(utf8.next()), let low = nibble(utf8.next()) else { return false }
                buffer[index] = high << 4 | low
            }
            return utf8.next() == nil
        }
        guard parsed else { return nil }
        self.init(uuid: bytes)
    }
}

extension Date: SQLConvertible {
    public var sqlValue: SQLValue { .integer(Int64((timeIntervalSince1970 * 1000).rounded(.down))) }
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        self = Date(timeIntervalSince1970: Double(try Int64(sqlValue: sqlValue)) / 1000)
    }
}

extension Optional: SQLConvertible where Wrapped: SQLConvertible {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        self = sqlValue == .null ? nil : try Wrapped(sqlValue: sqlValue)
    }
}

extension RawRepresentable where RawValue == String, Self: SQLConvertible {
    public var sqlValue: SQLValue { .text(rawValue) }
    public init(sqlValue: SQLValue) throws(SQLiteError) {
        guard let value = Self(rawValue: try String(sqlValue: sqlValue)) else { throw .typeMismatch(sqlValue, Self.self) }
        self = value
    }
}

/// One result row; columns are read by name.
public struct Row: Sendable {
    let columns: [String: Int]
    public let values: [SQLValue]

    public subscript<T: SQLConvertible>(_ column: String) -> T {
        get throws(SQLiteError) {
            guard let index = columns[column] else { throw SQLiteError(code: 1, message: "no column \(column) in result") }
            return try T(sqlValue: values[index])
        }
    }
}
