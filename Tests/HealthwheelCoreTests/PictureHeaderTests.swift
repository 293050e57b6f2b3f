import HealthwheelCore
import Testing

/// Pictures built byte by byte: a PNG's signature and IHDR (with its CRC), a JPEG's segments.
enum Headers {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The first 33 bytes of `Themes/harbour-fitness-logo.png` (192 × 192, RGBA), as a real encoder wrote them.
    static let harbourLogo: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00,
        0x00, 0xC0, 0x08, 0x06, 0x00, 0x00, 0x00, 0x52, 0xDC, 0x6C, 0x07,
    ]

    static func png(width: UInt32, height: UInt32, depth: UInt8 = 8, colourType: UInt8 = 6, interlace: UInt8 = 0) -> [UInt8] {
        signature + chunk("IHDR", be32(width) + be32(height) + [depth, colourType, 0, 0, interlace])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(UInt32(data.count)) + typed + be32(crc(typed))
    }

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static func frame(_ marker: UInt8 = 0xC0, width: Int, height: Int, components: Int = 3) -> [UInt8] {
        var payload: [UInt8] = [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), UInt8(components)]
        for component in 0..<components { payload += [UInt8(component + 1), 0x11, 0] }
        return segment(marker, payload)
    }

    /// Table-driven, unlike the reader's, so the two do not share a mistake.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        let table: [UInt32] = (0..<256).map { index in
            (0..<8).reduce(UInt32(index)) { value, _ in value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        }
        return ~bytes.reduce(UInt32.max) { table[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
    }
}

@Suite struct PNGHeaderTests {
    @Test func readsTheSizeOfARealPNG() throws {
        #expect(try PictureHeader.read(Headers.harbourLogo + [0, 0, 0, 0]) == PictureHeader(format: .png, width: 192, height: 192))
        #expect(try PictureHeader.read(Headers.png(width: 3, height: 70_000, depth: 1, colourType: 0, interlace: 1)).height == 70_000)
        #expect(try PictureHeader.read(Headers.png(width: 2_147_483_647, height: 1)).width == 2_147_483_647)
    }

    @Test func everyTruncationOfTheHeaderIsRefused() {
        let header = Headers.harbourLogo
        for length in 0..<header.count {
            #expect(throws: PictureProblem.self, "\(length) bytes") { try PictureHeader.read(Array(header.prefix(length))) }
        }
        #expect(throws: PictureProblem("is a PNG that ends inside its signature")) { try PictureHeader.read(Array(header.prefix(5))) }
        #expect(throws: PictureProblem("is a PNG that ends inside its header (IHDR)")) { try PictureHeader.read(Array(header.prefix(32))) }
    }

    @Test func aHeaderThatLiesAboutItsSizeFailsItsChecksum() {
        var edited = Headers.png(width: 64, height: 64)
        edited[16...19] = [0, 0, 0x4E, 0x20]  // 20000 wide, the CRC left as it was
        #expect(throws: PictureProblem("is a PNG whose header (IHDR) does not match its checksum")) { try PictureHeader.read(edited) }
    }

    @Test func theFirstChunkMustBeAThirteenByteIHDR() {
        let textFirst = Headers.signature + Headers.chunk("tEXt", Array("Comment\0hello".utf8)) + Array(Headers.png(width: 8, height: 8).dropFirst(8))
        let longer = Headers.signature + Headers.chunk("IHDR", Headers.be32(8) + Headers.be32(8) + [8, 6, 0, 0, 0, 0])
        for bytes in [textFirst, longer] {
            #expect(throws: PictureProblem("is a PNG whose first chunk is not a 13-byte header (IHDR)")) { try PictureHeader.read(bytes) }
        }
    }

    @Test func impossibleSizesAndFieldsAreRefused() {
        for (width, height) in [(0, 10), (10, 0), (0x8000_0000, 1), (1, 0xFFFF_FFFF)] as [(UInt32, UInt32)] {
            #expect(throws: PictureProblem("is a PNG whose header gives a width or height of 0 or over 2^31 - 1")) {
                try PictureHeader.read(Headers.png(width: width, height: height))
            }
        }
        let undefined = PictureProblem("is a PNG whose header (IHDR) has a colour type, bit depth or method PNG does not define")
        #expect(throws: undefined) { try PictureHeader.read(Headers.png(width: 8, height: 8, depth: 4, colourType: 6)) }
        #expect(throws: undefined) { try PictureHeader.read(Headers.png(width: 8, height: 8, colourType: 5)) }
        #expect(throws: undefined) { try PictureHeader.read(Headers.png(width: 8, height: 8, interlace: 2)) }
    }
}

