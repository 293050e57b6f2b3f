import ArgumentParser
import Store

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create the database if needed and apply pending migrations.")

    @OptionGroup var data: DataOptions

    func run() throws {
        let database = try data.openStoreDatabase()
        let version: Int = try database.readBlocking { try $0.scalar("SELECT max(version) FROM schema_migrations") }
        let place = (database as? PostgreSQLDatabase).map(\.url.description) ?? (database as? SQLiteDatabase)?.path ?? "the database"
        print("\(place) is at schema version \(version)")
        (database as? PostgreSQLDatabase)?.close()
    }
}
