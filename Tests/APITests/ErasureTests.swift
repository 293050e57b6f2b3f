import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Services
import Store
import StoreContract
import TestSupport
import Testing

@testable import API

/// `DELETE /v1/clients/{id}?erase=true`: nothing of the client is left in the database (the SQLCipher file and its
/// log, or PostgreSQL's dump and table files), the media or the stored answers of retried requests; the audit
/// trail keeps one line with their id.
@Suite struct ErasureTests {
    /// Text that appears nowhere but in what is written about the one client.
    struct Markers {
        let suffix = UUID().uuidString.prefix(8).lowercased()
        var givenName: String { "Zephyrine\(suffix)" }
        var email: String { "zq.\(suffix)@erase.example" }
        var notes: String { "knee-note-\(suffix)" }
        var observation: String { "observed-wobble-\(suffix)" }
        var caption: String { "caption-\(suffix)" }
        var all: [String] { [givenName, email, notes, observation, caption] }
    }

    /// Whether the database holds a text as bytes: in a page of the SQLCipher file or its log, decrypted outside
    /// SQLite; or in PostgreSQL's dump or one of its tables' files, read outside the server.
    private func stored(_ fixture: Fixture) throws -> (String) -> Bool {
        #if PostgreSQL
        if let shared = fixture.database as? PostgreSQLDatabase { return try PostgreSQLStoredBytes(shared).contain }
        #endif
        let directory = fixture.folder.dataDirectory
        return try RawDatabasePages(database: directory.databasePath, key: try directory.resolveKey(environment: keyFileEnvironment)).contain
    }

    @Test func anErasedClientLeavesNoTraceInTheDatabaseItsFilesOrTheMediaFolder() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let trainer = try await client.token(for: try await fixture.trainer(in: company))
            let marks = Markers()

