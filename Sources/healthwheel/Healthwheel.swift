import ArgumentParser
import Media
import Scoring

@main
struct Healthwheel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Healthwheel: a JSON API for personal trainers, their clients and health wheels.",
        subcommands: [
            Serve.self, Migrate.self, CompanyCommand.self, TrainerCommand.self, ClientsCommand.self, ExercisesCommand.self, Rekey.self, Backup.self,
            Restore.self, Check.self, AuditCommand.self,
        ]
    )

    /// `healthwheel score-worker …` (`media-worker`) is the server starting one of its scoring (media) workers: it
    /// becomes one on the main thread, before any argument parsing, and never returns. (On the main thread, memory comes from the main
    /// heap, which grows and shrinks with brk alone: a thread's own heap reads /proc to shrink, which the
    /// worker's filter forbids.)
    static func main() async {
        let arguments = CommandLine.arguments
        if arguments.count > 1 && arguments[1] == ScoringWorker.command {
            ScoringWorker.run(arguments: Array(arguments.dropFirst(2)))
        }
        if arguments.count == 2 && arguments[1] == MediaWorker.command {
            MediaWorker.run()
        }
        await main(nil)
    }
}
