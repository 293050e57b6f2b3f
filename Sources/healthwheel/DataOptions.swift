import ArgumentParser
import Foundation
import Logging
import Services
import Store
import StoreContract

/// Options every subcommand shares.
struct DataOptions: ParsableArguments {
    @Option(help: "The data folder (default: $HEALTHWHEEL_DATA_DIR, else ./data).")
    var dataDir: String?
    @Option(
        help: """
            A PostgreSQL database to keep everything in instead of the data folder's encrypted file, as \
            postgres://user:password@host:port/database?sslmode=verify-full&sslrootcert=ca.pem \
            (default: $HEALTHWHEEL_DATABASE_URL). Health data is sealed under $HEALTHWHEEL_DATA_KEY.
            """
    )
    var databaseURL: String?

    var directory: DataDirectory {
        DataDirectory(path: dataDir ?? Environment.value("HEALTHWHEEL_DATA_DIR") ?? "./data")
    }

    /// Opens the store's database: PostgreSQL when `--database-url` or `HEALTHWHEEL_DATABASE_URL` names one
    /// (`connections` to it), else the data folder's encrypted file (with `readers`); pending migrations applied.
    func openStoreDatabase(readers: Int = 1, connections: Int = 2, resources: Resources? = nil, logger: Logger? = nil) throws -> any SQLDatabase {
        try directory.openStoreDatabase(
            url: databaseURL ?? Environment.value("HEALTHWHEEL_DATABASE_URL"),
            migrations: (resources ?? Resources.locate()).migrations,
            readers: readers,
            connections: connections,
            logger: logger ?? Logger(label: "healthwheel.postgres")
        )
    }

    /// Runs `body` on the repositories over `openStoreDatabase` (see `keyedStore`; what keying did goes to
    /// stderr), then closes the database: what every command but `serve` works on.
    func withRepositories<T>(readers: Int = 1, _ body: (Repositories) async throws -> T) async throws -> T {
        let database = try openStoreDatabase(readers: readers)
        defer { database.close() }
        return try await body(try await keyedStore(over: database) { FileHandle.standardError.write(Data("\($0)\n".utf8)) })
    }

    /// The store over `database`, its audit trail keyed under the audit key before anything is written
    /// (`AuditTrail.adoptKey`): another key than the trail's stops here, and `report` is told what was done.
    func keyedStore(over database: any SQLDatabase, report: (String) -> Void = { _ in }) async throws -> Repositories {
        let store = Repositories(database: database)
        switch try await AuditTrail(store: store).adoptKey() {
        case .unchanged: break
        case .marked(let rows): report("audit trail keyed under the audit key (\(rows) rows)")
        case .rekeyed(let rows): report("audit trail chained again under the audit key: \(rows) rows written before it was keyed")
        case .broken(let verification):
            let row = verification.firstAltered.map { " at row \($0.sequence): \($0.reason)" } ?? ""
            report("the audit trail does not follow\(row); left as it is (healthwheel audit verify names it)")
        }
        return store
    }
}
