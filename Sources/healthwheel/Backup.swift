import ArgumentParser

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
