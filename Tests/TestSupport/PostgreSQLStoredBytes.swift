#if PostgreSQL
import Foundation
import Store
import StoreContract

/// What a PostgreSQL test database holds, as bytes an attacker with the server's files could read: its dump
/// (`pg_dump`, plain SQL) and every file of its tables, indexes and TOAST tables after a checkpoint, read outside
/// the server (the tests run as root; the server's folder is scripts/postgres's, beside its CA certificate).
public struct PostgreSQLStoredBytes {
    public let dump: String
    public let files: [Data]

    public init(_ database: PostgreSQLDatabase) throws {
        dump = try Self.pgDump(database.url)
        let paths: [String] = try database.readBlocking { db in
            try await db.execute("CHECKPOINT")
            return try await db.query(
                """
                SELECT pg_relation_filepath(c.oid) AS path FROM pg_class c
                WHERE c.relnamespace IN ('public'::regnamespace, 'pg_toast'::regnamespace) AND c.relkind IN ('r', 'i', 't')
                    AND pg_relation_filepath(c.oid) IS NOT NULL
                """
            ).map { try $0["path"] }
        }
        guard let certificate = database.url.rootCertificatePath else { throw Unreadable(description: "the test server's folder is not known") }
        let folder = URL(fileURLWithPath: certificate).deletingLastPathComponent().appendingPathComponent("data")
        var files: [Data] = []
        for path in paths {
            // A relation's first segment, then `.1`, `.2`, … past each gigabyte.
            var segment = 0
            while let data = FileManager.default.contents(atPath: folder.appendingPathComponent(segment == 0 ? path : "\(path).\(segment)").path) {
                files.append(data)
                segment += 1
            }
        }
        guard !files.isEmpty else { throw Unreadable(description: "no relation file under \(folder.path) could be read") }
        self.files = files
    }

    /// Whether the dump or any file holds `text` as it is.
    public func contain(_ text: String) -> Bool {
        dump.contains(text) || files.contains { $0.range(of: Data(text.utf8)) != nil }
    }

    /// The whole database as `pg_dump` writes it (plain SQL, data included).
    public static func pgDump(_ url: PostgreSQLURL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/lib/postgresql/15/bin/pg_dump")
        process.arguments = ["-h", url.host, "-p", "\(url.port)", "-U", url.user, "-d", url.database]
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSWORD"] = url.password
        environment["PGSSLMODE"] = url.tls.rawValue
        environment["PGSSLROOTCERT"] = url.rootCertificatePath
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Unreadable(description: "pg_dump ended with status \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }

    public struct Unreadable: Error, CustomStringConvertible {
        public var description: String
    }
}
#endif
