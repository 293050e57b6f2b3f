import ArgumentParser
import Foundation
import HealthwheelCore
import Media
import Services
import StoreContract

struct ClientsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clients", abstract: "Manage a company's clients.", subcommands: [Import.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import clients from a vCard file (a Contacts or Google export), of any size.",
            discussion: """
                Each card is matched to a client of the company by UID, then email, then full name, and creates or \
                updates it, as POST /v1/clients/import does (which takes at most 5,000 cards per request). A card \
                that cannot be imported is reported and skipped; the others land. Progress goes to standard error.
                """
        )

        @OptionGroup var data: DataOptions
        @Argument(help: "A .vcf file.")
        var file: String
        @Option(help: "The id of the company the clients belong to.")
        var company: String

        func run() async throws {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            guard let text = String(data: bytes, encoding: .utf8) ?? String(data: bytes, encoding: .isoLatin1) else {
                throw ValidationError("\(file) is not text")
            }
            let cards = VCardParser.parse(text)
            guard !cards.isEmpty else { throw ValidationError("\(file) holds no BEGIN:VCARD … END:VCARD card") }
            try await data.withRepositories { store in
                guard let companyId = UUID(uuidString: company), try await CompanyProfile(store: store).find(companyId) != nil else {
                    throw ValidationError("no company has the id \(company)")
                }
                let started = ContinuousClock.now
                let mediaWorkers = MediaWorkers(workers: 1)
                defer { mediaWorkers.shutdown() }
                let report = try await ClientImport(store: store, mediaWorkers: mediaWorkers, clock: SystemClock()).run(
                    cards,
                    into: companyId,
                    assigningTo: nil
                ) {
                    done,
                    total in
                    let seconds = max((ContinuousClock.now - started) / .seconds(1), 0.001)
                    FileHandle.standardError.write(Data("\r\(done)/\(total) cards, \(Int(Double(done) / seconds)) cards/s".utf8))
                }
                FileHandle.standardError.write(Data("\n".utf8))
                for item in report.items where item.status == .skipped || item.notes.contains(where: { $0 != "no changes" }) {
                    let remarks = ([item.reason].compactMap { $0 } + item.notes.filter { $0 != "no changes" }).joined(separator: "; ")
                    print("card \(item.index) (\(item.name ?? "no name")): \(item.status.rawValue): \(remarks)")
                }
                print("created \(report.count(.created)), updated \(report.count(.updated)), skipped \(report.count(.skipped))")
            }
        }
    }
}