            let person = #"""
                {"givenName": "\#(marks.givenName)", "familyName": "Quill", "email": "\#(marks.email)", "notes": "\#(marks.notes)",
                 "birthDate": "1990-05-01", "sex": "female", "height": 1.68, "mass": 61}
                """#
            let id = try await client.screenedClient(person, token: trainer)
            let keyed: HTTPFields = [IdempotentRequests.header: "erase-me-1"]
            let posted = try await client.send(
                .post,
                "/v1/clients/\(id)/results",
                token: trainer,
                json: ResultsTests.heartRate(61, extra: #", "observations": "\#(marks.observation)""#),
                headers: keyed
            )
            #expect(posted.status == .created, "\(posted.text)")
            let result = try #require(posted.object["id"] as? String)
            let upload = try await client.execute(
                uri: "/v1/results/\(result)/media?caption=\(marks.caption)",
                method: .post,
                headers: [.authorization: "Bearer \(trainer)", .contentType: "image/jpeg"],
                body: .init(bytes: MediaTests.photo)
            ) { $0 }
            #expect(upload.status == .created, "\(upload.text)")
            let mediaId = try #require(upload.object["id"] as? String)
            let media = try #require(UUID(uuidString: mediaId))
            let emailed = try await client.send(.post, "/v1/clients/\(id)/report/email", token: trainer, json: #"{"to": "coach@example.com"}"#)
            #expect(emailed.status == .accepted, "\(emailed.text)")
            // The embedded default writes sent mail into the data folder: erasure takes it too.
            let delivery = try #require(emailed.object["id"] as? String)
            let eml = fixture.folder.url.appendingPathComponent("outbox/\(delivery.lowercased()).eml")
            for _ in 0..<1_200 where !FileManager.default.fileExists(atPath: eml.path) { try await Task.sleep(for: .milliseconds(50)) }
            #expect(FileManager.default.fileExists(atPath: eml.path))
            // Memory holds them too: the wheel, a page of results, the list, a thumbnail.
            for path in ["/v1/clients/\(id)/wheel", "/v1/clients/\(id)/results", "/v1/clients", "/v1/media/\(media)/thumbnail"] {
                #expect(try await client.send(.get, path, token: trainer).status == .ok, "\(path)")
            }
            let other = try await client.screenedClient(token: trainer)

            // The scan sees what is there: before erasure, every marker is in the file or its log (on PostgreSQL,
            // those that are not sealed: notes and observations never are there as they are).
            let before = try stored(fixture)
            let readable = fixture.database.dialect == .postgres ? [marks.givenName, marks.email, marks.caption] : marks.all
            for marker in readable { #expect(before(marker), "\(marker) is found before erasure") }
            #expect(fixture.mediaStorage.holds(media))

            // Only an admin of the client's company may erase; a bad flag is named; refusals change nothing.
            expectProblem(try await client.send(.delete, "/v1/clients/\(id)?erase=true", token: trainer), .forbidden)
            let stranger = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            expectProblem(try await client.send(.delete, "/v1/clients/\(id)?erase=true", token: stranger), .notFound)
            expectProblem(try await client.send(.delete, "/v1/clients/\(id)?erase=yes", token: admin), .unprocessableContent, fields: ["erase"])
            #expect(try await client.send(.get, "/v1/clients/\(id)", token: trainer).status == .ok)

            #expect(try await client.send(.delete, "/v1/clients/\(id)?erase=true", token: admin).status == .noContent)
            if fixture.database.dialect == .sqlite {
                let log = fixture.folder.dataDirectory.databasePath + "-wal"
                #expect(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int == 0, "the log is truncated")
            }

            expectProblem(try await client.send(.get, "/v1/clients/\(id)", token: admin), .notFound)
            expectProblem(try await client.send(.get, "/v1/clients/\(id)/wheel", token: admin), .notFound)
            expectProblem(try await client.send(.get, "/v1/media/\(media)/thumbnail", token: admin), .notFound)
            let list = try await client.send(.get, "/v1/clients", token: admin)
            #expect(!list.text.contains(marks.givenName))
            #expect(list.text.contains(other))
            #expect(try await client.send(.get, "/v1/clients/\(other)/results", token: trainer).status == .ok)

            let after = try stored(fixture)
            for marker in marks.all { #expect(!after(marker), "\(marker) is gone from every page and file of the database") }
            #expect(try onlyTheErasureLineNames(id, fixture))
            #expect(!fixture.mediaStorage.holds(media), "the media file is removed")
            #expect(!FileManager.default.fileExists(atPath: eml.path), "the report email written for them is removed")
            // Nor is any file of the data folder left holding their name or email as it is.
            let files = FileManager.default.enumerator(at: fixture.folder.url, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            // The database, its key and log, media and the outbox; on PostgreSQL the outbox alone.
            #expect(files.count > (fixture.database.dialect == .postgres ? 0 : 3))
            for file in files where !file.hasDirectoryPath {
                let bytes = (try? Data(contentsOf: file)) ?? Data()
                #expect(bytes.range(of: Data(marks.givenName.utf8)) == nil && bytes.range(of: Data(marks.email.utf8)) == nil, "\(file.path)")
            }

            // A retry of the erased client's keyed POST no longer finds its stored answer: it is told the client is
            // gone (the erasure's own line keeps their id), so an app drops what it holds of them.
            let retried = try await client.send(.post, "/v1/clients/\(id)/results", token: trainer, json: ResultsTests.heartRate(61), headers: keyed)
            expectProblem(retried, .gone, fields: ["clientId"])

            // The trail: one line names them; the earlier ones about them no longer do, and the chain holds.
            let trail = try await client.send(.get, "/v1/audit?clientId=\(id)", token: admin)
            let lines = trail.object["items"] as? [[String: Any]] ?? []
            #expect(lines.compactMap { $0["action"] as? String } == ["client.erased"])
            let all = try await client.send(.get, "/v1/audit?limit=200", token: admin).object["items"] as? [[String: Any]] ?? []
            let blanked = all.filter { $0["erased"] as? Bool == true }
            #expect(blanked.count >= 2, "client.created and result.created stay, blanked")
            #expect(blanked.allSatisfy { $0["clientId"] is NSNull && $0["subjectId"] is NSNull })
            #expect(try await fixture.store.audit.verify().firstAltered == nil)
        }
    }

    /// The id may remain only in the audit line that records the erasure (and in the index over it).
    private func onlyTheErasureLineNames(_ id: String, _ fixture: Fixture) throws -> Bool {
        let count: Int = try fixture.database.readBlocking { db in
            try await db.scalar("SELECT count(*) FROM audit_events WHERE client_id = ? OR subject_id = ?", id.lowercased(), id.lowercased())
        }
        return count == 1
    }

    @Test func aPlainDeleteStillKeepsTheTrailsLinesAboutTheClient() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let id = try await client.createClient(given: "Plain", family: "Delete", token: admin)
            #expect(try await client.send(.delete, "/v1/clients/\(id)?erase=false", token: admin).status == .noContent)
            let trail = try await client.send(.get, "/v1/audit?clientId=\(id)", token: admin)
            let actions = (trail.object["items"] as? [[String: Any]] ?? []).compactMap { $0["action"] as? String }
            #expect(actions == ["client.deleted", "client.created"])
        }
    }
}
