#if PostgreSQL
import Foundation
import StoreContract

/// Where a PostgreSQL database is and how to reach it, read from a `postgres://user:password@host:port/database?
/// sslmode=…&sslrootcert=…` URL (`HEALTHWHEEL_DATABASE_URL`). Its description never shows the password.
public struct PostgreSQLURL: Sendable, Equatable, CustomStringConvertible {
    /// libpq's `sslmode`, with libpq's meaning: `verify-full` checks the server's certificate and its name.
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// PEM file of the certificate authorities the server's certificate must chain to (else the system's).
    public var rootCertificatePath: String?

    /// Parses the URL; throws `StoreError.invalidDatabaseURL` naming what is wrong, never the password.
    public init(_ text: String) throws {
        guard let components = URLComponents(string: text), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw StoreError.invalidDatabaseURL("must start with postgres://")
        }
        guard let host = components.host, !host.isEmpty else { throw StoreError.invalidDatabaseURL("names no host") }
        guard let user = components.user, !user.isEmpty else { throw StoreError.invalidDatabaseURL("names no user") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else { throw StoreError.invalidDatabaseURL("names no database") }
        self.host = host
        self.port = components.port ?? 5432
        self.user = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database.removingPercentEncoding ?? database
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw StoreError.invalidDatabaseURL("sslmode must be one of \(modes)")
                }
                tls = mode
            case "sslrootcert": rootCertificatePath = item.value
            default: throw StoreError.invalidDatabaseURL("has a parameter this server does not know: \(item.name)")
            }
        }
        self.tls = tls
    }

    /// The URL with the password replaced by `***`: safe for logs and start-up lines.
    public var description: String {
        var text = "postgres://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)?sslmode=\(tls.rawValue)"
        if let rootCertificatePath { text += "&sslrootcert=\(rootCertificatePath)" }
        return text
    }
}
#endif
