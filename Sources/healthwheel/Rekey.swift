import ArgumentParser
import Store
import StoreContract

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