@Suite struct JPEGHeaderTests {
    static let start: [UInt8] = [0xFF, 0xD8]
    static let app0 = Headers.segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
    static let exif = Headers.segment(0xE1, Array("Exif".utf8) + [0, 0] + [UInt8](repeating: 0xFF, count: 300))
    static let quantisation = Headers.segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
    /// A Huffman table (C4) and an arithmetic-coding table (CC) sit in the SOF range and are not frame headers.
    static let huffman = Headers.segment(0xC4, [0, 0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    static let arithmetic = Headers.segment(0xCC, [0, 0x10])
    static let scan = Headers.segment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + [0x12, 0x34, 0xFF, 0xD9]

    @Test func findsTheFrameHeaderAfterSeveralSegments() throws {
        let padded = [0xFF, 0xFF, 0xFF] + Headers.segment(0xFE, Array("fill bytes may precede a marker".utf8))
        let bytes =
            Self.start + Self.app0 + Self.exif + padded + Self.quantisation + Self.huffman + Self.arithmetic + [0xFF, 0xD3]
            + Headers.frame(0xC2, width: 4032, height: 3024) + Self.scan
        #expect(try PictureHeader.read(bytes) == PictureHeader(format: .jpeg, width: 4032, height: 3024))
    }

    @Test func everyFrameMarkerIsRead() throws {
        for marker: UInt8 in [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF] {
            let bytes = Self.start + Headers.frame(marker, width: 300, height: 200, components: 1)
            #expect(try PictureHeader.read(bytes) == PictureHeader(format: .jpeg, width: 300, height: 200), "marker \(marker)")
        }
    }

    @Test func everyTruncationBeforeTheFrameHeaderIsRefused() {
        let whole = Self.start + Self.app0 + Self.quantisation + Headers.frame(width: 640, height: 480)
        for length in 2..<whole.count {
            #expect(throws: PictureProblem.self, "\(length) bytes") { try PictureHeader.read(Array(whole.prefix(length))) }
        }
        #expect(throws: PictureProblem("is a JPEG that ends before its frame header (SOF)")) { try PictureHeader.read(Array(whole.dropLast(1))) }
    }

    @Test func aSegmentLengthPastTheEndIsATruncationNotALeap() {
        // An APP1 saying 65535 bytes, with a frame header inside the bytes it claims: never read from there.
        let lying = Self.start + [0xFF, 0xE1, 0xFF, 0xFF] + Headers.frame(width: 100, height: 100)
        #expect(throws: PictureProblem("is a JPEG that ends before its frame header (SOF)")) { try PictureHeader.read(lying) }
        let tooShort = Self.start + [0xFF, 0xE1, 0x00, 0x01] + Headers.frame(width: 100, height: 100)
        #expect(throws: PictureProblem("is a JPEG with a segment length under 2")) { try PictureHeader.read(tooShort) }
    }

    @Test func aFileOfFillBytesOrManySegmentsIsWalkedToItsEnd() throws {
        let fill = Self.start + [UInt8](repeating: 0xFF, count: 1 << 20)
        #expect(throws: PictureProblem("is a JPEG that ends before its frame header (SOF)")) { try PictureHeader.read(fill) }
        let comments = [UInt8]((0..<50_000).flatMap { _ in Headers.segment(0xFE, [0x41]) })
        #expect(try PictureHeader.read(Self.start + comments + Headers.frame(width: 9, height: 7)).width == 9)
    }

    @Test func aScanOrTheEndBeforeAnyFrameHeaderIsRefused() {
        #expect(throws: PictureProblem("is a JPEG whose image data (SOS) comes before its frame header (SOF)")) {
            try PictureHeader.read(Self.start + Self.app0 + Self.scan + Headers.frame(width: 8, height: 8))
        }
        #expect(throws: PictureProblem("is a JPEG that ends (EOI) before its frame header (SOF)")) {
            try PictureHeader.read(Self.start + [0xFF, 0xD9] + Headers.frame(width: 8, height: 8))
        }
        #expect(throws: PictureProblem("is a JPEG with bytes between its segments where a marker should be")) {
            try PictureHeader.read(Self.start + Self.app0 + [0x00] + Headers.frame(width: 8, height: 8))
        }
        #expect(throws: PictureProblem("is a JPEG with a misplaced marker before its frame header")) {
            try PictureHeader.read(Self.start + [0xFF, 0xD8] + Headers.frame(width: 8, height: 8))
        }
    }

    @Test func aFrameHeaderMustBeWholeAndGiveBothSides() {
        #expect(throws: PictureProblem("is a JPEG that gives its height only after the image data (DNL), which is not accepted")) {
            try PictureHeader.read(Self.start + Headers.frame(width: 8, height: 0))
        }
        #expect(throws: PictureProblem("is a JPEG whose frame header (SOF) gives a width of 0")) {
            try PictureHeader.read(Self.start + Headers.frame(width: 0, height: 8))
        }
        // Three components announced, one given.
        let short = Self.start + Headers.segment(0xC0, [8, 0, 8, 0, 8, 3, 1, 0x11, 0])
        #expect(throws: PictureProblem("is a JPEG whose frame header (SOF) has the wrong length")) { try PictureHeader.read(short) }
    }
}

@Suite struct PictureLimitTests {
    @Test func onlyPNGAndJPEGAreRead() {
        for bytes in [[], Array("GIF89a".utf8), [0x42, 0x4D, 0, 0], [0xFF]] as [[UInt8]] {
            #expect(throws: PictureProblem("is not a PNG or JPEG image")) { try PictureHeader.read(bytes) }
        }
    }

