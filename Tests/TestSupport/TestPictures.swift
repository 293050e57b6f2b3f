/// Real pictures for tests, built byte by byte: PNGs that decode (compressed with a small deflate encoder, fixed
/// Huffman codes, every row after the first copied from the one above, so a 20000 × 20000 picture is a few
/// hundred KiB) and JPEG headers.
public enum TestPictures {
    /// An RGBA PNG of `width` × `height` whose rows are all alike: vertical stripes of `colours`, each `stripe`
    /// pixels wide, in turn.
    public static func png(
        width: Int,
        height: Int,
        colours: [[UInt8]] = [[0x0B, 0x6E, 0x69, 0xFF], [0xFF, 0xFF, 0xFF, 0x00]],
        stripe: Int = 16
    )
        -> [UInt8]
    {
        var row: [UInt8] = []
        row.reserveCapacity(width * 4)
        for x in 0..<width { row += colours[(x / max(stripe, 1)) % colours.count] }
        return png(width: width, height: height, colourType: 6, bitDepth: 8, row: row)
    }

    /// A 1-bit greyscale PNG of `width` × `height`, all black: a decompression bomb in a small file (20000 ×
    /// 20000 is about 300 KiB here, 1.6 GB decoded).
    public static func blackPNG(width: Int, height: Int) -> [UInt8] {
        png(width: width, height: height, colourType: 0, bitDepth: 1, row: [UInt8](repeating: 0, count: (width + 7) / 8))
    }

    /// A PNG whose every scanline is `row` (filter "none"): signature, IHDR, one IDAT, IEND.
    public static func png(width: Int, height: Int, colourType: UInt8, bitDepth: UInt8, row: [UInt8]) -> [UInt8] {
        let header = be32(width) + be32(height) + [bitDepth, colourType, 0, 0, 0]
        let line = [0] + row
        var zlib: [UInt8] = [0x78, 0x01]
        zlib += deflateRepeatedRows(line, count: height)
        zlib += be32(Int(adler32(repeating: line, count: height)))
        return pngSignature + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    /// A PNG chunk: length, type, data, CRC of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(Int(crc32(typed)))
    }

    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The first bytes of a JPEG up to and including its frame header (SOF0, three components), with an APP0
    /// (JFIF), an APP1, a comment and a quantisation table before it, as cameras write them.
    public static func jpegHeader(width: Int, height: Int, frameMarker: UInt8 = 0xC0) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        bytes += segment(0xE1, Array("Exif".utf8) + [0, 0] + [UInt8](repeating: 0x11, count: 40))
        bytes += segment(0xFE, Array("made by a test".utf8))
        bytes += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        bytes += segment(frameMarker, [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        return bytes
    }

    /// A JPEG-shaped file of exactly `size` bytes: `jpegHeader`, a scan of filler, EOI. It is never decoded.
    public static func jpeg(width: Int = 64, height: Int = 48, size: Int) -> [UInt8] {
        let head = jpegHeader(width: width, height: height) + segment(0xDA, [1, 1, 0, 0, 0x3F, 0])
        return head + [UInt8](repeating: 0x2A, count: max(size - head.count - 2, 0)) + [0xFF, 0xD9]
    }

    /// The latitude a test photo's GPS block carries (51° 30' 26"), as its three RATIONAL values' bytes would show.
    public static let gpsMarker: [UInt8] = Array("GPSVERSION-MARKER".utf8)

    /// An EXIF (TIFF) block: the first directory holds Make ("TestPhone"), Orientation (`orientation`), a GPS
    /// pointer (when `gps`) and Software ("Hw1"); the GPS directory holds a latitude (three rationals, 24 bytes
    /// away from the directory) and a processing-method text that contains `gpsMarker`.
    public static func exif(littleEndian: Bool = false, orientation: Int = 1, gps: Bool = true) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { littleEndian ? be16(v).reversed() : be16(v) }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? be32(v).reversed() : be32(v) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
            u16(tag) + u16(type) + u32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        let entries = gps ? 4 : 3
        let ifd0 = 8
        let ifd0End = ifd0 + 2 + 12 * entries + 4
        let make = Array("TestPhone\0".utf8)
        let makeAt = ifd0End
        let gpsAt = makeAt + make.count + (make.count % 2)
        let gpsEntries = 3
        let gpsEnd = gpsAt + 2 + 12 * gpsEntries + 4
        let latitudeAt = gpsEnd
        let methodAt = latitudeAt + 24
        let method = Array("ASCII\0\0\0".utf8) + gpsMarker
        var directory = entry(0x010F, 2, make.count, u32(makeAt)) + entry(0x0112, 3, 1, u16(orientation))
        if gps { directory += entry(0x8825, 4, 1, u32(gpsAt)) }
        directory += entry(0x0131, 2, 4, Array("Hw1\0".utf8))
        var block = (littleEndian ? Array("II".utf8) + [42, 0] : Array("MM".utf8) + [0, 42]) + u32(ifd0)
        block += u16(entries) + directory + u32(0)
        block += make + [UInt8](repeating: 0, count: make.count % 2)
        guard gps else { return block }
        block += u16(gpsEntries)
        block += entry(0x0001, 2, 2, Array("N\0".utf8))
        block += entry(0x0002, 5, 3, u32(latitudeAt))
        block += entry(0x001B, 7, method.count, u32(methodAt))
        block += u32(0)
        block += u32(51) + u32(1) + u32(30) + u32(1) + u32(26) + u32(1)
        block += method
        return block
    }

