import Foundation
import HealthwheelCore
import TestSupport
import Testing

@testable import Reports

/// The report's own PDF writer: its font subsets, and what poppler draws from its pages against what cairo draws.
@Suite struct PDFCanvasTests {
    static func sans() throws -> TrueTypeFont { try PDFFonts.font(family: "DejaVu Sans", bold: false) }

    @Test func aSubsetHoldsTheGlyphsAskedForThenThePartsOfCompositeOnes() throws {
        let font = try Self.sans()
        let (eAcute, a, e) = (font.glyph(for: "é"), font.glyph(for: "A"), font.glyph(for: "e"))
        try #require(font.components(of: eAcute).count == 2, "DejaVu Sans draws é as e and an accent")
        let (file, order) = font.subset([0, eAcute, a])
        #expect(order.prefix(3) == [0, eAcute, a] && order.count == 5 && order.contains(e))
        let subset = try TrueTypeFont(file)
        #expect(subset.glyphCount == 5 && subset.unitsPerEm == font.unitsPerEm)
        for (new, old) in order.enumerated() {
            #expect(subset.advance(of: UInt16(new)) == font.advance(of: old))
            #expect(subset.bounds(of: UInt16(new)).map { [$0.0, $0.1, $0.2, $0.3] } == font.bounds(of: old).map { [$0.0, $0.1, $0.2, $0.3] })
        }
        // The composite's parts are renumbered to where the subset holds them.
        let parts = subset.components(of: 1)
        #expect(parts.map { Int($0) < order.count ? order[Int($0)] : .max } == font.components(of: eAcute))
    }

    @Test func textIsMeasuredByTheFontsAdvances() throws {
        let font = try Self.sans()
        let canvas = PDFCanvas(width: 100, height: 100, title: "", author: "", created: Date(timeIntervalSince1970: 0))
        let width = canvas.textWidth("Año", font: "DejaVu Sans", size: 10, bold: false)
        let units = ["A", "ñ", "o"].map { font.advance(of: font.glyph(for: Unicode.Scalar($0)!)) }.reduce(0, +)
        #expect(abs(width - units * 10 / font.unitsPerEm) < 1e-9 && width > 15 && width < 25)
        #expect(canvas.textWidth("Año", font: "DejaVu Sans", size: 10, bold: true) > width, "bold is wider")
    }

    @Test func whatPopplerDrawsFromThePageIsWhatCairoDraws() throws {
        let pdf = try Self.page { Self.draw(on: $0) }
        let cairo = try Canvas(width: Self.size.width, height: Self.size.height)
        Self.draw(on: cairo)
        let drawn = try Self.popplerGrey(pdf)
        let expected = Self.grey(cairo.bitmap())
        try #require(drawn.count == expected.count)
        // The same picture with its text a word shorter: what a missing glyph or a misplaced shape looks like.
        let other = try Self.popplerGrey(try Self.page { Self.draw(on: $0, text: "Ñandú") })
        let (difference, otherDifference) = (Self.inkDifference(drawn, expected), Self.inkDifference(other, expected))
        // The two rasterisers hint and smooth glyph edges differently; where the ink lies is the same.
        #expect(difference < 0.1, "ink moved: \(difference)")
        #expect(otherDifference > 0.15, "ink moved: \(otherDifference)")
    }

