import CZlib

/// PNG bytes of a drawn picture, written here instead of by cairo: cairo's writer (libpng trying every row
/// filter, then zlib at its default level) was most of an HTML report's CPU, a dozen charts a report. Every row
/// is filtered as Sub (each byte less the one a pixel before), which turns a chart's flat colours and straight
/// edges into runs of zeros, and deflated at a low level. An opaque picture is written without its alpha.
enum PNGWriter {
    /// PNG bytes of pixels in cairo's layout, read where they are (a canvas's surface, without a copy).
    static func png(_ pixels: Bitmap.Pixels) -> [UInt8] {
        let channels = pixels.isOpaque ? 3 : 4
        let rowBytes = pixels.width * channels
        let filtered = [UInt8](unsafeUninitializedCapacity: pixels.height * (rowBytes + 1)) { filtered, count in
            var previous: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
            var row = -1
            var at = 0
            pixels.forEachStraightPixel { pixelRow, red, green, blue, alpha in
                if pixelRow != row {
                    // A new row: its filter type (1, Sub), and nothing to its left yet.
                    row = pixelRow
                    filtered[at] = 1
                    at += 1
                    previous = (0, 0, 0, 0)
                }
                filtered[at] = red &- previous.0
                filtered[at + 1] = green &- previous.1
                filtered[at + 2] = blue &- previous.2
                if channels == 4 { filtered[at + 3] = alpha &- previous.3 }
                at += channels
                previous = (red, green, blue, alpha)
            }
            count = at
        }
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(pixels.width))
        header.appendBigEndian(UInt32(pixels.height))
        // 8 bits a sample; truecolour (2) or truecolour with alpha (6); deflate, adaptive filtering, no interlace.
        header += [8, channels == 4 ? 6 : 2, 0, 0, 0]
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        chunk("IHDR", header, into: &png)
        chunk("IDAT", Deflate.zlib(filtered, level: 2), into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    private static func chunk(_ type: StaticString, _ data: [UInt8], into png: inout [UInt8]) {
        png.appendBigEndian(UInt32(data.count))
        let start = png.count
        type.withUTF8Buffer { png += $0 }
        png += data
        let checksum = png[start...].withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        png.appendBigEndian(UInt32(checksum))
    }
}
