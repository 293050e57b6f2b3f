import Foundation

/// A picture as the document embeds it: a JPEG as it is, or its pixels (with their alpha as a soft mask).
struct PDFImage {
    let bitmap: Bitmap

    init(_ bitmap: Bitmap) { self.bitmap = bitmap }

    func write(into file: inout PDFFile) -> Int {
        let size = "/Width \(bitmap.width) /Height \(bitmap.height) /BitsPerComponent 8"
        if let jpeg = bitmap.jpeg, let colours = JPEGFrame(jpeg), colours.width == bitmap.width, colours.height == bitmap.height,
            let space = [1: "/DeviceGray", 3: "/DeviceRGB"][colours.components]
        {
            return file.stream(jpeg, compress: false, extra: "/Type /XObject /Subtype /Image \(size) /ColorSpace \(space) /Filter /DCTDecode")
        }
        var rgb: [UInt8] = []
        var alpha: [UInt8] = []
        rgb.reserveCapacity(bitmap.width * bitmap.height * 3)
        alpha.reserveCapacity(bitmap.width * bitmap.height)
        var opaque = true
        bitmap.forEachStraightPixel { _, red, green, blue, a in
            rgb.append(red)
            rgb.append(green)
            rgb.append(blue)
            alpha.append(a)
            if a != 255 { opaque = false }
        }
        var mask = ""
        if !opaque {
            let soft = file.stream(alpha, compress: true, extra: "/Type /XObject /Subtype /Image \(size) /ColorSpace /DeviceGray")
            mask = " /SMask \(soft) 0 R"
        }
        return file.stream(rgb, compress: true, extra: "/Type /XObject /Subtype /Image \(size) /ColorSpace /DeviceRGB\(mask)")
    }
}

/// A JPEG's size and colour components, from its first start-of-frame marker.
private struct JPEGFrame {
    let width: Int
    let height: Int
    let components: Int

    init?(_ bytes: [UInt8]) {
        var at = 2
        while at + 9 < bytes.count {
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                height = Int(bytes[at + 5]) << 8 | Int(bytes[at + 6])
                width = Int(bytes[at + 7]) << 8 | Int(bytes[at + 8])
                components = Int(bytes[at + 9])
                return
            }
            at += 2 + length
        }
        return nil
    }
}

/// A PDF file's objects, numbered from 1, and its cross-reference table.
struct PDFFile {
    private var objects: [[UInt8]?] = []

    /// A number for an object written later (`set`), so that others can refer to it first.
    mutating func reserve() -> Int {
        objects.append(nil)
        return objects.count
    }

    mutating func set(_ number: Int, _ dictionary: String) {
        objects[number - 1] = Array(dictionary.utf8)
    }

    mutating func add(_ dictionary: String) -> Int {
        objects.append(Array(dictionary.utf8))
        return objects.count
    }

    /// A stream object of `bytes`, deflated when `compress` at zlib's level 3 (levels 1-3 take about as long on a
    /// report's streams, and 3 writes the smallest of them).
    mutating func stream(_ bytes: [UInt8], compress: Bool, extra: String = "") -> Int {
        let body = compress ? Deflate.zlib(bytes, level: 3) : bytes
        let filter = compress ? " /Filter /FlateDecode" : ""
        let head = "<< /Length \(body.count)\(filter)\(extra.isEmpty ? "" : " " + extra) >>\nstream\n"
        objects.append(Array(head.utf8) + body + Array("\nendstream".utf8))
        return objects.count
    }

    func finish(root: Int, info: Int) -> [UInt8] {
        var file = Array("%PDF-1.5\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(file.count)
            file += Array("\(index + 1) 0 obj\n".utf8) + (object ?? Array("null".utf8)) + Array("\nendobj\n".utf8)
        }
        let table = file.count
        var xref = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { xref += String(repeating: "0", count: max(0, 10 - String(offset).count)) + "\(offset) 00000 n \n" }
        xref += "trailer\n<< /Size \(objects.count + 1) /Root \(root) 0 R /Info \(info) 0 R >>\nstartxref\n\(table)\n%%EOF\n"
        return file + Array(xref.utf8)
    }
}

/// Bytes of a content stream, written without building strings (a report writes thousands of operators).
struct PDFBytes {
    var bytes: [UInt8] = []

    mutating func put(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes += $0 }
    }

    /// Numbers as PDF writes them, each followed by a space: at most two decimals (a hundredth of a point), no
    /// exponent, no trailing zeros.
    mutating func put(_ values: Double...) {
        for value in values { number(value, places: 2) }
    }

    /// A colour's red, green and blue (0 to 1) to three decimals, closer than a step of eight bits.
    mutating func put(red: Double, green: Double, blue: Double) {
        for value in [red, green, blue] { number(value, places: 3) }
    }

    private mutating func number(_ value: Double, places: Int) {
        let scale = places == 3 ? 1000 : 100
        let scaled = value.isFinite ? Int((value * Double(scale)).rounded()) : 0
        if scaled < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = abs(scaled)
        digits(magnitude / scale)
        var fraction = magnitude % scale
        if fraction != 0 {
            bytes.append(UInt8(ascii: "."))
            var unit = scale / 10
            while fraction != 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(fraction / unit))
                fraction %= unit
                unit /= 10
            }
        }
        bytes.append(UInt8(ascii: " "))
    }

    private mutating func digits(_ value: Int) {
        if value >= 10 { digits(value / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Four hex digits: a glyph in a text string, or a UTF-16 unit.
    mutating func hex(_ value: UInt16) {
        for shift in [12, 8, 4, 0] as [UInt16] {
            let digit = UInt8(value >> shift & 0xF)
            bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10)
        }
    }
}

/// A number as a PDF dictionary writes it (see `PDFBytes.put`).
func pdfNumber(_ value: Double) -> String {
    var bytes = PDFBytes()
    bytes.put(value)
    return String(decoding: bytes.bytes.dropLast(), as: UTF8.self)
}
