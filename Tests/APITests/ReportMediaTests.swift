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

    /// A poppler tool's output for `pdf` (`pdfimages -list`: one line per image painted; `pdftotext`: its text).
    /// Poppler is installed by `scripts/install-deps`.
    static func poppler(_ tool: String, _ arguments: [String], _ pdf: [UInt8]) throws -> String {
        let folder = TemporaryDirectory()
        let file = folder.url.appendingPathComponent("report.pdf")
        try Data(pdf).write(to: file)
        let result = try RunningProcess.run(URL(fileURLWithPath: "/usr/bin/\(tool)"), arguments + [file.path] + (tool == "pdftotext" ? ["-"] : []))
        try #require(result.status == 0, "\(tool): \(result.errors)")
        return result.output
    }

    static let caption = "Left knee caves in <at the bottom>"
    static let escapedCaption = "Left knee caves in &lt;at the bottom&gt;"

    @Test func theNewestResultsThumbnailsAreInEveryReportAndTheEmailStaysSmall() async throws {
        try await withAPI { fixture, client in
            let setup = try await MediaTests.setup(fixture, client)
            _ = try await client.send(.patch, "/v1/clients/\(setup.client)", token: setup.token, json: #"{"email": "sam@example.com"}"#)
            for seed in 0..<6 {
                let response = try await MediaTests.upload(
                    client,
                    setup,
                    Self.heavyPhoto(padding: 8 << 20, seed: UInt8(seed * 40)),
                    type: "image/png",
                    query: seed == 0 ? "?caption=" + Self.caption.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! : ""
                )
                #expect(response.status == .created, "\(response.text)")
                #expect(response.object["caption"] as? String == (seed == 0 ? Self.caption : nil), "\(response.text)")
            }
            let video = TestMedia.movie(turned: false)
            let posted = try await MediaTests.upload(client, setup, video, type: "video/quicktime")
            #expect(posted.status == .created, "\(posted.text)")

            let html = try await client.send(.get, "/v1/clients/\(setup.client)/report", token: setup.token).text
            // Four photos shown, the other two counted; the video's poster.
            #expect(html.components(separatedBy: "width=\"").count > 5)
            #expect(html.contains("1 video · and 2 more"))
            let shown = html.components(separatedBy: "alt=\"photo\"").count + html.components(separatedBy: "alt=\"video\"").count - 2
            #expect(shown == 4, "three photos without a caption and the video")
            // The caption under its photo, escaped; a caption is the alternative text too.
            #expect(html.components(separatedBy: Self.escapedCaption).count - 1 == 2, "as the caption and as the alt text")

            let pdf = try await client.send(.get, "/v1/clients/\(setup.client)/report", token: setup.token, headers: [.accept: "application/pdf"])
            let images = try Self.poppler("pdfimages", ["-list"], pdf.bodyBytes).split(separator: "\n").dropFirst(2)
            #expect(images.count == 5, "four photo thumbnails and a poster: \(images)")
            let pdfText = try Self.poppler("pdftotext", [], pdf.bodyBytes)
            #expect(pdfText.contains("Left knee caves in"), "the caption under its photo: \(pdfText)")

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
