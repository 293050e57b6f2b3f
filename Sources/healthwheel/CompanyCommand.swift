import ArgumentParser
import Foundation
import HealthwheelCore
import Store

struct CompanyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "company", abstract: "Manage companies.", subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a company and print its id.")

        @OptionGroup var data: DataOptions
        @Option(help: "The company's name.")
        var name: String

        func run() async throws {
            let name = try validated { () throws(HealthwheelCore.ValidationError) in try InputRules.name(self.name) }
            let store = Store(database: try data.openDatabase())
            let company = Company(name: name, createdAt: Date())
            try await store.companies.create(company)
            print(company.id.uuidString)
        }
    }
}
