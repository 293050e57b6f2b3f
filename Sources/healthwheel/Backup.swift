import ArgumentParser

struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a consistent encrypted backup (database and media, same key) to a new folder; safe while the server runs."
    )

    @OptionGroup var data: DataOptions
    @Option(help: "The folder to create (it must not exist yet); it holds healthwheel.db and media/, not the key.")
    var to: String

    func run() throws {
        try data.directory.backup(to: to)
        print("Backed up to \(to) (encrypted with the current key, which is not in it: keep the key apart, and the audit key too).")
    }
}

struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Make a new data folder from a backup folder; the key comes from HEALTHWHEEL_DB_KEY or a key file already placed there, the audit key from HEALTHWHEEL_AUDIT_KEY or healthwheel.audit.key placed there."
    )

    @OptionGroup var data: DataOptions
    @Option(help: "The backup folder `healthwheel backup` wrote.")
    var from: String

    func run() throws {
        try data.directory.restore(from: from)
        print("Restored \(from) into \(data.directory.url.path); `healthwheel serve` serves it.")
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the database file (SQLite's integrity and foreign-key checks); prints `integrity: ok` or each problem and exits 1."
    )

    @OptionGroup var data: DataOptions

    func run() throws {
        let problems = try data.directory.check()
        guard problems.isEmpty else {
            for problem in problems { print("integrity: \(problem)") }
            throw ExitCode.failure
        }
        print("integrity: ok")
    }
}
