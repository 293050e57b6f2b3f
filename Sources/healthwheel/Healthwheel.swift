import ArgumentParser
import Foundation
import Logging
import Store

@main
struct Healthwheel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Healthwheel: a JSON API for personal trainers, their clients and health wheels.",
        subcommands: [
            Serve.self, Migrate.self, CompanyCommand.self, TrainerCommand.self, ClientsCommand.self, ExercisesCommand.self, Rekey.self, Backup.self,
        ]
    )
}

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

enum Environment {
    static func value(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }
}

enum Log {
    /// Logs go to standard output; the level comes from `HEALTHWHEEL_LOG_LEVEL` (default `info`).
    static func bootstrap() -> Logger {
        let level = Environment.value("HEALTHWHEEL_LOG_LEVEL").flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "healthwheel")
    }
}
