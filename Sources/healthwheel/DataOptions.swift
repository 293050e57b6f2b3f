import ArgumentParser
import Store

/// Options every subcommand shares.
struct DataOptions: ParsableArguments {
    @Option(help: "The data folder (default: $HEALTHWHEEL_DATA_DIR, else ./data).")
    var dataDir: String?

    var directory: DataDirectory {
        DataDirectory(path: dataDir ?? Environment.value("HEALTHWHEEL_DATA_DIR") ?? "./data")
    }

    /// Opens the database, applying pending migrations.
    func openDatabase(readers: Int = 1, resources: Resources? = nil) throws -> Database {
        let resources = try resources ?? Resources.locate()
        return try directory.openDatabase(migrator: Migrator(directory: resources.migrations), readers: readers)
    }
}
