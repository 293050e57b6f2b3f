import ArgumentParser
import Services
import Store

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "audit", abstract: "Check the audit trail.", subcommands: [Verify.self])

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Follow the audit trail's hash chain from its first line; prints `audit: N rows, chain intact` or names the first altered row and exits 1.",
            discussion: """
                Every line's hash covers the line before it, so a line changed, removed or slipped in breaks the \
                chain there. Erasing a client blanks whom their lines were about and keeps the chain whole.
                """
        )

        @OptionGroup var data: DataOptions

        func run() async throws {
            let verification = try await AuditTrail(store: Store(database: try data.openStoreDatabase())).verify()
            if let altered = verification.firstAltered {
                print("audit: row \(altered.sequence) was altered: \(altered.reason) (\(verification.rowsChecked) rows before it are intact)")
                throw ExitCode.failure
            }
            print("audit: \(verification.rowsChecked) rows, chain intact")
        }
    }
}
