import Foundation
import HealthwheelCore

/// A PDF document drawn page by page, written by us rather than through cairo's PDF surface: a report is a few
/// hundred lines of text and some plain vector shapes, and writing their operators straight into each page's
/// content stream costs a fraction of what cairo's record-and-replay of every page did (measured: ~11 of a report's
/// ~16.5 ms of CPU were cairo's; see `bench/README.md`). Text stays text: the theme's TrueType font is
/// embedded as a subset of the glyphs used, with a ToUnicode map so that the text can be selected and searched.
/// Not shared between threads.
final class PDFCanvas: DrawingSurface {
    let width: Double
    let height: Double
    private let title: String
    private let author: String
    private let created: Date
    /// Each page's content stream.
    private var pages: [PDFBytes] = []
    /// The page drawn on: the last one, unless `onPage` went back to an earlier one.
    private var current = 0
    /// The path `fillPath` and `strokePath` paint.
    private var path = PDFBytes()
    private var fonts: [FontKey: EmbeddedFont] = [:]
    private var fontOrder: [FontKey] = []
    private var opacities: Set<Int> = []
    private var images: [PDFImage] = []

    /// A document of `width` × `height` point pages, with `title` and `author` in its metadata.
    init(width: Double, height: Double, title: String, author: String, created: Date) {
        (self.width, self.height, self.title, self.author, self.created) = (width, height, title, author, created)
        newPage()
    }

    var pageCount: Int { pages.count }

    /// Ends the current page and starts the next.
    func newPage() {
        pages.append(PDFBytes())
        current = pages.count - 1
        // y down from the top, as cairo and the layout count.
        pages[current].put("1 0 0 -1 0 ")
        pages[current].put(height)
        pages[current].put("cm\n")
    }

    /// Draws more on page `index` (0-based), which was ended already: the layout numbers pages "of N" at the end.
    func onPage(_ index: Int, _ draw: () -> Void) {
        let back = current
        current = index
        draw()
        current = back
    }

    // MARK: - Drawing

    func drawing(at x: Double, _ y: Double, scale: Double, _ draw: () -> Void) {
        pages[current].put("q ")
        pages[current].put(scale, 0, 0, scale, x, y)
        pages[current].put("cm\n")
        draw()
        pages[current].put("Q\n")
    }

    func textWidth(_ text: String, font: String, size: Double, bold: Bool) -> Double {
        self.font(font, bold: bold)?.width(of: text, size: size) ?? 0
    }

    /// The font `text` draws `family` in, for measuring many words with one lookup; nil when it cannot be read
    /// (then `pdf()` throws).
    func font(_ family: String, bold: Bool) -> TrueTypeFont? {
        embedded(family, bold: bold)?.font
    }

    func rectangle(x: Double, y: Double, width: Double, height: Double) {
        path = PDFBytes()
        path.put(x, y, width, height)
        path.put("re\n")
    }

    func circle(centre: WheelFigure.Point, radius: Double) {
        path = PDFBytes()
        arc(centre: centre, radius: radius, from: 0, to: 2 * .pi, joined: false)
        path.put("h\n")
    }

    func polyline(_ points: [WheelFigure.Point]) {
        path = PDFBytes()
        for (index, point) in points.enumerated() {
            path.put(point.x, point.y)
            path.put(index == 0 ? "m\n" : "l\n")
        }
    }

    func wedge(centre: WheelFigure.Point, radius: Double, from start: Double, to end: Double) {
        path = PDFBytes()
        if end - start >= 2 * .pi - 1e-9 {
            arc(centre: centre, radius: radius, from: 0, to: 2 * .pi, joined: false)
        } else {
            path.put(centre.x, centre.y)
            path.put("m\n")
            // Angles start at three o'clock and turn clockwise (y is down), as cairo's do.
            arc(centre: centre, radius: radius, from: start - .pi / 2, to: end - .pi / 2, joined: true)
        }
        path.put("h\n")
    }

    func fillPath(_ colour: HexColour, alpha: Double, keepingPath: Bool) {
        guard !path.bytes.isEmpty else { return }
        pages[current].put("q ")
        setOpacity(alpha)
        setColour(colour)
        pages[current].put("rg\n")
        pages[current].bytes += path.bytes
        pages[current].put("f Q\n")
        if !keepingPath { path = PDFBytes() }
    }

