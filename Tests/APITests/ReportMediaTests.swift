import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import TestSupport
import Testing

@testable import API

/// Photos and videos in reports: the newest result's photo thumbnails and video posters, in the PDF, the HTML and
/// the email; originals never, so an emailed report stays under 10 MiB however large the photos.
@Suite struct ReportMediaTests {
    /// A real PNG of 400 × 300 made `padding` bytes larger by a private ancillary chunk, which decoders skip: a
    /// photo as heavy as a phone's.
    static func heavyPhoto(padding: Int, seed: UInt8) -> [UInt8] {
        let png = TestPictures.png(width: 400, height: 300, colours: [[seed, 0x6E, 0x69, 0xFF], [0xF4, 0x9D, seed, 0xFF]], stripe: 25)
        let end = png.count - 12  // IEND: length, type and CRC
        return Array(png[..<end]) + TestPictures.chunk("hwPd", [UInt8](repeating: seed, count: padding)) + Array(png[end...])
    }

    /// `pdfimages -list` (poppler, installed by `scripts/install-deps`): one line per image painted.
    static func imageList(_ pdf: [UInt8]) throws -> String {
        let folder = TemporaryDirectory()
        let file = folder.url.appendingPathComponent("report.pdf")
        try Data(pdf).write(to: file)
        let result = try RunningProcess.run(URL(fileURLWithPath: "/usr/bin/pdfimages"), ["-list", file.path])
        try #require(result.status == 0, "pdfimages: \(result.errors)")
        return result.output
    }

    @Test func theNewestResultsThumbnailsAreInEveryReportAndTheEmailStaysSmall() async throws {
        try await withAPI { fixture, client in
            let setup = try await MediaTests.setup(fixture, client)
            _ = try await client.send(.patch, "/v1/clients/\(setup.client)", token: setup.token, json: #"{"email": "sam@example.com"}"#)
            for seed in 0..<6 {
                let response = try await MediaTests.upload(
                    client,
                    setup,
                    Self.heavyPhoto(padding: 8 << 20, seed: UInt8(seed * 40)),
                    type: "image/png"
                )
                #expect(response.status == .created, "\(response.text)")
            }
            let video = TestMedia.movie(turned: false)
            let posted = try await MediaTests.upload(client, setup, video, type: "video/quicktime")
            #expect(posted.status == .created, "\(posted.text)")

            let html = try await client.send(.get, "/v1/clients/\(setup.client)/report", token: setup.token).text
            // Four photos shown, the other two counted; the video's poster.
            #expect(html.components(separatedBy: "width=\"").count > 5)
            #expect(html.contains("1 video · and 2 more"))
            let shown = html.components(separatedBy: "border-radius:4px;margin:0 8px 8px 0").count - 1
            #expect(shown == 5)

            let pdf = try await client.send(.get, "/v1/clients/\(setup.client)/report", token: setup.token, headers: [.accept: "application/pdf"])
            let images = try Self.imageList(pdf.bodyBytes).split(separator: "\n").dropFirst(2)
            #expect(images.count == 5, "four photo thumbnails and a poster: \(images)")

            let sent = try await client.send(.post, "/v1/clients/\(setup.client)/report/email", token: setup.token, json: "{}")
            let id = try #require(sent.object["id"] as? String)
            let file = fixture.folder.url.appendingPathComponent("outbox/\(id.lowercased()).eml")
            for _ in 0..<600 where !FileManager.default.fileExists(atPath: file.path) { try await Task.sleep(for: .milliseconds(50)) }
            let eml = try Data(contentsOf: file)
            #expect(eml.count < 10 << 20, "the email carries thumbnails, not 50 MiB of originals: \(eml.count) bytes")
            let text = String(decoding: eml, as: UTF8.self)
            #expect(text.components(separatedBy: "Content-ID: <media-").count - 1 == 5)
        }
    }
}
