import ArgumentParser
import Foundation
import HealthwheelCore
import Services
import Store
import StoreContract

struct CompanyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "company", abstract: "Manage companies.", subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a company and print its id.")

        @OptionGroup var data: DataOptions
        @Option(help: "The company's name.")
        var name: String

        func run() async throws {
            let companies = CompanyProfile(store: try await data.openStore())
            let company = try await refusalsAsUsageErrors { try await companies.create(name: name, at: Date()) }
            print(company.id.uppercaseHyphenated)
        }
    }
}
