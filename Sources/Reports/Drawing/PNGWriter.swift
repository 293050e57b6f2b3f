import CZlib

/// PNG bytes of a drawn picture, written here instead of by cairo: cairo's writer (libpng trying every row
/// filter, then zlib at its default level) was most of an HTML report's CPU, a dozen charts a report. Every row
/// is filtered as Sub (each byte less the one a pixel before), which turns a chart's flat colours and straight
/// edges into runs of zeros, and deflated at a low level. An opaque picture is written without its alpha.
enum PNGWriter {
    static func png(_ bitmap: Bitmap) -> [UInt8] {
        bitmap.pixels.withUnsafeBufferPointer { png(Bitmap.Pixels(width: bitmap.width, height: bitmap.height, stride: bitmap.stride, bytes: $0)) }
    }

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

/// zlib's deflate in its zlib wrapping, as PNG's IDAT and PDF's FlateDecode streams both hold it.
enum Deflate {
    /// Written into an uninitialised array of deflate's bound: zeroing a megabyte first, for a wheel, cost as
    /// much as deflating it at a low level.
    static func zlib(_ bytes: [UInt8], level: Int32) -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            preconditionFailure("zlib could not start deflating")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        return [UInt8](unsafeUninitializedCapacity: bound) { output, count in
            bytes.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(bound)
                let status = deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "zlib could not deflate (\(status))")
                count = Int(stream.total_out)
            }
        }
    }
}

extension Bitmap {
    /// Pixels in cairo's layout where they lie (premultiplied ARGB32, one native-endian (little-endian here)
    /// 32-bit word a pixel, rows `stride` bytes apart), for as long as their owner keeps them.
    struct Pixels {
        let width: Int
        let height: Int
        let stride: Int
        let bytes: UnsafeBufferPointer<UInt8>

        /// Whether every pixel is fully opaque.
        var isOpaque: Bool {
            for row in 0..<height {
                var at = row * stride + 3
                for _ in 0..<width {
                    if bytes[at] != 255 { return false }
                    at += 4
                }
            }
            return true
        }

        /// Each pixel from the top left, row by row, as straight (not premultiplied) red, green, blue and alpha,
        /// with its row.
        func forEachStraightPixel(_ body: (_ row: Int, _ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8) -> Void) {
            for row in 0..<height {
                var at = row * stride
                for _ in 0..<width {
                    let (blue, green, red, alpha) = (bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3])
                    at += 4
                    if alpha == 255 {
                        body(row, red, green, blue, 255)
                    } else {
                        func straight(_ value: UInt8) -> UInt8 {
                            alpha == 0 ? 0 : UInt8(min(255, (Int(value) * 255 + Int(alpha) / 2) / Int(alpha)))
                        }
                        body(row, straight(red), straight(green), straight(blue), alpha)
                    }
                }
            }
        }
    }

    /// Calls `body` with each pixel as `Pixels.forEachStraightPixel` gives it.
    func forEachStraightPixel(_ body: (_ row: Int, _ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8) -> Void) {
        pixels.withUnsafeBufferPointer { Pixels(width: width, height: height, stride: stride, bytes: $0).forEachStraightPixel(body) }
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
