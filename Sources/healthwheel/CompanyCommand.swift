import ArgumentParser
import Foundation
import HealthwheelCore
import Services
import StoreContract

struct CompanyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "company", abstract: "Manage companies.", subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a company and print its id.")

        @OptionGroup var data: DataOptions
        @Option(help: "The company's name.")
        var name: String

        func run() async throws {
            let company = try await data.withRepositories { store in
                let companies = CompanyProfile(store: store)
                return try await refusalsAsUsageErrors { try await companies.create(name: name, at: Date()) }
            }
            print(company.id.uppercaseHyphenated)
        }
    }
}
