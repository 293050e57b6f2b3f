import Foundation

/// A TrueType font file, read once: the advances a layout measures text with, the glyph for each character, and
/// subsets holding only the glyphs a document shows (what a PDF embeds). Immutable after reading, so every report
/// on every thread shares one.
final class TrueTypeFont: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The PostScript name (`DejaVuSans-Bold`): a PDF names the font by it.
    let postScriptName: String
    let unitsPerEm: Double
    /// The font's box, ascent, descent and cap height in font units, for the PDF's font descriptor.
    let box: [Int]
    let ascent: Int
    let descent: Int
    let capHeight: Int
    let glyphCount: Int

    private let data: [UInt8]
    private let tables: [String: Range<Int>]
    private let glyphStarts: [Int]
    private let advances: [UInt16]
    private let sideBearings: [Int16]
    /// The glyph of each character of the Basic Multilingual Plane (0: none), and of the planes above it.
    private let basicGlyphs: [UInt16]
    private let otherGlyphs: [UInt32: UInt16]

    /// Reads the font in `data`; throws when it is not a TrueType font with outlines (`glyf`).
    init(_ data: [UInt8]) throws(Failure) {
        self.data = data
        let reader = Reader(data)
        let tableCount = Int(reader.u16(4))
        var tables: [String: Range<Int>] = [:]
        for index in 0..<tableCount {
            let record = 12 + 16 * index
            let tag = String(decoding: data[min(record, data.count)..<min(record + 4, data.count)], as: UTF8.self)
            let (offset, length) = (Int(reader.u32(record + 8)), Int(reader.u32(record + 12)))
            guard offset + length <= data.count else { throw Failure(description: "table \(tag) lies outside the file") }
            tables[tag] = offset..<offset + length
        }
        for tag in ["head", "hhea", "maxp", "hmtx", "loca", "glyf", "cmap"] where tables[tag] == nil {
            throw Failure(description: "no \(tag) table (not a TrueType font with outlines)")
        }
        self.tables = tables
        let head = tables["head"]!.lowerBound
        unitsPerEm = Double(max(reader.u16(head + 18), 16))
        box = (0..<4).map { Int(reader.i16(head + 36 + 2 * $0)) }
        let longOffsets = reader.i16(head + 50) == 1
        glyphCount = Int(reader.u16(tables["maxp"]!.lowerBound + 4))
        let hhea = tables["hhea"]!.lowerBound
        ascent = Int(reader.i16(hhea + 4))
        descent = Int(reader.i16(hhea + 6))
        let metricCount = max(1, min(Int(reader.u16(hhea + 34)), glyphCount))
        let hmtx = tables["hmtx"]!.lowerBound
        guard hmtx + 4 * metricCount + 2 * (glyphCount - metricCount) <= tables["hmtx"]!.upperBound else {
            throw Failure(description: "hmtx is shorter than its glyphs")
        }
        advances = (0..<glyphCount).map { reader.u16(hmtx + 4 * min($0, metricCount - 1)) }
        sideBearings = (0..<glyphCount).map {
            $0 < metricCount ? reader.i16(hmtx + 4 * $0 + 2) : reader.i16(hmtx + 4 * metricCount + 2 * ($0 - metricCount))
        }
        let loca = tables["loca"]!.lowerBound
        guard loca + (glyphCount + 1) * (longOffsets ? 4 : 2) <= tables["loca"]!.upperBound else {
            throw Failure(description: "loca is shorter than its glyphs")
        }
        let glyf = tables["glyf"]!
        glyphStarts = (0...glyphCount).map { index in
            let offset = longOffsets ? Int(reader.u32(loca + 4 * index)) : 2 * Int(reader.u16(loca + 2 * index))
            return min(glyf.lowerBound + offset, glyf.upperBound)
        }
        capHeight = tables["OS/2"].flatMap { os2 in os2.count >= 90 ? Int(reader.i16(os2.lowerBound + 88)) : nil } ?? ascent
        postScriptName = Self.postScriptName(reader, tables["name"]) ?? "Font"
        (basicGlyphs, otherGlyphs) = try Self.characterMap(reader, tables["cmap"]!)
    }

    /// The glyph drawn for `scalar`; 0 (the font's "missing" box) when it has none.
    func glyph(for scalar: Unicode.Scalar) -> UInt16 {
        scalar.value < 0x10000 ? basicGlyphs[Int(scalar.value)] : otherGlyphs[scalar.value] ?? 0
    }

    /// How far `glyph` advances, in font units.
    func advance(of glyph: UInt16) -> Double { Double(advances[Int(glyph) < glyphCount ? Int(glyph) : 0]) }

    /// How far `text` advances at `size` points (no kerning: each character's glyph in turn, as the PDF draws it).
    func width(of text: some StringProtocol, size: Double) -> Double {
        var units = 0.0
        for scalar in text.unicodeScalars { units += advance(of: glyph(for: scalar)) }
        return units * size / unitsPerEm
    }

    /// The ink box of `glyph` (xMin, yMin, xMax, yMax) in font units, y up; nil for a glyph without outline.
    func bounds(of glyph: UInt16) -> (Double, Double, Double, Double)? {
        let index = Int(glyph)
        guard index < glyphCount, glyphStarts[index + 1] - glyphStarts[index] >= 10 else { return nil }
        let reader = Reader(data)
        let start = glyphStarts[index]
        return (Double(reader.i16(start + 2)), Double(reader.i16(start + 4)), Double(reader.i16(start + 6)), Double(reader.i16(start + 8)))
    }

    /// A font file holding only `glyphs` (in that order: the subset's glyph `n` is `glyphs[n]`, which must start
    /// with 0), followed by the parts of composite glyphs among them. Returns the file and, for each glyph the
    /// subset holds, its glyph in this font.
    func subset(_ glyphs: [UInt16]) -> (file: [UInt8], glyphs: [UInt16]) {
        var order = glyphs
        var newIndex: [UInt16: UInt16] = [:]
        for (index, glyph) in order.enumerated() { newIndex[glyph] = UInt16(index) }
        // Composite glyphs name their parts by glyph number: the parts join the subset, numbered after the others.
        var next = 0
        while next < order.count {
            for part in components(of: order[next]) where newIndex[part] == nil {
                newIndex[part] = UInt16(order.count)
                order.append(part)
            }
            next += 1
        }
        var glyf: [UInt8] = []
        var loca = Writer()
        var hmtx = Writer()
        for glyph in order {
            loca.u32(UInt32(glyf.count))
            let index = Int(glyph) < glyphCount ? Int(glyph) : 0
            var outline = Array(data[glyphStarts[index]..<max(glyphStarts[index], glyphStarts[index + 1])])
            if outline.count >= 10, Int16(bitPattern: UInt16(outline[0]) << 8 | UInt16(outline[1])) < 0 {
                renumberComponents(&outline, newIndex)
            }
            glyf += outline
            while glyf.count % 4 != 0 { glyf.append(0) }
            hmtx.u16(advances[index])
            hmtx.u16(UInt16(bitPattern: sideBearings[index]))
        }
        loca.u32(UInt32(glyf.count))
        var head = Array(data[tables["head"]!])
        head.replaceSubrange(8..<12, with: [0, 0, 0, 0])  // checkSumAdjustment, set once the file is whole
        head.replaceSubrange(50..<52, with: [0, 1])  // long loca offsets
        var hhea = Array(data[tables["hhea"]!])
        hhea.replaceSubrange(34..<36, with: [UInt8(order.count >> 8), UInt8(order.count & 0xFF)])
        var maxp = Array(data[tables["maxp"]!])
        maxp.replaceSubrange(4..<6, with: [UInt8(order.count >> 8), UInt8(order.count & 0xFF)])
        // A PDF maps characters to glyphs itself (Identity): the subset's cmap maps none, and post names none.
        let cmap: [UInt8] =
            [0, 0, 0, 1, 0, 3, 0, 1, 0, 0, 0, 12] + [0, 4, 0, 24, 0, 0, 0, 2, 0, 2, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0, 1, 0, 0, 0, 0]
        var post = Array(data[tables["post"].map { $0.lowerBound..<min($0.upperBound, $0.lowerBound + 32) } ?? 0..<0])
        if post.count == 32 { post.replaceSubrange(0..<4, with: [0, 3, 0, 0]) } else { post = [0, 3, 0, 0] + [UInt8](repeating: 0, count: 28) }
        var parts: [(String, [UInt8])] = [
            ("OS/2", tables["OS/2"].map { Array(data[$0]) } ?? []), ("cmap", cmap), ("cvt ", tables["cvt "].map { Array(data[$0]) } ?? []),
            ("fpgm", tables["fpgm"].map { Array(data[$0]) } ?? []), ("glyf", glyf), ("head", head), ("hhea", hhea), ("hmtx", hmtx.bytes),
            ("loca", loca.bytes), ("maxp", maxp), ("post", post), ("prep", tables["prep"].map { Array(data[$0]) } ?? []),
        ]
        parts.removeAll { $0.1.isEmpty }
        return (Self.fontFile(parts), order)
    }

    // MARK: - Reading

    /// The glyphs a composite glyph is made of (none for a simple one).
    func components(of glyph: UInt16) -> [UInt16] {
        let index = Int(glyph)
        guard index < glyphCount else { return [] }
        let (start, end) = (glyphStarts[index], glyphStarts[index + 1])
        let reader = Reader(data)
        guard end - start >= 10, reader.i16(start) < 0 else { return [] }
        var parts: [UInt16] = []
        var offset = start + 10
        while offset + 4 <= end {
            let flags = reader.u16(offset)
            parts.append(reader.u16(offset + 2))
            offset += 4 + Self.componentArgumentsLength(flags)
            if flags & 0x20 == 0 { break }  // MORE_COMPONENTS
        }
        return parts
    }

    /// Bytes after a component's flags and glyph: its two arguments and its transform.
    private static func componentArgumentsLength(_ flags: UInt16) -> Int {
        (flags & 0x1 != 0 ? 4 : 2) + (flags & 0x8 != 0 ? 2 : flags & 0x40 != 0 ? 4 : flags & 0x80 != 0 ? 8 : 0)
    }

    private func renumberComponents(_ outline: inout [UInt8], _ newIndex: [UInt16: UInt16]) {
        var offset = 10
        while offset + 4 <= outline.count {
            let flags = UInt16(outline[offset]) << 8 | UInt16(outline[offset + 1])
            let old = UInt16(outline[offset + 2]) << 8 | UInt16(outline[offset + 3])
            let new = newIndex[old] ?? 0
            outline[offset + 2] = UInt8(new >> 8)
            outline[offset + 3] = UInt8(new & 0xFF)
            offset += 4 + Self.componentArgumentsLength(flags)
            if flags & 0x20 == 0 { break }
        }
    }

    /// The Unicode cmap (format 4 for the BMP, or 12 for every plane), as a table for the BMP and a dictionary
    /// for the planes above it.
    private static func characterMap(_ reader: Reader, _ table: Range<Int>) throws(Failure) -> ([UInt16], [UInt32: UInt16]) {
        let base = table.lowerBound
        var best: (offset: Int, format: UInt16)?
        for index in 0..<Int(reader.u16(base + 2)) {
            let record = base + 4 + 8 * index
            let (platform, encoding) = (reader.u16(record), reader.u16(record + 2))
            let offset = base + Int(reader.u32(record + 4))
            let format = reader.u16(offset)
            let unicode = platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10))
            guard unicode, format == 4 || format == 12 else { continue }
            if best == nil || (format == 12 && best!.format == 4) { best = (offset, format) }
        }
        guard let best else { throw Failure(description: "no Unicode character map") }
        var basic = [UInt16](repeating: 0, count: 0x10000)
        var other: [UInt32: UInt16] = [:]
        if best.format == 4 {
            let segments = Int(reader.u16(best.offset + 6)) / 2
            let ends = best.offset + 14
            let starts = ends + 2 * segments + 2
            let deltas = starts + 2 * segments
            let ranges = deltas + 2 * segments
            for segment in 0..<segments {
                let (first, last) = (Int(reader.u16(starts + 2 * segment)), Int(reader.u16(ends + 2 * segment)))
                let delta = Int(reader.u16(deltas + 2 * segment))
                let rangeOffset = Int(reader.u16(ranges + 2 * segment))
                guard first <= last, last < 0xFFFF || first < 0xFFFF else { continue }
                for code in first...min(last, 0xFFFE) {
                    var glyph: Int
                    if rangeOffset == 0 {
                        glyph = (code + delta) & 0xFFFF
                    } else {
                        let at = ranges + 2 * segment + rangeOffset + 2 * (code - first)
                        glyph = Int(reader.u16(at))
                        if glyph != 0 { glyph = (glyph + delta) & 0xFFFF }
                    }
                    basic[code] = UInt16(glyph)
                }
            }
        } else {
            let groups = Int(reader.u32(best.offset + 12))
            for group in 0..<min(groups, 1 << 20) {
                let record = best.offset + 16 + 12 * group
                let (first, last, glyph) = (reader.u32(record), reader.u32(record + 4), reader.u32(record + 8))
                guard first <= last, last <= 0x10FFFF, last - first < 0x10000 else { continue }
                for code in first...last {
                    let value = UInt16(truncatingIfNeeded: glyph + (code - first))
                    if code < 0x10000 { basic[Int(code)] = value } else { other[code] = value }
                }
            }
        }
        return (basic, other)
    }

    /// The name table's PostScript name (name 6), in its Mac Roman or UTF-16 record.
    private static func postScriptName(_ reader: Reader, _ table: Range<Int>?) -> String? {
        guard let table else { return nil }
        let base = table.lowerBound
        let strings = base + Int(reader.u16(base + 4))
        for index in 0..<Int(reader.u16(base + 2)) {
            let record = base + 6 + 12 * index
            guard reader.u16(record + 6) == 6 else { continue }
            let (platform, length, offset) = (reader.u16(record), Int(reader.u16(record + 8)), Int(reader.u16(record + 10)))
            let bytes = reader.bytes(strings + offset, length)
            let name =
                platform == 1
                ? String(decoding: bytes, as: UTF8.self)
                : String(decoding: stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }, as: UTF16.self)
            // A PDF name: letters, digits and a few marks only.
            let clean = String(name.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") })
            if !clean.isEmpty { return clean }
        }
        return nil
    }

    // MARK: - Writing

    /// A font file of `tables` (tags in ascending order), with its checksums.
    private static func fontFile(_ tables: [(String, [UInt8])]) -> [UInt8] {
        var header = Writer()
        let count = tables.count
        let power = 1 << (Int.bitWidth - 1 - count.leadingZeroBitCount)
        header.u32(0x0001_0000)
        header.u16(UInt16(count))
        header.u16(UInt16(power * 16))
        header.u16(UInt16(power.trailingZeroBitCount))
        header.u16(UInt16(count * 16 - power * 16))
        var body: [UInt8] = []
        var offset = 12 + 16 * count
        var headAt = 0
        for (tag, bytes) in tables {
            header.bytes += Array(tag.utf8)
            header.u32(checksum(bytes))
            header.u32(UInt32(offset))
            header.u32(UInt32(bytes.count))
            if tag == "head" { headAt = offset }
            body += bytes
            while body.count % 4 != 0 { body.append(0) }
            offset = 12 + 16 * count + body.count
        }
        var file = header.bytes + body
        let adjustment = 0xB1B0_AFBA &- checksum(file)
        file.replaceSubrange(headAt + 8..<headAt + 12, with: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adjustment >> $0) })
        return file
    }

    private static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var sum: UInt32 = 0
        var index = 0
        while index < bytes.count {
            var word: UInt32 = 0
            for byte in 0..<4 { word = word << 8 | UInt32(index + byte < bytes.count ? bytes[index + byte] : 0) }
            sum &+= word
            index += 4
        }
        return sum
    }

    /// Big-endian reads that answer 0 past the end of the file, so a damaged font reads as empty, never traps.
    private struct Reader {
        let data: [UInt8]
        init(_ data: [UInt8]) { self.data = data }

        func u16(_ at: Int) -> UInt16 {
            guard at >= 0, at + 2 <= data.count else { return 0 }
            return UInt16(data[at]) << 8 | UInt16(data[at + 1])
        }
        func i16(_ at: Int) -> Int16 { Int16(bitPattern: u16(at)) }
        func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) << 16 | UInt32(u16(at + 2)) }
        func bytes(_ at: Int, _ count: Int) -> [UInt8] {
            guard at >= 0, count >= 0, at + count <= data.count else { return [] }
            return Array(data[at..<at + count])
        }
    }

    private struct Writer {
        var bytes: [UInt8] = []
        mutating func u16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xFF)] }
        mutating func u32(_ value: UInt32) { bytes.appendBigEndian(value) }
    }
}
