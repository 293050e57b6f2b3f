import ArgumentParser
import Foundation
import HealthwheelCore
import Services
import StoreContract

struct TrainerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trainer", abstract: "Manage trainers.", subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a trainer in a company and print its id.",
            discussion: "The password comes from --password or, to keep it out of the shell history, HEALTHWHEEL_PASSWORD."
        )

        @OptionGroup var data: DataOptions
        @Option(help: "The company's id.")
        var company: String
        @Option(help: "Login email (unique within the company).")
        var email: String
        @Option(help: "Display name.")
        var name: String
        @Option(help: "admin or trainer.")
        var role: Role
        @Option(help: "The password (default: $HEALTHWHEEL_PASSWORD).")
        var password: String?

        func run() async throws {
            guard let companyId = UUID(uuidString: company) else { throw ValidationError("--company must be a company id (a UUID)") }
            guard let password = password ?? Environment.value("HEALTHWHEEL_PASSWORD") else {
                throw ValidationError("give the password with --password or HEALTHWHEEL_PASSWORD")
            }
            let new = NewTrainer(email: email, name: name, role: role.rawValue, password: password)
            let trainer = try await data.withRepositories { store in
                let accounts = TrainerAccounts(store: store, passwords: PasswordService(), clock: SystemClock())
                return try await refusalsAsUsageErrors { try await accounts.create(new, in: companyId, by: .operatorCommand) }
            }
            print(trainer.id.uppercaseHyphenated)
        }
    }
}

extension Role: ExpressibleByArgument {}
