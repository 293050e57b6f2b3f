import Foundation
import Store
import StoreContract
import TestSupport
import Testing

/// `healthwheel clients import FILE --company ID`: a file of any size, with a progress line.
@Suite struct ClientsImportCommandTests {
    @Test func importCreatesEveryClientThenMatchesThemAgainAndReportsProgress() throws {
        let folder = TemporaryDirectory()
        let data = folder.dataDirectory.url.path
        let created = try Command.run(["company", "create", "--data-dir", data, "--name", "Big Chain"])
        #expect(created.status == 0, "\(created.errors)")
        let company = created.output.trimmingCharacters(in: .whitespacesAndNewlines)

        // More cards than one HTTP import takes (5,000), one of them broken, one a repeat of an earlier card.
        var text = ""
        for index in 0..<5_200 {
            text += "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Client\(index);Test;;;\r\nEMAIL:client\(index)@example.com\r\nEND:VCARD\r\n"
        }
        text += "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Bad;Email;;;\r\nEMAIL:not-an-email\r\nEND:VCARD\r\n"
        text += "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Client7;Test;;;\r\nEMAIL:client7@example.com\r\nTEL:+64 21 555 0007\r\nEND:VCARD\r\n"
        let file = folder.url.appendingPathComponent("contacts.vcf")
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)

        let first = try Command.run(["clients", "import", file.path, "--company", company, "--data-dir", data], timeout: 300)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.contains("created 5200, updated 1, skipped 1"), "\(first.output)")
        #expect(first.output.contains("card 5201 (Email Bad): skipped"), "\(first.output)")
        #expect(first.errors.contains("5202/5202 cards"), "\(first.errors.suffix(300))")

        let again = try Command.run(["clients", "import", file.path, "--company", company, "--data-dir", data], timeout: 300)
        #expect(again.output.contains("created 0, updated 5201, skipped 1"), "\(again.output)")

        let unknown = try Command.run(["clients", "import", file.path, "--company", UUID().uuidString, "--data-dir", data])
        #expect(unknown.status != 0)
        #expect(unknown.errors.contains("no company has the id"), "\(unknown.errors)")
    }
}

/// `healthwheel audit verify`: the chain over what the operator's commands wrote, and the row someone altered.
@Suite struct AuditVerifyCommandTests {
    @Test func verifyFindsTheChainIntactThenNamesTheRowAlteredWithTheKey() throws {
        let folder = TemporaryDirectory()
        let data = folder.dataDirectory
        let created = try Command.run(["company", "create", "--data-dir", data.url.path, "--name", "Audit Gym"])
        #expect(created.status == 0, "\(created.errors)")
        let company = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let file = folder.url.appendingPathComponent("three.vcf")
        let cards = ["Ames", "Byrd", "Cole"].map { "BEGIN:VCARD\r\nVERSION:3.0\r\nN:\($0);Jo;;;\r\nEND:VCARD\r\n" }.joined()
        try Data(cards.utf8).write(to: file)
        #expect(try Command.run(["clients", "import", file.path, "--company", company, "--data-dir", data.url.path]).status == 0)

        let intact = try Command.run(["audit", "verify", "--data-dir", data.url.path])
        #expect(intact.status == 0, "\(intact.errors)")
        #expect(intact.output.contains("audit: 3 rows, chain intact"), "\(intact.output)")

        let key = try #require(DatabaseKey(hex: try String(contentsOfFile: data.keyPath, encoding: .utf8)))
        let connection = try SQLiteConnection(path: data.databasePath, key: key)
        #expect(try connection.scalar("SELECT count(*) FROM audit_events WHERE actor = 'operator' AND action = 'client.created'") as Int == 3)
        let head = try Command.run(["audit", "head", "--data-dir", data.url.path]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(head.hasPrefix("3:") && head.count == 2 + 64, "\(head)")

        // The newest row cut off: the chain still follows, the head kept elsewhere names what is missing.
        _ = try connection.run("DELETE FROM audit_events WHERE seq = 3")
        #expect(try Command.run(["audit", "verify", "--data-dir", data.url.path]).status == 0)
        let cut = try Command.run(["audit", "verify", "--data-dir", data.url.path, "--head", head])
        #expect(cut.status != 0)
        #expect(cut.output.contains("audit: row 3: row 3 is missing: the trail ends at row 2, its checkpointed head is row 3"), "\(cut.output)")

        _ = try connection.run("UPDATE audit_events SET at = at + 1 WHERE seq = 2")
        let altered = try Command.run(["audit", "verify", "--data-dir", data.url.path])
        #expect(altered.status != 0)
        #expect(altered.output.contains("audit: row 2: its hash does not follow"), "\(altered.output)")
    }
}