    func strokePath(_ colour: HexColour, alpha: Double, width: Double, dash: [Double]) {
        guard !path.bytes.isEmpty else { return }
        pages[current].put("q ")
        setOpacity(alpha)
        setColour(colour)
        pages[current].put("RG ")
        pages[current].put(width)
        pages[current].put("w 1 j [")
        for length in dash { pages[current].put(length) }
        pages[current].put("] 0 d\n")
        pages[current].bytes += path.bytes
        pages[current].put("S Q\n")
        path = PDFBytes()
    }

    func text(_ text: String, at point: WheelFigure.Point, alignment: TextAlignment, font: String, size: Double, bold: Bool, colour: HexColour) {
        guard !text.isEmpty, let embedded = embedded(font, bold: bold) else { return }
        var x = point.x
        if alignment != .start {
            let advance = embedded.font.width(of: text, size: size)
            x -= alignment == .middle ? advance / 2 : advance
        }
        startText(embedded, size: size, colour: colour)
        pages[current].put(1, 0, 0, -1, x, point.y)
        pages[current].put("Tm <")
        for scalar in text.unicodeScalars { pages[current].hex(embedded.use(scalar)) }
        pages[current].put("> Tj ET\n")
    }

    func dots(centres: [WheelFigure.Point], diameter: Double, font: String, colour: HexColour) {
        guard !centres.isEmpty, let embedded = embedded(font, bold: false) else { return }
        let dot: Unicode.Scalar = "●"
        let glyph = embedded.font.glyph(for: dot)
        guard glyph != 0, let ink = embedded.font.bounds(of: glyph), ink.2 > ink.0 else { return }
        // Sized so the glyph's ink is `diameter` across, and placed so the ink is centred on each point.
        let size = diameter * embedded.font.unitsPerEm / (ink.2 - ink.0)
        let scale = size / embedded.font.unitsPerEm
        let (dx, dy) = (-(ink.0 + ink.2) / 2 * scale, (ink.1 + ink.3) / 2 * scale)
        let number = embedded.use(dot)
        startText(embedded, size: size, colour: colour)
        for centre in centres {
            pages[current].put(1, 0, 0, -1, centre.x + dx, centre.y + dy)
            pages[current].put("Tm <")
            pages[current].hex(number)
            pages[current].put("> Tj\n")
        }
        pages[current].put("ET\n")
    }

    func image(_ bitmap: Bitmap, x: Double, y: Double, width: Double) {
        guard bitmap.width > 0, bitmap.height > 0, bitmap.pixels.count == bitmap.stride * bitmap.height else { return }
        let height = width * Double(bitmap.height) / Double(bitmap.width)
        images.append(PDFImage(bitmap))
        // The image's unit square, its top row at y.
        pages[current].put("q ")
        pages[current].put(width, 0, 0, -height, x, y + height)
        pages[current].put("cm /Im")
        pages[current].put(Double(images.count))
        pages[current].put("Do Q\n")
    }

    // MARK: - The document

    /// The whole document. Throws when the theme's font could not be read.
    func pdf() throws -> [UInt8] {
        if let failure { throw failure }
        var file = PDFFile()
        let catalog = file.reserve()
        let pagesTree = file.reserve()
        let resources = file.reserve()
        var fontEntries: [String] = []
        for key in fontOrder {
            let embedded = fonts[key]!
            fontEntries.append("/\(embedded.name) \(embedded.write(into: &file)) 0 R")
        }
        var imageEntries: [String] = []
        for (index, image) in images.enumerated() {
            imageEntries.append("/Im\(index + 1) \(image.write(into: &file)) 0 R")
        }
        let states = opacities.sorted().map { "/a\($0) << /ca \(pdfNumber(Double($0) / 1000)) /CA \(pdfNumber(Double($0) / 1000)) >>" }
        file.set(
            resources,
            "<< /Font << \(fontEntries.joined(separator: " ")) >> /ExtGState << \(states.joined(separator: " ")) >> /XObject << \(imageEntries.joined(separator: " ")) >> >>"
        )
        var kids: [Int] = []
        for content in pages {
            let stream = file.stream(content.bytes, compress: true)
            let page = file.add(
                "<< /Type /Page /Parent \(pagesTree) 0 R /MediaBox [0 0 \(pdfNumber(width)) \(pdfNumber(height))] /Resources \(resources) 0 R /Contents \(stream) 0 R >>"
            )
            kids.append(page)
        }
        file.set(pagesTree, "<< /Type /Pages /Kids [\(kids.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(kids.count) >>")
        file.set(catalog, "<< /Type /Catalog /Pages \(pagesTree) 0 R >>")
        let info = file.add(
            "<< /Title \(Self.textString(title)) /Author \(Self.textString(author)) /Creator (Healthwheel) /Producer (Healthwheel) /CreationDate (\(Self.date(created))) >>"
        )
        return file.finish(root: catalog, info: info)
    }

