import ArgumentParser

@main
struct Healthwheel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Healthwheel: a JSON API for personal trainers, their clients and health wheels.",
        subcommands: [
            Serve.self, Migrate.self, CompanyCommand.self, TrainerCommand.self, ClientsCommand.self, ExercisesCommand.self, Rekey.self, Backup.self,
        ]
    )
}
