import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import TestSupport
import Testing

@testable import API

/// `GET /v1/clients/{id}/export`: one ZIP with everything held about a client, read back by Python's zipfile.
@Suite struct ExportTests {
    @Test func anExportHoldsTheWholeRecordAndReadsWithoutHealthwheel() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let trainer = try await client.token(for: try await fixture.trainer(in: company))
            let colleague = try await client.token(for: try await fixture.trainer(in: company))
            let id = try await client.screenedClient(token: trainer)
            #expect(
                try await client.sendBytes(.put, "/v1/clients/\(id)/photo", token: trainer, contentType: "image/png", bytes: ClientsAPI.png()).status
                    == .noContent
            )

            let posted = try await client.send(
                .post,
                "/v1/clients/\(id)/results",
                token: trainer,
                json: ResultsTests.heartRate(64, extra: #", "observations": "calm""#)
            )
            let result = try #require(posted.object["id"] as? String)
            #expect(try await client.send(.patch, "/v1/results/\(result)", token: trainer, json: #"{"values": {"heartRate": 62}}"#).status == .ok)
            var uploaded: [String: String] = [:]
            for (bytes, type) in [(MediaTests.photo, "image/jpeg"), (MediaTests.movie, "video/quicktime")] {
                let upload = try await client.execute(
                    uri: "/v1/results/\(result)/media",
                    method: .post,
                    headers: [.authorization: "Bearer \(trainer)", .contentType: type],
                    body: .init(bytes: bytes)
                ) { $0 }
                #expect(upload.status == .created, "\(upload.text)")
                let mediaId = try #require(upload.object["id"] as? String)
                uploaded[mediaId.lowercased()] = upload.object["sha256"] as? String
            }
            #expect(
                try await client.send(.post, "/v1/clients/\(id)/report/email", token: trainer, json: #"{"to": "coach@example.com"}"#).status
                    == .accepted
            )

            let response = try await client.send(.get, "/v1/clients/\(id)/export", token: trainer)
            #expect(response.status == .ok, "\(response.text.prefix(300))")
            #expect(response.headers[.contentType] == "application/zip")
            #expect(response.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"healthwheel-client-") == true)
            let archive = try ZipReader(Array(response.body.readableBytesView))
            let names = archive.entries.map(\.name)
            for name in [
                "README.txt", "client.json", "screenings.json", "results.json", "deliveries.json", "fhir.json", "client.vcf", "photo.png",
                "report.pdf",
            ] {
                #expect(names.contains(name), "\(name) in \(names)")
            }
            // Media as stored, byte for byte; text deflated, pictures and PDF stored.
            for (mediaId, sha256) in uploaded {
                let entry = try #require(archive.entries.first { $0.name.hasPrefix("media/\(mediaId).") })
                #expect(entry.sha256 == sha256)
                #expect(entry.method == 0)
            }
            #expect(archive.entries.first { $0.name == "results.json" }?.method == 8)
            #expect(try archive.bytes("photo.png") == ClientsAPI.png())
            #expect(try archive.bytes("report.pdf").starts(with: Array("%PDF-".utf8)))

            let results = try #require(try JSONSerialization.jsonObject(with: Data(try archive.bytes("results.json"))) as? [[String: Any]])
            #expect(results.count == 1)
            let revisions = results[0]["revisions"] as? [[String: Any]] ?? []
            #expect(
                revisions.count == 1 && (revisions[0]["values"] as? [String: Double])?["heartRate"] == 64,
                "the first reading stays in its history"
            )
            #expect(((results[0]["result"] as? [String: Any])?["values"] as? [String: Double])?["heartRate"] == 62)
            #expect(((results[0]["media"] as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }.allSatisfy { names.contains($0) })
            let deliveries = try #require(try JSONSerialization.jsonObject(with: Data(try archive.bytes("deliveries.json"))) as? [[String: Any]])
            #expect(deliveries.count == 1)
            let screenings = try #require(try JSONSerialization.jsonObject(with: Data(try archive.bytes("screenings.json"))) as? [[String: Any]])
            #expect((screenings.first?["screening"] as? [String: Any])?["status"] as? String == "completed")
            #expect(String(decoding: try archive.bytes("client.vcf"), as: UTF8.self).contains("FN:Ada Lovelace"))
            let readme = String(decoding: try archive.bytes("README.txt"), as: UTF8.self)
            #expect(readme.contains("In all: 1 screening, 1 result, 1 earlier revision, 2 media files, 1 report email."))
            let fhir = try FHIRValidator.validate(try archive.bytes("fhir.json"))
            #expect(fhir.passed, "\(fhir)")
            #expect(
                String(decoding: try archive.bytes("fhir.json"), as: UTF8.self).contains("\"url\":\"media/"),
                "the bundle names the files beside it"
            )

            // Who may: the admin and the assigned trainer; not a colleague; nobody of another company.
            #expect(try await client.send(.get, "/v1/clients/\(id)/export", token: admin).status == .ok)
            expectProblem(try await client.send(.get, "/v1/clients/\(id)/export", token: colleague), .forbidden)
            let stranger = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            expectProblem(try await client.send(.get, "/v1/clients/\(id)/export", token: stranger), .notFound)
            let trail = try await client.send(.get, "/v1/audit?clientId=\(id)&action=client.exported", token: admin)
            #expect((trail.object["items"] as? [Any])?.count == 2, "one line per export that was answered")
        }
    }
}