    @Test func aLogoMayBe2048PixelsASide() throws {
        #expect(try PictureLimit.logo.header(of: Headers.png(width: 2048, height: 2048)).width == 2048)
        #expect(throws: PictureProblem("is 20000×20000 pixels; at most 2048×2048 are accepted")) {
            try PictureLimit.logo.header(of: Headers.png(width: 20000, height: 20000))
        }
        #expect(throws: PictureProblem("is 1×2049 pixels; at most 2048×2048 are accepted")) {
            try PictureLimit.logo.header(of: Headers.png(width: 1, height: 2049))
        }
    }

    @Test func aPhotoMayBe8192ASideAnd32MegapixelsInAll() throws {
        let photo = PictureLimit.clientPhoto
        #expect(try photo.header(of: JPEGHeaderTests.start + Headers.frame(width: 8192, height: 4096)).height == 4096)
        #expect(throws: PictureProblem("is 8192×8192 pixels, 67108864 in all; at most 33554432 are accepted")) {
            try photo.header(of: JPEGHeaderTests.start + Headers.frame(width: 8192, height: 8192))
        }
        #expect(throws: PictureProblem("is 8193×100 pixels; at most 8192×8192 are accepted")) {
            try photo.header(of: Headers.png(width: 8193, height: 100))
        }
    }

    @Test func aLimitChecksItsTotalAsWellAsItsSides() {
        let limit = PictureLimit(maximumWidth: 100, maximumHeight: 100, maximumPixels: 5_000)
        #expect(throws: PictureProblem("is 100×51 pixels, 5100 in all; at most 5000 are accepted")) {
            try limit.header(of: Headers.png(width: 100, height: 51))
        }
        #expect((try? limit.header(of: Headers.png(width: 100, height: 50))) != nil)
    }
}

/// A JPEG's decoding cost beyond its pixels, bounded on its bytes: scans and metadata segments.
@Suite struct JPEGDecodingCostTests {
    static let head = JPEGHeaderTests.start + Headers.frame(width: 64, height: 48)
    /// A scan header for three components, then a few bytes of image data holding a stuffed 0xFF and a restart.
    static let scan = Headers.segment(0xDA, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0]) + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56]
    static let end: [UInt8] = [0xFF, 0xD9]

    @Test func aProgressiveJPEGWithTheMostScansAllowedIsAccepted() throws {
        let file = Self.head + (0..<JPEGDecodingCost.maximumScans).flatMap { _ in Self.scan } + Self.end
        #expect(try PictureLimit.resultPhoto.header(of: file).width == 64)
    }

    /// The probe's file: 2,000 scans in 252 KB took 21 s to decode. Refused on its bytes, before any decoder.
    @Test func aJPEGOfThousandsOfScansIsRefusedBeforeDecoding() {
        let file = Self.head + (0..<2_000).flatMap { _ in Self.scan } + Self.end
        #expect(throws: PictureProblem("is a progressive JPEG of over 64 scans; at most 64 are accepted")) {
            try PictureLimit.resultPhoto.header(of: file)
        }
        #expect(throws: PictureProblem("is a progressive JPEG of over 64 scans; at most 64 are accepted")) {
            try PictureLimit.resultPhoto.size(of: file, format: .jpeg)
        }
    }

    /// Bytes inside image data that look like a scan marker only after a stuffed zero are image data.
    @Test func markersAreCountedOnlyWhereTheyStand() throws {
        let data = [UInt8](repeating: 0xFF, count: 10) + [0x00] + Array(repeating: [0xFF, 0x00, 0xDA], count: 500).flatMap { $0 }
        let file = Self.head + Self.scan + data + Self.end
        #expect(try PictureLimit.resultPhoto.header(of: file).height == 48)
    }

    /// The probe's file: 30,000 Exif segments took 4.7 s to decode (libjpeg's marker list is quadratic).
    @Test func aJPEGOfThousandsOfMetadataSegmentsIsRefused() throws {
        let exif = Headers.segment(0xE1, Array("Exif".utf8) + [0, 0] + [UInt8](repeating: 0x41, count: 40))
        let file = JPEGHeaderTests.start + (0..<30_000).flatMap { _ in exif } + Headers.frame(width: 64, height: 48) + Self.scan + Self.end
        #expect(throws: PictureProblem("is a JPEG with over 256 metadata segments (APPn, COM); at most 256 are accepted")) {
            try PictureLimit.clientPhoto.header(of: file)
        }
        let allowed = JPEGHeaderTests.start + (0..<256).flatMap { _ in exif } + Headers.frame(width: 64, height: 48) + Self.scan + Self.end
        #expect(try PictureLimit.clientPhoto.header(of: allowed).width == 64)
    }

    @Test func aFileCutShortAnywhereIsLeftToTheDecoder() throws {
        let file = Self.head + Self.scan + Self.scan + Self.end
        for length in Self.head.count..<file.count {
            #expect(try PictureLimit.resultPhoto.header(of: Array(file.prefix(length))).width == 64)
        }
    }
}
