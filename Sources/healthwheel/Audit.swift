import ArgumentParser
import Foundation
import Services
import Store
import StoreContract

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check the audit trail, or print its head to keep elsewhere.",
        subcommands: [Verify.self, Head.self]
    )

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Follow the audit trail's chain from its first line, then compare its end with a checkpoint; prints `audit: N rows, chain intact` or names the first altered or missing row and exits 1.",
            discussion: """
                Every line's hash is an HMAC under the audit key (HEALTHWHEEL_AUDIT_KEY or healthwheel.audit.key, \
                never in the database) over the line before it, so a line changed, removed or slipped in breaks \
                the chain there, even by someone who can write the database. Lines cut off the end leave a chain \
                that follows: they are named against the newest checkpoint the server wrote \
                (healthwheel.audit-head in the data folder), or against a head given with --head. Erasing a \
                client blanks whom their lines were about and keeps the chain whole.
                """
        )

        @OptionGroup var data: DataOptions
        @Option(help: "A head kept elsewhere, as ROW:HASH (what `audit head` prints); default: the newest checkpoint in the data folder.")
        var head: String?

        func run() async throws {
            let directory = data.directory
            var checkpoint: AuditHead?
            var source = "no checkpoint"
            if let head {
                guard let given = AuditHead(text: head) else {
                    throw ValidationError("--head must be ROW:HASH, as `audit head` prints it")
                }
                (checkpoint, source) = (given, "the head given")
            } else {
                let file = AuditCheckpointFile(path: directory.auditHeadPath, key: try directory.resolveAuditKey())
                do {
                    if let newest = try file.newest() {
                        (checkpoint, source) = (newest.head, "the checkpoint of \(newest.writtenAt)")
                    }
                } catch let unreadable as AuditCheckpointFile.Unreadable {
                    print("audit: \(unreadable)")
                    throw ExitCode.failure
                }
            }
            let verification = try await data.withRepositories { try await AuditTrail(store: $0).verify(against: checkpoint) }
            if let altered = verification.firstAltered {
                print(
                    "audit: row \(altered.sequence): \(altered.reason) (\(verification.rowsChecked) rows before it are intact; compared with \(source))"
                )
                throw ExitCode.failure
            }
            print("audit: \(verification.rowsChecked) rows, chain intact (compared with \(source))")
        }
    }

    struct Head: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the audit trail's newest row and hash as ROW:HASH, to keep somewhere the server cannot write.",
            discussion: "`audit verify --head ROW:HASH` later names any row from the trail's end that is missing since."
        )

        @OptionGroup var data: DataOptions

        func run() async throws {
            guard let head = try await data.withRepositories({ try await AuditTrail(store: $0).head() }) else {
                print("audit: the trail is empty")
                return
            }
            print(head.text)
        }
    }
}
