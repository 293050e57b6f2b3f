import HealthwheelCore
import TestSupport
import Testing

/// Telling media files by their first bytes, removing a photo's location, and reading a video's header.
@Suite struct MediaFormatTests {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { TestMedia.box(type, payload) }
    static func ftyp(_ brand: String) -> [UInt8] { TestMedia.ftyp(brand) }

    @Test func signaturesNameTheirFormat() {
        #expect(MediaFormat.sniff(TestPictures.jpeg(size: 300)) == .jpeg)
        #expect(MediaFormat.sniff(TestPictures.blackPNG(width: 2, height: 2)) == .png)
        #expect(MediaFormat.sniff(Self.ftyp("heic")) == .heic)
        #expect(MediaFormat.sniff(Self.ftyp("mif1")) == .heic)
        #expect(MediaFormat.sniff(Self.ftyp("isom")) == .mp4)
        #expect(MediaFormat.sniff(Self.ftyp("mp42")) == .mp4)
        #expect(MediaFormat.sniff(Self.ftyp("qt  ")) == .quicktime)
        #expect(MediaFormat.sniff(Self.box("wide", []) + Self.box("mdat", [1, 2, 3, 4])) == .quicktime)
        #expect(MediaFormat.sniff(Self.ftyp("avif")) == nil)
        #expect(MediaFormat.sniff(Array("GIF89a......".utf8)) == nil)
        #expect(MediaFormat.sniff([0xFF, 0xD8]) == nil)
        #expect(MediaFormat.sniff([]) == nil)
    }

    @Test func declaredTypesAreReadWithoutParametersOrCase() {
        #expect(MediaFormat(contentType: "image/JPEG") == .jpeg)
        #expect(MediaFormat(contentType: "video/quicktime; codecs=hvc1") == .quicktime)
        #expect(MediaFormat(contentType: "image/gif") == nil)
        #expect(MediaFormat.jpeg.kind == .photo && MediaFormat.mp4.kind == .video)
        #expect(MediaKind.photo.maximumBytes == 10 << 20 && MediaKind.video.maximumBytes == 60 << 20)
    }

    @Test(arguments: [false, true]) func aJPEGLosesItsGPSBlockAndKeepsEverythingElse(littleEndian: Bool) throws {
        let original = TestPictures.jpeg(exif: TestPictures.exif(littleEndian: littleEndian, orientation: 6))
        #expect(original.contains(TestPictures.gpsMarker))
        let (cleaned, removed) = PhotoLocation.removed(from: original, format: .jpeg)
        #expect(removed)
        #expect(cleaned.count == original.count, "nothing moves")
        #expect(!cleaned.contains(TestPictures.gpsMarker))
        let latitude =
            littleEndian ? TestPictures.be32(30).reversed() + TestPictures.be32(1).reversed() : TestPictures.be32(30) + TestPictures.be32(1)
        #expect(!cleaned.contains(latitude), "the latitude's values are gone too")
        // What is left reads as the same EXIF without its GPS entry: the other entries and their values stay.
        let again = PhotoLocation.removed(from: cleaned, format: .jpeg)
        #expect(!again.removedGPS && again.bytes == cleaned)
        #expect(cleaned.contains(Array("TestPhone".utf8)) && cleaned.contains(Array("Hw1".utf8)))
        #expect(try PictureHeader.read(cleaned) == PictureHeader.read(original))
        let differing = zip(original, cleaned).filter { $0 != $1 }.count
        #expect(differing < 200, "only the GPS block and the first directory's tail changed")
    }

    @Test func aPNGLosesItsGPSBlockAndItsChecksumStaysValid() throws {
        let png = TestPictures.blackPNG(width: 4, height: 4)
        let withExif = Array(png[0..<33]) + TestPictures.chunk("eXIf", TestPictures.exif()) + Array(png[33...])
        let (cleaned, removed) = PhotoLocation.removed(from: withExif, format: .png)
        #expect(removed && !cleaned.contains(TestPictures.gpsMarker))
        let chunkStart = 33
        let length =
            Int(cleaned[chunkStart]) << 24 | Int(cleaned[chunkStart + 1]) << 16 | Int(cleaned[chunkStart + 2]) << 8 | Int(cleaned[chunkStart + 3])
        let typed = Array(cleaned[chunkStart + 4..<chunkStart + 8 + length])
        #expect(Array(cleaned[chunkStart + 8 + length..<chunkStart + 12 + length]) == TestPictures.be32(Int(TestPictures.crc32(typed))))
    }

    @Test func aPhotoWithoutGPSIsLeftByteForByte() {
        let original = TestPictures.jpeg(exif: TestPictures.exif(gps: false))
        let (cleaned, removed) = PhotoLocation.removed(from: original, format: .jpeg)
        #expect(!removed && cleaned == original)
    }

