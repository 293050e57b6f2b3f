/// Why the store could not be opened or used, in words an operator can act on.
public enum StoreError: Error, Sendable, CustomStringConvertible, Equatable {
    case wrongKey(path: String)
    case cannotOpen(path: String, reason: String)
    case invalidKey(source: String)
    case missingKey(databasePath: String, keyPath: String)
    case migration(String)
    case busy(String)
    /// The database was closed while the write waited.
    case closed
    /// Something stored that this build cannot read (a value no version writes).
    case corrupt(String)
    /// `HEALTHWHEEL_DATABASE_URL` does not say how to reach a PostgreSQL database.
    case invalidDatabaseURL(String)
    /// The PostgreSQL server could not be reached or refused us (the URL is shown without its password).
    case cannotConnect(url: String, reason: String)
    /// `HEALTHWHEEL_DATA_KEY` does not open what this PostgreSQL database sealed with another key.
    case wrongDataKey(url: String)
    /// The audit trail was keyed under another audit key than the one given.
    case wrongAuditKey
    /// A write that appends to the audit trail on a database opened without an audit key.
    case noAuditKey

    /// A sentence for the operator: what went wrong and, where there is one, what to do.
    public var description: String {
        switch self {
        case .wrongKey(let path):
            "the database key does not match \(path): it was encrypted with a different key "
                + "(check HEALTHWHEEL_DB_KEY or the key file). Nothing was changed."
        case .cannotOpen(let path, let reason):
            "cannot open \(path): \(reason)"
        case .invalidKey(let source):
            "the key in \(source) is not 64 hexadecimal characters (a raw 256-bit key)"
        case .missingKey(let databasePath, let keyPath):
            "\(databasePath) exists but there is no key: set HEALTHWHEEL_DB_KEY or restore \(keyPath)"
        case .migration(let message):
            "migration failed: \(message)"
        case .busy(let message):
            message
        case .closed:
            "the database is closed"
        case .corrupt(let message):
            "the store holds what this build cannot read: \(message)"
        case .invalidDatabaseURL(let reason):
            "HEALTHWHEEL_DATABASE_URL \(reason)"
        case .cannotConnect(let url, let reason):
            "cannot connect to \(url): \(reason)"
        case .wrongDataKey(let url):
            "the data key does not open what \(url) holds: it was sealed with a different key "
                + "(check HEALTHWHEEL_DATA_KEY or the data key file). Nothing was changed."
        case .wrongAuditKey:
            "the audit key is not the one this audit trail was written under "
                + "(check HEALTHWHEEL_AUDIT_KEY or the audit key file, healthwheel.audit.key). Nothing was changed."
        case .noAuditKey:
            "the database was opened without an audit key, so nothing can be added to the audit trail"
        }
    }
}