    // MARK: - Pieces

    private struct FontKey: Hashable {
        let family: String
        let bold: Bool
    }

    private var failure: (any Error)?

    private func embedded(_ family: String, bold: Bool) -> EmbeddedFont? {
        let key = FontKey(family: family, bold: bold)
        if let known = fonts[key] { return known }
        // A font that could not be read is not read again for every line: the document fails as a whole.
        if failure != nil { return nil }
        do {
            let font = EmbeddedFont(try PDFFonts.font(family: family, bold: bold), name: "F\(fonts.count + 1)")
            fonts[key] = font
            fontOrder.append(key)
            return font
        } catch {
            failure = failure ?? error
            return nil
        }
    }

    /// Sets `alpha` (fill and stroke) through a graphics state of the document's, unless opaque.
    private func setOpacity(_ alpha: Double) {
        let key = Int((min(max(alpha, 0), 1) * 1000).rounded())
        guard key < 1000 else { return }
        opacities.insert(key)
        pages[current].put("/a")
        pages[current].put(Double(key))
        pages[current].put("gs ")
    }

    private func setColour(_ colour: HexColour) {
        let (red, green, blue) = colour.unitComponents
        pages[current].put(red: red, green: green, blue: blue)
    }

    private func startText(_ embedded: EmbeddedFont, size: Double, colour: HexColour) {
        pages[current].put("BT /")
        pages[current].bytes += embedded.nameBytes
        pages[current].put(" ")
        pages[current].put(size)
        pages[current].put("Tf ")
        setColour(colour)
        pages[current].put("rg ")
    }

    /// An arc as Bézier curves of at most a quarter turn each (cairo's angles: from three o'clock, clockwise).
    private func arc(centre: WheelFigure.Point, radius: Double, from start: Double, to end: Double, joined: Bool) {
        let pieces = max(1, Int(((end - start) / (.pi / 2)).rounded(.up)))
        let step = (end - start) / Double(pieces)
        let handle = 4.0 / 3 * tan(step / 4) * radius
        func point(_ angle: Double) -> (Double, Double) { (centre.x + radius * cos(angle), centre.y + radius * sin(angle)) }
        let first = point(start)
        path.put(first.0, first.1)
        path.put(joined ? "l\n" : "m\n")
        for piece in 0..<pieces {
            let (a, b) = (start + step * Double(piece), start + step * Double(piece + 1))
            let (from, to) = (point(a), point(b))
            path.put(from.0 - handle * sin(a), from.1 + handle * cos(a), to.0 + handle * sin(b), to.1 - handle * cos(b), to.0, to.1)
            path.put("c\n")
        }
    }

    /// A PDF text string: UTF-16 with its byte-order mark, in hex (no escaping to get wrong).
    static func textString(_ text: String) -> String {
        var bytes = PDFBytes()
        for unit in text.utf16 { bytes.hex(unit) }
        return "<FEFF" + String(decoding: bytes.bytes, as: UTF8.self) + ">"
    }

    private static func date(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        return String(
            format: "D:%04d%02d%02d%02d%02d%02dZ",
            parts.year ?? 1970,
            parts.month ?? 1,
            parts.day ?? 1,
            parts.hour ?? 0,
            parts.minute ?? 0,
            parts.second ?? 0
        )
    }
}

