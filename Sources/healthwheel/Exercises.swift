import ArgumentParser
import Foundation
import Scoring
import Services
import StoreContract

struct ExercisesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "exercises", abstract: "Manage exercise packs.", subcommands: [Import.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import exercise packs: one JSON file, or every *.json in a folder.",
            discussion: """
                Each pack is checked whole (shape, ids, colour, scripts compiling, every example scoring as declared) \
                before anything is stored, then all are stored in one transaction: one broken or conflicting file \
                imports none. Each is stored as a new version; earlier versions stay, so stored scores remain \
                reproducible. Without --company the packs are seen by every company. A running server picks them up \
                on its next start.
                """
        )

        @OptionGroup var data: DataOptions
        @Argument(help: "A pack file or a folder of pack files.")
        var path: String
        @Option(help: "The id of the company the packs are for (default: every company).")
        var company: String?

        func run() async throws {
            let scorer = ExerciseScorer(workers: ScoringWorkers(workers: 1))
            defer { scorer.workers.shutdown() }
            let files = try await ExercisePackImport.readFiles(at: URL(fileURLWithPath: path), scorer: scorer)
            try await data.withRepositories { store in
                var owner = ExerciseCatalog.everyCompany
                if let company {
                    guard let id = UUID(uuidString: company), try await CompanyProfile(store: store).find(id) != nil else {
                        throw ValidationError("no company has the id \(company)")
                    }
                    owner = ExerciseCatalog.owner(of: id)
                }
                let importer = ExercisePackImport(store: store, catalog: ExerciseCatalog(folder: nil), scorer: scorer)
                try await importer.reloadCatalog()
                try await importer.importFiles(files, owner: owner, at: Date()) { file, outcome in
                    switch outcome {
                    case .imported: print("\(file): imported")
                    case .unchanged: print("\(file): unchanged (this version is already stored)")
                    case .versionConflict: break
                    }
                }
            }
        }
    }
}