    @Test func aHEICLosesTheGPSOfItsExifItem() {
        let exif = TestPictures.exif()
        // ftyp, meta (hdlr, iinf with one infe v2 of type Exif, iloc v0 placing item 1), then mdat with the item.
        let infe = Self.box("infe", [2, 0, 0, 0] + TestPictures.be16(1) + [0, 0] + Array("Exif".utf8) + [0])
        let iinf = Self.box("iinf", [0, 0, 0, 0] + TestPictures.be16(1) + infe)
        let item = TestPictures.be32(0) + exif
        func meta(_ offset: Int) -> [UInt8] {
            let iloc = Self.box(
                "iloc",
                [0, 0, 0, 0, 0x44, 0x00] + TestPictures.be16(1) + TestPictures.be16(1) + [0, 0] + TestPictures.be16(1)
                    + TestPictures.be32(offset) + TestPictures.be32(item.count)
            )
            return Self.box("meta", [0, 0, 0, 0] + Self.box("hdlr", [UInt8](repeating: 0, count: 24)) + iinf + iloc)
        }
        let head = Self.ftyp("heic") + meta(0)
        let file = Self.ftyp("heic") + meta(head.count + 8) + Self.box("mdat", item)
        #expect(file.contains(TestPictures.gpsMarker))
        let (cleaned, removed) = PhotoLocation.removed(from: file, format: .heic)
        #expect(removed && cleaned.count == file.count && !cleaned.contains(TestPictures.gpsMarker))
    }

    /// Found by the media header fuzzer (Fuzz/corpus/mediaheaders/regression-heic-iloc-negative-length): an
    /// eight-byte extent length with its top bit set read as a negative number and made a backwards range.
    @Test func aHEICExtentOfNegativeOrHugeNumbersIsIgnored() {
        let infe = Self.box("infe", [2, 0, 0, 0] + TestPictures.be16(1) + [0, 0] + Array("Exif".utf8) + [0])
        let iinf = Self.box("iinf", [0, 0, 0, 0] + TestPictures.be16(1) + infe)
        for (offset, length) in [
            ([UInt8](repeating: 0, count: 8), [UInt8](repeating: 0xFF, count: 8)),
            ([0xFF] + [UInt8](repeating: 0, count: 7), [0, 0, 0, 0, 0, 0, 0, 9]),
        ] {
            // Offsets and lengths of eight bytes each (0x88).
            let iloc = Self.box(
                "iloc",
                [0, 0, 0, 0, 0x88, 0x00] + TestPictures.be16(1) + TestPictures.be16(1) + [0, 0] + TestPictures.be16(1) + offset + length
            )
            let file = Self.ftyp("heic") + Self.box("meta", [0, 0, 0, 0] + Self.box("hdlr", [UInt8](repeating: 0, count: 24)) + iinf + iloc)
            #expect(PhotoLocation.removed(from: file, format: .heic).bytes == file)
        }
    }