/// A font as one document uses it: the glyphs shown so far, numbered in the order they were first used (the
/// subset's own numbering, which the content streams write), each with the character it stands for.
private final class EmbeddedFont {
    let font: TrueTypeFont
    let name: String
    /// `name`'s bytes, as every text operator writes them.
    let nameBytes: [UInt8]
    private var glyphs: [UInt16] = [0]
    private var characters: [Unicode.Scalar?] = [nil]
    /// The subset's glyph for each of the font's glyphs, 0 until used (glyph 0 is the subset's 0): an array, not a
    /// dictionary, since every character drawn looks its glyph up here.
    private var numbers: [UInt16]

    init(_ font: TrueTypeFont, name: String) {
        self.font = font
        self.name = name
        nameBytes = Array(name.utf8)
        numbers = [UInt16](repeating: 0, count: max(1, font.glyphCount))
    }

    /// The subset's glyph for `scalar`.
    func use(_ scalar: Unicode.Scalar) -> UInt16 {
        let glyph = font.glyph(for: scalar)
        // A cmap naming a glyph past `glyphCount` (a broken font) draws the missing box, glyph 0.
        let index = Int(glyph) < numbers.count ? Int(glyph) : 0
        if index == 0 { return 0 }
        let known = numbers[index]
        if known != 0 { return known }
        let number = UInt16(glyphs.count)
        numbers[index] = number
        glyphs.append(glyph)
        characters.append(scalar)
        return number
    }

    /// Writes the Type 0 font, its CID font, descriptor, subset and ToUnicode map; returns the Type 0 font's object.
    func write(into file: inout PDFFile) -> Int {
        let (subset, order) = font.subset(glyphs)
        // A subset is named with a tag of six capitals drawn from the glyphs it holds.
        var hash: UInt64 = 14_695_981_039_346_656_037
        for glyph in order { hash = (hash ^ UInt64(glyph)) &* 1_099_511_628_211 }
        let tag = String((0..<6).map { Character(Unicode.Scalar(UInt8(65 + (hash >> (UInt64($0) * 5)) % 26))) })
        let baseName = "\(tag)+\(font.postScriptName)"
        let scale = 1000 / font.unitsPerEm
        func units(_ value: Int) -> String { pdfNumber(Double(value) * scale) }
        let fontFile = file.stream(subset, compress: true, extra: "/Length1 \(subset.count)")
        let descriptor = file.add(
            "<< /Type /FontDescriptor /FontName /\(baseName) /Flags 32 /FontBBox [\(font.box.map(units).joined(separator: " "))] /ItalicAngle 0 /Ascent \(units(font.ascent)) /Descent \(units(font.descent)) /CapHeight \(units(font.capHeight)) /StemV 80 /FontFile2 \(fontFile) 0 R >>"
        )
        let widths = order.map { pdfNumber(font.advance(of: $0) * scale) }.joined(separator: " ")
        let cidFont = file.add(
            "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /\(baseName) /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor \(descriptor) 0 R /W [0 [\(widths)]] /CIDToGIDMap /Identity >>"
        )
        let toUnicode = file.stream(Array(unicodeMap().utf8), compress: true)
        return file.add(
            "<< /Type /Font /Subtype /Type0 /BaseFont /\(baseName) /Encoding /Identity-H /DescendantFonts [\(cidFont) 0 R] /ToUnicode \(toUnicode) 0 R >>"
        )
    }

    /// The CMap that maps each glyph back to its character, so that text can be copied and searched.
    private func unicodeMap() -> String {
        var entries: [String] = []
        for (number, scalar) in characters.enumerated() {
            guard let scalar else { continue }
            var entry = PDFBytes()
            entry.put("<")
            entry.hex(UInt16(number))
            entry.put("> <")
            for unit in String(scalar).utf16 { entry.hex(unit) }
            entry.put(">")
            entries.append(String(decoding: entry.bytes, as: UTF8.self))
        }
        var map = """
            /CIDInit /ProcSet findresource begin
            12 dict begin
            begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def
            /CMapType 2 def
            1 begincodespacerange
            <0000> <FFFF>
            endcodespacerange

            """
        for start in stride(from: 0, to: entries.count, by: 100) {
            let chunk = entries[start..<min(start + 100, entries.count)]
            map += "\(chunk.count) beginbfchar\n" + chunk.joined(separator: "\n") + "\nendbfchar\n"
        }
        map += "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
        return map
    }
}