    /// A JPEG-shaped file (never decoded) whose APP1 holds `exif`.
    public static func jpeg(exif: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        bytes += segment(0xE1, Array("Exif".utf8) + [0, 0] + exif)
        bytes += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        bytes += segment(0xC0, [8] + be16(48) + be16(64) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        bytes += segment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + [UInt8](repeating: 0x2A, count: 100) + [0xFF, 0xD9]
        return bytes
    }

    /// A marker segment: marker, length (counting itself), payload.
    public static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(payload.count + 2) + payload
    }

    public static func be32(_ value: Int) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }

    public static func be16(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// Adler-32 of `line` repeated `count` times; a run of zeros only adds to the second sum, so a black picture
    /// costs nothing to check.
    static func adler32(repeating line: [UInt8], count: Int) -> UInt32 {
        let modulus = 65521
        var (a, b) = (1, 0)
        let zeros = line.allSatisfy { $0 == 0 }
        for _ in 0..<count {
            if zeros {
                b = (b + line.count % modulus * a) % modulus
            } else {
                for byte in line {
                    a = (a + Int(byte)) % modulus
                    b = (b + a) % modulus
                }
            }
        }
        return UInt32(b << 16 | a)
    }

    // MARK: - Deflate, fixed Huffman codes (RFC 1951, 3.2.6)

    /// One final block: the first `line` as literals, then everything after it as copies from `line.count`
    /// bytes back (each row is the one above), 258 bytes a copy; a uniform `line` as one literal and copies.
    static func deflateRepeatedRows(_ line: [UInt8], count: Int) -> [UInt8] {
        precondition(line.count <= 32_768, "a copy reaches at most 32 KiB back")
        var bits = BitWriter()
        bits.write(1, count: 1)  // final block
        bits.write(1, count: 2)  // fixed Huffman codes
        // A row of one repeated byte (a black picture) copies from one byte back: no distance bits to write.
        let distance = line.allSatisfy { $0 == line[0] } ? 1 : line.count
        for byte in line.prefix(distance) { bits.literal(Int(byte)) }
        let total = line.count * count
        var position = distance
        while position < total {
            // A copy is 3 to 258 bytes; one that would leave 1 or 2 bytes is made shorter, so the last is 3 or more.
            var length = min(total - position, 258)
            if (1...2).contains(total - position - length) { length -= 3 }
            if length < 3 {
                for offset in 0..<length { bits.literal(Int(line[(position + offset) % line.count])) }
            } else {
                bits.copy(length: length, distance: distance)
            }
            position += length
        }
        bits.literal(256)  // end of block
        return bits.finished()
    }

    struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt32 = 0
        var filled = 0

        /// `count` bits of `value`, least significant first (how deflate writes numbers).
        mutating func write(_ value: Int, count: Int) {
            for index in 0..<count {
                current |= UInt32((value >> index) & 1) << filled
                filled += 1
                if filled == 8 {
                    bytes.append(UInt8(current))
                    (current, filled) = (0, 0)
                }
            }
        }

        /// The bytes written, the last one padded with zero bits.
        func finished() -> [UInt8] {
            filled > 0 ? bytes + [UInt8(current)] : bytes
        }

        /// A Huffman code, most significant bit first.
        mutating func code(_ code: Int, length: Int) {
            for index in stride(from: length - 1, through: 0, by: -1) { write((code >> index) & 1, count: 1) }
        }

        mutating func literal(_ value: Int) {
            switch value {
            case 0...143: code(0x30 + value, length: 8)
            case 144...255: code(0x190 + value - 144, length: 9)
            case 256...279: code(value - 256, length: 7)
            default: code(0xC0 + value - 280, length: 8)
            }
        }

        static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        static let distanceBases = [
            1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289,
            16385, 24577,
        ]
        static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

        mutating func copy(length: Int, distance: Int) {
            let lengthIndex = Self.lengthBases.lastIndex { $0 <= length }!
            literal(257 + lengthIndex)
            write(length - Self.lengthBases[lengthIndex], count: Self.lengthExtra[lengthIndex])
            let distanceIndex = Self.distanceBases.lastIndex { $0 <= distance }!
            code(distanceIndex, length: 5)
            write(distance - Self.distanceBases[distanceIndex], count: Self.distanceExtra[distanceIndex])
        }
    }
}
