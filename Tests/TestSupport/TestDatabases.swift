import Foundation
import Store
import StoreContract
import Synchronization
import Testing

/// Which database the shared store and API suites run on: the embedded SQLCipher file, or PostgreSQL when
/// `HEALTHWHEEL_TEST_BACKEND=postgres` and `HEALTHWHEEL_TEST_DATABASE_URL` names a server (scripts/test runs the
/// suites once on each).
public enum TestBackend: Sendable {
    case sqlcipher, postgres

    public static var current: TestBackend {
        ProcessInfo.processInfo.environment["HEALTHWHEEL_TEST_BACKEND"] == "postgres" ? .postgres : .sqlcipher
    }
}

/// A migrated, empty database for one test on the current backend, closed when the last reference goes (a
/// PostgreSQL one's threads and connections would otherwise stay).
public final class TestDatabase: Sendable {
    public let database: any SQLDatabase

    public init(_ folder: TemporaryDirectory) throws {
        switch TestBackend.current {
        case .sqlcipher: database = try openTestDatabase(folder)
        case .postgres:
            #if PostgreSQL
            database = try PostgreSQLTestServer.freshDatabase()
            #else
            throw StoreError.invalidDatabaseURL("is set for the tests, but they were built without the PostgreSQL trait")
            #endif
        }
    }

    #if PostgreSQL
    /// A second connection pool to the same PostgreSQL database, as a second node of a cluster has.
    public init(secondNodeOf first: PostgreSQLDatabase) throws {
        database = try PostgreSQLTestServer.open(first.url, named: first.url.database)
    }
    #endif

    deinit { database.close() }
}

#if PostgreSQL

/// The PostgreSQL server `HEALTHWHEEL_TEST_DATABASE_URL` names (scripts/postgres starts one). Each test gets a
/// database of its own, copied from a template migrated once per test process.
public enum PostgreSQLTestServer {
    public static var url: String? {
        ProcessInfo.processInfo.environment["HEALTHWHEEL_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The tests' data key: fixed, so a test can open a second connection to the same database.
    public static let dataKey = DatabaseKey(hex: String(repeating: "5e", count: 32))!
    /// The tests' audit key, fixed for the same reason.
    public static let auditKey = AuditKey(DatabaseKey(hex: String(repeating: "a7", count: 32))!)

    private static let template = Mutex<String?>(nil)

    /// A new database copied from the migrated template.
    public static func freshDatabase(connections: Int = 2) throws -> PostgreSQLDatabase {
        guard let url else { throw StoreError.invalidDatabaseURL("is not set for the tests (HEALTHWHEEL_TEST_DATABASE_URL)") }
        let server = try PostgreSQLURL(url)
        let template = try self.template.withLock { name in
            if let name { return name }
            let created = "hw_template_\(getpid())"
            try administer(server) { try await $0.execute("DROP DATABASE IF EXISTS \(created); CREATE DATABASE \(created)") }
            let database = try open(server, named: created, connections: 1)
            defer { database.close() }
            try RepositoryRoot.postgresMigrator.migrate(database)
            name = created
            return created
        }
        let name = "hw_test_\(UUID().uuidString.prefix(13).lowercased().replacingOccurrences(of: "-", with: ""))"
        try administer(server) { try await $0.execute("CREATE DATABASE \(name) TEMPLATE \(template)") }
        return try open(server, named: name, connections: connections)
    }

    /// A new database with nothing in it, not even the schema (what nodes starting for the first time find).
    public static func emptyDatabase() throws -> PostgreSQLURL {
        guard let url else { throw StoreError.invalidDatabaseURL("is not set for the tests (HEALTHWHEEL_TEST_DATABASE_URL)") }
        var server = try PostgreSQLURL(url)
        let name = "hw_empty_\(UUID().uuidString.prefix(13).lowercased().replacingOccurrences(of: "-", with: ""))"
        try administer(server) { try await $0.execute("CREATE DATABASE \(name)") }
        server.database = name
        return server
    }

    /// Opens `name` on the test server (a second node's view of a test's database, say).
    public static func open(_ server: PostgreSQLURL, named name: String, connections: Int = 4) throws -> PostgreSQLDatabase {
        var url = server
        url.database = name
        return try PostgreSQLDatabase(url: url, sealer: ColumnSealer(key: dataKey), auditKey: auditKey, connections: connections)
    }

    private static func administer(_ server: PostgreSQLURL, _ body: (any SQLConnection) async throws -> Void) throws {
        let database = try PostgreSQLDatabase(url: server, sealer: nil, auditKey: nil, connections: 1)
        defer { database.close() }
        try database.readBlocking(body)
    }
}

#endif

extension Trait where Self == ConditionTrait {
    /// For what only the embedded store has (its file, its log, its caches' stamps, its query plans): such tests
    /// run in the SQLCipher pass and are skipped in the PostgreSQL pass, which runs the shared suites again.
    public static var sqlcipherOnly: Self {
        .enabled(if: TestBackend.current == .sqlcipher, "exercises the embedded SQLCipher store")
    }
}

extension Trait where Self == ConditionTrait {
    /// For what does not depend on the store (the HTTP layer's limits, the scoring sandbox, parsers): run once, in
    /// the SQLCipher pass; the PostgreSQL pass would only repeat it, under more load.
    public static var storeIndependent: Self {
        .enabled(if: TestBackend.current == .sqlcipher, "does not depend on the store")
    }
}
