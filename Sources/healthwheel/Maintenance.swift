import ArgumentParser
import Foundation
import Store

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create the database if needed and apply pending migrations.")

    @OptionGroup var data: DataOptions

    func run() throws {
        let database = try data.openDatabase()
        let version: Int = try database.read { try $0.scalar("SELECT max(version) FROM schema_migrations") }
        print("\(database.path) is at schema version \(version)")
    }
}

struct Rekey: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-encrypt the database under a new random key.",
        discussion: """
            The server must be stopped: its open connections hold the old key. The new key replaces the key file \
            atomically; when the key comes from HEALTHWHEEL_DB_KEY instead, the new key is printed once and the \
            variable must be updated before the next start.
            """
    )

    @OptionGroup var data: DataOptions

    func run() throws {
        let directory = data.directory
        let newKey = try directory.rekey()
        if Environment.value(DataDirectory.keyVariable) != nil {
            print("Re-encrypted \(directory.databasePath). Set \(DataDirectory.keyVariable) to this new key before the next start:")
            print(newKey.hex)
        } else {
            print("Re-encrypted \(directory.databasePath); the new key is in \(directory.keyPath). The old key no longer opens it.")
        }
    }
}

struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a consistent encrypted copy of the database (same key); safe while the server runs."
    )

    @OptionGroup var data: DataOptions
    @Option(help: "The file to create (it must not exist yet).")
    var to: String

    func run() throws {
        try data.directory.backup(to: to)
        print("Backed up to \(to) (encrypted with the current key).")
    }
}
