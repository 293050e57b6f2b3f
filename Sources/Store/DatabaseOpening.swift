import Foundation
import Logging
import StoreContract

extension DataDirectory {
    /// The store's database where the command line and the environment say: PostgreSQL when `databaseURL` is
    /// given (migrated under its lock, the data key proved; `connections` to it), else this folder's encrypted
    /// file (with `readers`), migrated from `migrations` (PostgreSQL's from its `postgres/` folder). The one
    /// place a build without the PostgreSQL trait says it has none.
    public func openStoreDatabase(
        url databaseURL: String?,
        migrations: URL,
        readers: Int = 1,
        connections: Int = 2,
        logger: Logger = Logger(label: "healthwheel.postgres")
    ) throws -> any SQLDatabase {
        guard let databaseURL else { return try openDatabase(migrator: Migrator(directory: migrations), readers: readers) }
        #if PostgreSQL
        let database = try PostgreSQLDatabase(
            url: PostgreSQLURL(databaseURL),
            sealer: ColumnSealer(key: try resolveDataKey()),
            auditKey: try resolveAuditKey(),
            connections: connections,
            logger: logger
        )
        do {
            try Migrator(directory: migrations.appendingPathComponent("postgres")).migrate(database)
        } catch {
            database.close()
            throw error
        }
        return database
        #else
        throw StoreError.invalidDatabaseURL(
            "names a PostgreSQL database, but this build has no PostgreSQL support: rebuild with `swift build -c release --traits PostgreSQL`"
        )
        #endif
    }
}