    /// How much ink lies elsewhere, as a share of `b`'s: the sum of each 8 × 8 block's difference in ink.
    static func inkDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        func blocks(_ grey: [UInt8]) -> [Int] {
            var ink = [Int](repeating: 0, count: (size.width / 8) * (size.height / 8))
            for (index, level) in grey.enumerated() {
                ink[(index / size.width / 8) * (size.width / 8) + (index % size.width) / 8] += 255 - Int(level)
            }
            return ink
        }
        let (inkA, inkB) = (blocks(a), blocks(b))
        return Double(zip(inkA, inkB).map { abs($0 - $1) }.reduce(0, +)) / Double(max(inkB.reduce(0, +), 1))
    }

    @Test func aPictureKeepsItsColoursAndItsTransparency() throws {
        // The picture four times its size on white, then the middle of each half, as poppler and cairo draw them.
        func drawn(on canvas: some DrawingSurface) {
            canvas.rectangle(x: 0, y: 0, width: Double(Self.size.width), height: Double(Self.size.height))
            canvas.fillPath(HexColour("#ffffff")!)
            canvas.image(Self.picture, x: 8, y: 8, width: 112)
        }
        let poppler = try Self.popplerPixels(try Self.page { drawn(on: $0) }, grey: false)
        let cairo = try Canvas(width: Self.size.width, height: Self.size.height)
        drawn(on: cairo)
        let bitmap = cairo.bitmap()
        for (x, y) in [(36, 36), (92, 36)] {
            let at = y * bitmap.stride + x * 4
            let expected = [bitmap.pixels[at + 2], bitmap.pixels[at + 1], bitmap.pixels[at]].map(Int.init)
            let seen = poppler[(y * Self.size.width + x) * 3..<(y * Self.size.width + x) * 3 + 3].map(Int.init)
            #expect(zip(seen, expected).allSatisfy { abs($0 - $1) <= 6 }, "at \(x),\(y): \(seen) against \(expected)")
        }
    }

    @Test func theDocumentCarriesItsMetadataAndItsTextCanBeCopied() throws {
        let canvas = PDFCanvas(
            width: 200,
            height: 100,
            title: "Informe: Zoë (café)",
            author: "Gym \\ ) ( ñ",
            created: Date(timeIntervalSince1970: 1_800_000_000)
        )
        canvas.text(
            "Sí, ñandú",
            at: .init(x: 10, y: 50),
            alignment: .start,
            font: "DejaVu Serif",
            size: 12,
            bold: true,
            colour: HexColour("#112233")!
        )
        canvas.newPage()
        canvas.text(
            "Page two",
            at: .init(x: 10, y: 50),
            alignment: .start,
            font: "DejaVu Sans Mono",
            size: 12,
            bold: false,
            colour: HexColour("#112233")!
        )
        let pdf = try canvas.pdf()
        let info = try ReportPDFTests.poppler("pdfinfo", [], pdf: pdf)
        #expect(info.contains("Title:           Informe: Zoë (café)") && info.contains("Author:          Gym \\ ) ( ñ"))
        #expect(info.contains("Pages:           2"))
        // The date it is given (a report's generatedAt, from the server's clock), in PDF's own form.
        #expect(String(decoding: pdf, as: UTF8.self).contains("/CreationDate (D:20270115080000Z)"))
        let text = try ReportPDFTests.poppler("pdftotext", [], pdf: pdf)
        #expect(text.contains("Sí, ñandú") && text.contains("Page two"))
        let fonts = try ReportPDFTests.poppler("pdffonts", [], pdf: pdf)
        #expect(fonts.contains("DejaVuSerif-Bold") && fonts.contains("DejaVuSansMono"))
    }

    @Test func numbersAreWrittenWithAtMostTwoDecimals() {
        #expect(
            [0, 1, -1, 0.5, 12.345, -0.004, 595.28, 1e-9, 100.1, .nan].map(pdfNumber) == [
                "0", "1", "-1", "0.5", "12.35", "0", "595.28", "0", "100.1", "0",
            ]
        )
        // Colours to three decimals: #1a1a1a stays closer to itself than to #191919 or #1b1b1b.
        var colour = PDFBytes()
        colour.put(red: 26 / 255, green: 1, blue: 0.05)
        #expect(String(decoding: colour.bytes, as: UTF8.self) == "0.102 1 0.05 ")
    }

    // MARK: - Drawing the same picture twice

    static let size = (width: 240, height: 80)

    /// A picture of 28 × 14 pixels: its left half opaque dark red, its right half blue at half opacity (cairo's
    /// premultiplied ARGB, little-endian: blue, green, red, alpha).
    static let picture: Bitmap = {
        var pixels: [UInt8] = []
        for _ in 0..<14 {
            for column in 0..<28 { pixels += column < 14 ? [0, 0, 0xAA, 0xFF] : [0x80, 0x20, 0, 0x80] }
        }
        return Bitmap(width: 28, height: 14, stride: 28 * 4, pixels: pixels)
    }()

    /// Text with composite glyphs, a dot, filled and stroked shapes with transparency, a wedge, a dashed line, and
    /// a picture with transparent pixels.
    static func draw(on canvas: some DrawingSurface, text: String = "Ñandú é 10") {
        let white = HexColour("#ffffff")!
        let ink = HexColour("#1a1a1a")!
        canvas.rectangle(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
        canvas.fillPath(white)
        canvas.text(text, at: .init(x: 8, y: 34), alignment: .start, font: "DejaVu Sans", size: 24, bold: false, colour: ink)
        canvas.text("▲ 1,5", at: .init(x: 232, y: 70), alignment: .end, font: "DejaVu Sans", size: 14, bold: true, colour: ink)
        canvas.dots(centres: [.init(x: 20, y: 60), .init(x: 40, y: 62)], diameter: 10, font: "DejaVu Sans", colour: ink)
        canvas.wedge(centre: .init(x: 200, y: 30), radius: 24, from: 0, to: 2)
        canvas.fillPath(HexColour("#3366cc")!, alpha: 0.6, keepingPath: true)
        canvas.strokePath(ink, width: 2)
        canvas.drawing(at: 60, 50, scale: 0.5) {
            canvas.line(from: .init(x: 0, y: 20), to: .init(x: 160, y: 20))
            canvas.strokePath(ink, width: 4, dash: [12, 8])
        }
        canvas.image(picture, x: 150, y: 62, width: 28)
    }

    /// A one-page PDF of the test's size, drawn by `draw`.
    static func page(_ draw: (PDFCanvas) -> Void) throws -> [UInt8] {
        let canvas = PDFCanvas(
            width: Double(size.width),
            height: Double(size.height),
            title: "t",
            author: "a",
            created: Date(timeIntervalSince1970: 0)
        )
        draw(canvas)
        return try canvas.pdf()
    }

    /// The page as poppler draws it at 72 dpi (a pixel a point), in grey levels.
    static func popplerGrey(_ pdf: [UInt8]) throws -> [UInt8] { try popplerPixels(pdf, grey: true) }

    /// The page as poppler draws it at 72 dpi, a byte a pixel in grey or three (red, green, blue) in colour.
    static func popplerPixels(_ pdf: [UInt8], grey: Bool) throws -> [UInt8] {
        let folder = TemporaryDirectory()
        let file = folder.url.appendingPathComponent("page.pdf")
        try Data(pdf).write(to: file)
        let result = try RunningProcess.run(
            URL(fileURLWithPath: "/usr/bin/pdftoppm"),
            ["-r", "72"] + (grey ? ["-gray"] : []) + ["-singlefile", file.path, folder.url.appendingPathComponent("page").path]
        )
        try #require(result.status == 0, "pdftoppm: \(result.errors)")
        // A binary PGM or PPM: "P5" or "P6", width, height, the largest value, one whitespace, then the pixels.
        let pgm = [UInt8](try Data(contentsOf: folder.url.appendingPathComponent(grey ? "page.pgm" : "page.ppm")))
        var fields = 0
        var index = 0
        while fields < 4, index < pgm.count {
            while index < pgm.count, pgm[index] == 0x20 || pgm[index] == 0x0A { index += 1 }
            while index < pgm.count, pgm[index] != 0x20, pgm[index] != 0x0A { index += 1 }
            fields += 1
        }
        return Array(pgm[(index + 1)...])
    }

    /// cairo's premultiplied ARGB (opaque here) in grey levels, as poppler weighs red, green and blue.
    static func grey(_ bitmap: Bitmap) -> [UInt8] {
        var grey: [UInt8] = []
        for row in 0..<bitmap.height {
            for column in 0..<bitmap.width {
                let at = row * bitmap.stride + column * 4
                let (blue, green, red) = (Double(bitmap.pixels[at]), Double(bitmap.pixels[at + 1]), Double(bitmap.pixels[at + 2]))
                grey.append(UInt8((0.3 * red + 0.59 * green + 0.11 * blue).rounded()))
            }
        }
        return grey
    }
}
