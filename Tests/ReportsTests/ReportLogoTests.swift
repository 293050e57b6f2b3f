import Foundation
import HealthwheelCore
import TestSupport
import Testing

@testable import Reports

/// A logo is measured, decoded once, and kept small: reports draw the normalised copy.
@Suite struct ReportLogoTests {
    @Test func aLargeLogoIsScaledToFitTheNormalisedSizeKeepingItsAspect() throws {
        let logo = try ReportLogo(normalising: TestPictures.png(width: 2048, height: 1024), limit: .logo)
        #expect((logo.width, logo.height) == (512, 256))
        #expect(try PictureHeader.read(logo.png) == PictureHeader(format: .png, width: 512, height: 256))
        // A PDF paints fewer pixels: 4 a point in its 44-point box.
        #expect((logo.bitmap.width, logo.bitmap.height) == (176, 88) && logo.bitmap.pixels.count == logo.bitmap.stride * 88)
        // The first pixel keeps the first stripe's colour (teal, opaque).
        let first = Array(logo.bitmap.pixels.prefix(4))
        #expect(first[3] == 0xFF && first[1] == 0x6E, "ARGB in little-endian order: B, G, R, A")
    }

    @Test func aSmallLogoIsNotEnlarged() throws {
        let logo = try ReportLogo(normalising: TestPictures.png(width: 100, height: 40), limit: .logo)
        #expect((logo.width, logo.height) == (100, 40))
        let again = try ReportLogo(normalised: logo.png)
        #expect(again == logo && again.bitmap == logo.bitmap, "the stored copy decodes to the same pixels")
    }

    @Test func aPictureOverTheLimitIsRefusedByItsHeaderBeforeDecoding() {
        // Decoding this would take 1.6 GB: the refusal names the header's size, which only the header check knows.
        let bomb = TestPictures.blackPNG(width: 20000, height: 20000)
        #expect(bomb.count < 400_000)
        #expect(throws: PictureProblem("is 20000×20000 pixels; at most 2048×2048 are accepted")) {
            try ReportLogo(normalising: bomb, limit: .logo)
        }
        // A stored copy larger than the normalised size is not one this server wrote: refused the same way.
        #expect(throws: PictureProblem("is 600×10 pixels; at most 512×512 are accepted")) {
            try ReportLogo(normalised: TestPictures.png(width: 600, height: 10))
        }
    }

    @Test func aPNGWhoseDataDoesNotMatchItsHeaderIsRefused() {
        // IHDR says 64 × 64, the image data holds rows for 8 pixels.
        let short = TestPictures.png(width: 64, height: 64, colourType: 6, bitDepth: 8, row: [UInt8](repeating: 0x80, count: 32))
        #expect(throws: PictureProblem("is a PNG that does not decode")) { try ReportLogo(normalising: short, limit: .logo) }
        let jpeg = TestPictures.jpeg(size: 400)
        #expect(throws: PictureProblem("is not a PNG image")) { try ReportLogo(normalising: jpeg, limit: .logo) }
    }

    @Test func aReportPDFDrawsTheNormalisedLogo() throws {
        var input = SampleReport.input()
        input.logo = try ReportLogo(normalising: TestPictures.png(width: 2048, height: 1536), limit: .logo)
        let pdf = String(
            decoding: try ReportPDF.render(ClientReport(input, strings: try ReportStrings(language: "en"), units: .metric)),
            as: UTF8.self
        )
        #expect(pdf.contains("/Subtype /Image") && pdf.contains("/Width 176") && pdf.contains("/Height 132"))

        let report = ClientReport(input, strings: try ReportStrings(language: "en"), units: .metric)
        #expect(try report.pictures()[.logo] == input.logo?.png, "HTML and email embed the normalised copy")
        let html = try ReportHTML.render(report) { $0 == .logo ? "logo.png" : nil }
        #expect(html.contains(#"<img src="logo.png" width="56" height="42""#), "fitted in its box, aspect kept")
    }
}
