import ArgumentParser
import Store
import StoreContract

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create the database if needed and apply pending migrations.")

    @OptionGroup var data: DataOptions

    func run() throws {
        let database = try data.openStoreDatabase()
        let version: Int = try database.readBlocking { try await $0.scalar("SELECT max(version) FROM schema_migrations") }
        print("\(database.location) is at schema version \(version)")
        database.close()
    }
}