    /// The probe's first file (about 200 bytes) ended the server: an `ispe` of 0xFFFFFFFF × 0xFFFFFFFF trapped on
    /// the multiplication while the upload measured it. It is a picture too large, named as such.
    @Test func aHEICOfTheLargestSidesAnIntHoldsIsTooLargeNotATrap() {
        let ispe = Self.box("ispe", [0, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0xFF] + [0xFF, 0xFF, 0xFF, 0xFF])
        let small = Self.box("ispe", [0, 0, 0, 0] + TestPictures.be32(64) + TestPictures.be32(48))
        let meta = Self.box("meta", [0, 0, 0, 0] + Self.box("iprp", Self.box("ipco", small + ispe)))
        let file = Self.ftyp("heic") + meta
        #expect(throws: PictureProblem("is 4294967295×4294967295 pixels; at most 16384×16384 and 50331648 pixels in all are accepted")) {
            try PictureLimit.resultPhoto.size(of: file, format: .heic)
        }
    }

    /// The probe's second file: an `iinf` of version 1 (a 4-byte entry count) with a 6-byte payload made a range
    /// whose start passed its end while the upload read the photo's orientation. So did a `meta` under 4 bytes.
    @Test func aHEICWhoseItemListOrMetaIsCutShortHasNoExif() {
        for iinf in [Self.box("iinf", [1, 0, 0, 0, 0, 0]), Self.box("iinf", [0, 0, 0, 0, 0]), Self.box("iinf", [1, 0, 0])] {
            let iloc = Self.box("iloc", [0, 0, 0, 0, 0x44, 0x00] + TestPictures.be16(0))
            let file = Self.ftyp("heic") + Self.box("meta", [0, 0, 0, 0] + iinf + iloc)
            #expect(PhotoLocation.orientation(of: file, format: .heic) == nil)
            #expect(PhotoLocation.removed(from: file, format: .heic).bytes == file)
        }
        for short in 0..<4 {
            let file = Self.ftyp("heic") + Self.box("meta", [UInt8](repeating: 0, count: short))
            #expect(PhotoLocation.orientation(of: file, format: .heic) == nil)
            #expect(throws: PictureProblem("is a HEIC image without its size (ispe)")) { try PictureLimit.resultPhoto.size(of: file, format: .heic) }
        }
    }

    /// The probe's 59 MiB MP4 of 8-byte boxes took 30 s to upload; the scanner now stops at its box limit.
    @Test func aVideoOfCountlessTinyBoxesIsRefusedAtTheBoxLimit() {
        var scanner = VideoHeaderScanner()
        scanner.consume(Self.ftyp("isom"))
        let tiny = TestPictures.be32(8) + Array("free".utf8)
        let chunk = [UInt8]((0..<8_192).flatMap { _ in tiny })
        var fed = 0
        while scanner.problem == nil && fed < 2 * VideoHeaderScanner.maximumBoxes {
            scanner.consume(chunk)
            fed += 8_192
        }
        #expect(scanner.problem == "is a video of over 100000 top-level boxes; at most 100000 are accepted")
        #expect(fed <= VideoHeaderScanner.maximumBoxes + 8_192)
        var plain = VideoHeaderScanner()
        plain.consume(TestMedia.movie(turned: false))
        #expect(plain.problem == nil && plain.header != nil)
    }

    @Test func hostileOffsetsAreIgnoredNotFollowed() {
        var exif = TestPictures.exif()
        // The GPS pointer's value (entry 3 of the first directory) pointing far past the block.
        let pointer = 8 + 2 + 12 * 2 + 8
        exif.replaceSubrange(pointer..<pointer + 4, with: TestPictures.be32(0x7FFF_FFF0))
        let file = TestPictures.jpeg(exif: exif)
        #expect(PhotoLocation.removed(from: file, format: .jpeg).bytes == file)
        #expect(PhotoLocation.removed(from: Array(file.prefix(30)), format: .jpeg).removedGPS == false)
    }

    @Test func aVideoHeaderIsReadAsItsBytesStreamPast() {
        for (turned, moovFirst) in [(true, false), (false, true)] {
            let file = TestMedia.movie(turned: turned, moovFirst: moovFirst)
            var scanner = VideoHeaderScanner()
            var position = 0
            for size in [1, 7, 3, 200, 13].cycled(until: file.count) {
                let end = min(position + size, file.count)
                scanner.consume(file[position..<end])
                position = end
                if position == file.count { break }
            }
            let expected =
                turned ? VideoHeader(durationSeconds: 5, width: 1080, height: 1920) : VideoHeader(durationSeconds: 5, width: 1920, height: 1080)
            #expect(scanner.header == expected)
        }
    }

    /// A reader that can seek passes over what the scanner does not keep: the `mdat` of a phone's video (before
    /// its `moov`) is skipped, and the same header is read from the box headers and the `moov` alone.
    @Test func aVideosPicturesArePassedOverNotRead() {
        let file = TestMedia.movie(turned: true)  // ftyp, mdat (5,000 bytes of payload), moov
        var scanner = VideoHeaderScanner()
        var position = 0
        var read = 0
        while position < file.count, !scanner.isFinished, scanner.header == nil {
            let end = min(position + 64, file.count)
            scanner.consume(file[position..<end])
            read += end - position
            position = end + scanner.skipPayload()
        }
        #expect(scanner.header == VideoHeader(durationSeconds: 5, width: 1080, height: 1920))
        #expect(read < file.count - 4_900, "read \(read) of \(file.count) bytes")
    }

    /// A movie header whose 64-bit duration is absurd (negative once read, or 2⁶³ seconds) is no header: its
    /// running time used to reach `Int(_:)` when a poster card was drawn, and trap.
    @Test func aMovieHeaderWithAnAbsurdDurationIsNone() {
        for duration: [UInt8] in [[0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0xFF, 0, 0, 0, 0, 0, 0, 1]] {
            // Version 1: 8-byte times, a timescale of 1.
            let mvhd: [UInt8] = [1, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + TestPictures.be32(1) + duration + [UInt8](repeating: 0, count: 80)
            let moov = Self.box("mvhd", mvhd)
            #expect(VideoHeader.read(moov: 0..<moov.count, in: moov) == nil)
        }
        let week: [UInt8] = [1, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + TestPictures.be32(1) + [0, 0, 0, 0] + TestPictures.be32(604_800)
        let moov = Self.box("mvhd", week + [UInt8](repeating: 0, count: 80))
        #expect(VideoHeader.read(moov: 0..<moov.count, in: moov)?.durationSeconds == 604_800)
    }

    @Test func aVideoWithoutAMovieHeaderHasNone() {
        var scanner = VideoHeaderScanner()
        scanner.consume(Self.ftyp("isom") + Self.box("mdat", [1, 2, 3]))
        #expect(scanner.header == nil)
        var broken = VideoHeaderScanner()
        broken.consume(TestPictures.be32(3) + Array("moov".utf8) + [UInt8](repeating: 0, count: 50))
        #expect(broken.header == nil)
    }
}

extension Array where Element == Int {
    /// The sizes repeated until they add up to at least `total`.
    fileprivate func cycled(until total: Int) -> [Int] {
        var sizes: [Int] = []
        var sum = 0
        while sum < total {
            for size in self {
                sizes.append(size)
                sum += size
            }
        }
        return sizes
    }
}
