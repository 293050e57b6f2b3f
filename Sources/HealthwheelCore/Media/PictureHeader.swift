/// What a picture's header says it is: its format and its size in pixels, read from the first bytes without
/// decoding anything. Decoders allocate width × height pixels from these numbers before reading a row, so every
/// picture the server accepts is measured here first (`PictureLimit`).
///
/// Reading is linear in the input and never trusts a length that runs past the bytes given: a PNG's size is in
/// its first chunk (IHDR, checksum verified); a JPEG's is in its frame header (SOFn), found by walking the
/// segments before it.
public struct PictureHeader: Sendable, Equatable {
    /// The formats the server accepts: logos are PNG, client photos PNG or JPEG.
    public enum Format: String, Sendable {
        case png, jpeg

        /// `image/png`, `image/jpeg`.
        public var mediaType: String { "image/\(rawValue)" }
    }

    /// What the signature says: PNG or JPEG (a file's declared type is not trusted).
    public var format: Format
    /// Pixels, as the header states them: 1 or more (up to 2³¹ − 1 for a PNG, 65,535 for a JPEG); not yet limited.
    public var width: Int
    /// Pixels, as the header states them: 1 or more; a JPEG that gives its height only after the data is refused.
    public var height: Int

    /// A header as given; `read(_:)` is how one is made from bytes.
    public init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// The header of `bytes`, or why there is none that can be trusted.
    public static func read(_ bytes: [UInt8]) throws(PictureProblem) -> PictureHeader {
        if bytes.starts(with: pngSignature) { return try readPNG(bytes) }
        if bytes.starts(with: [0xFF, 0xD8]) { return try readJPEG(bytes) }
        if !bytes.isEmpty, pngSignature.starts(with: bytes) { throw PictureProblem("is a PNG that ends inside its signature") }
        throw PictureProblem("is not a PNG or JPEG image")
    }

    // MARK: - PNG

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The signature, then IHDR, which must be the first chunk: length 13, type, width, height, bit depth, colour
    /// type, compression, filter, interlace, CRC.
    private static func readPNG(_ bytes: [UInt8]) throws(PictureProblem) -> PictureHeader {
        let headerEnd = 8 + 4 + 4 + 13 + 4
        guard bytes.count >= headerEnd else { throw PictureProblem("is a PNG that ends inside its header (IHDR)") }
        guard bigEndian(bytes, at: 8, count: 4) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw PictureProblem("is a PNG whose first chunk is not a 13-byte header (IHDR)")
        }
        guard crc32(bytes[12..<29]) == UInt32(bigEndian(bytes, at: 29, count: 4)) else {
            throw PictureProblem("is a PNG whose header (IHDR) does not match its checksum")
        }
        let width = bigEndian(bytes, at: 16, count: 4)
        let height = bigEndian(bytes, at: 20, count: 4)
        // The PNG specification allows 1 to 2^31 - 1 on each side.
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
            throw PictureProblem("is a PNG whose header gives a width or height of 0 or over 2^31 - 1")
        }
        let (depth, colourType) = (bytes[24], bytes[25])
        let depths: [UInt8: Set<UInt8>] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard depths[colourType]?.contains(depth) == true, bytes[26] == 0, bytes[27] == 0, bytes[28] <= 1 else {
            throw PictureProblem("is a PNG whose header (IHDR) has a colour type, bit depth or method PNG does not define")
        }
        return PictureHeader(format: .png, width: width, height: height)
    }

    /// CRC-32 as PNG computes it over a chunk's type and data (ISO 3309, polynomial 0xEDB88320).
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    // MARK: - JPEG

    /// Walks the segments after SOI to the first frame header (SOF0–SOF15 but DHT, JPG and DAC), which holds the
    /// height and width. Each step moves forward by at least one byte, so the walk is linear; a segment whose
    /// length runs past the bytes is a truncated file, not a reason to look further.
    private static func readJPEG(_ bytes: [UInt8]) throws(PictureProblem) -> PictureHeader {
        let truncated = PictureProblem("is a JPEG that ends before its frame header (SOF)")
        var position = 2
        while true {
            guard position < bytes.count else { throw truncated }
            guard bytes[position] == 0xFF else {
                throw PictureProblem("is a JPEG with bytes between its segments where a marker should be")
            }
            // Any number of 0xFF may pad the space before a marker.
            while position < bytes.count && bytes[position] == 0xFF { position += 1 }
            guard position < bytes.count else { throw truncated }
            let marker = bytes[position]
            position += 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // TEM and RSTn stand alone, without a length
            case 0x00, 0xD8:
                throw PictureProblem("is a JPEG with a misplaced marker before its frame header")
            case 0xD9:
                throw PictureProblem("is a JPEG that ends (EOI) before its frame header (SOF)")
            case 0xDA:
                throw PictureProblem("is a JPEG whose image data (SOS) comes before its frame header (SOF)")
            default:
                break
            }
            guard position + 2 <= bytes.count else { throw truncated }
            // The length counts its own two bytes.
            let length = bigEndian(bytes, at: position, count: 2)
            guard length >= 2 else { throw PictureProblem("is a JPEG with a segment length under 2") }
            guard position + length <= bytes.count else { throw truncated }
            if isFrameHeader(marker) {
                // Precision (1), height (2), width (2), components (1), then 3 bytes per component.
                guard length >= 8, length == 8 + 3 * Int(bytes[position + 7]), bytes[position + 7] > 0 else {
                    throw PictureProblem("is a JPEG whose frame header (SOF) has the wrong length")
                }
                let height = bigEndian(bytes, at: position + 3, count: 2)
                let width = bigEndian(bytes, at: position + 5, count: 2)
                guard width > 0 else { throw PictureProblem("is a JPEG whose frame header (SOF) gives a width of 0") }
                guard height > 0 else {
                    throw PictureProblem("is a JPEG that gives its height only after the image data (DNL), which is not accepted")
                }
                return PictureHeader(format: .jpeg, width: width, height: height)
            }
            position += length
        }
    }

    /// SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    private static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }
}

/// Why a picture is refused, worded to follow the field it came in: "body: is a PNG that ends inside its header".
public struct PictureProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, worded to follow a field name: "is not a PNG or JPEG image".
    public var reason: String

    /// A problem worded to follow a field name (lower-case start, no full stop).
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason alone, so `"\(field): \(problem)"` reads as a sentence.
    public var description: String { reason }
}

/// The most pixels a kind of picture may have, checked on its header before anything decodes it: a decoder's
/// memory is width × height × 4 bytes whatever the file's size (a 47 KiB PNG can say 20000 × 20000: 1.6 GB).
public struct PictureLimit: Sendable, Equatable {
    /// Pixels; a wider picture is refused before anything decodes it.
    public var maximumWidth: Int
    /// Pixels; a taller picture is refused before anything decodes it.
    public var maximumHeight: Int
    /// Width × height: a bound of its own, for limits whose sides alone would allow too much.
    public var maximumPixels: Int

    /// A limit of its own; `logo`, `clientPhoto` and `ReportLogo`'s are the ones in use.
    public init(maximumWidth: Int, maximumHeight: Int, maximumPixels: Int) {
        self.maximumWidth = maximumWidth
        self.maximumHeight = maximumHeight
        self.maximumPixels = maximumPixels
    }

    /// A company's logo: at most 2048 × 2048 pixels (16 MiB decoded).
    public static let logo = PictureLimit(maximumWidth: 2048, maximumHeight: 2048, maximumPixels: 2048 * 2048)
    /// A photo on a result: at most 16384 pixels a side (a phone's panorama) and 48 megapixels in all (a 48 MP
    /// phone camera's full size), 192 MiB decoded.
    public static let resultPhoto = PictureLimit(maximumWidth: 16384, maximumHeight: 16384, maximumPixels: 48 << 20)
    /// A client's photo: at most 8192 pixels a side and 32 megapixels in all (128 MiB decoded), which a 12 or
    /// 24 megapixel camera photo meets.
    public static let clientPhoto = PictureLimit(maximumWidth: 8192, maximumHeight: 8192, maximumPixels: 32 << 20)

    /// The header of `bytes` when it is within this limit; otherwise why not, naming the sizes.
    public func header(of bytes: [UInt8]) throws(PictureProblem) -> PictureHeader {
        let header = try PictureHeader.read(bytes)
        let size = "\(header.width)×\(header.height) pixels"
        if header.width > maximumWidth || header.height > maximumHeight {
            throw PictureProblem("is \(size); at most \(maximumWidth)×\(maximumHeight) are accepted")
        }
        if header.width * header.height > maximumPixels {
            throw PictureProblem("is \(size), \(header.width * header.height) in all; at most \(maximumPixels) are accepted")
        }
        if header.format == .jpeg { try JPEGDecodingCost.check(bytes) }
        return header
    }
}

/// What a JPEG costs to decode beyond its pixels, bounded before a decoder sees it. A progressive JPEG is decoded
/// again over the whole picture for every scan (a 252 KB file of 2,000 scans took 21 s), and libjpeg keeps the
/// APPn and COM segments it reads in a list it walks from the start for each one (30,000 Exif segments: 4.7 s).
/// Phones and encoders write at most a few dozen of either.
public enum JPEGDecodingCost {
    /// Scans (SOS) in one file: a progressive JPEG from an encoder has about 10; 64 allows every spectral split.
    public static let maximumScans = 64
    /// APPn and COM segments in one file: Exif, XMP, an ICC profile in pieces, MPF and the like.
    public static let maximumMetadataSegments = 256

    /// Walks the whole file once, linear in its bytes (entropy-coded data is skipped to its next marker), and
    /// throws when it holds more scans or metadata segments than allowed. A file cut short is not refused here:
    /// whether it decodes is the decoder's to say.
    public static func check(_ bytes: [UInt8]) throws(PictureProblem) {
        var scans = 0
        var metadata = 0
        var position = 2
        let end = bytes.count
        while position < end {
            // Image data, or stray bytes a decoder skips as well, up to the next marker.
            guard bytes[position] == 0xFF else {
                position += 1
                continue
            }
            var markerAt = position + 1
            while markerAt < end && bytes[markerAt] == 0xFF { markerAt += 1 }
            guard markerAt < end else { return }
            let marker = bytes[markerAt]
            position = markerAt + 1
            switch marker {
            case 0x00, 0x01, 0xD0...0xD7:
                continue  // a stuffed zero inside image data, TEM, RSTn: no length
            case 0xD9:
                return  // EOI
            default:
                guard position + 2 <= end else { return }
                let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
                guard length >= 2 else { return }
                if (0xE0...0xEF).contains(marker) || marker == 0xFE {
                    metadata += 1
                    if metadata > maximumMetadataSegments {
                        throw PictureProblem(
                            "is a JPEG with over \(maximumMetadataSegments) metadata segments (APPn, COM); at most \(maximumMetadataSegments) are accepted"
                        )
                    }
                }
                if marker == 0xDA {
                    scans += 1
                    if scans > maximumScans {
                        throw PictureProblem("is a progressive JPEG of over \(maximumScans) scans; at most \(maximumScans) are accepted")
                    }
                }
                position += length
            }
        }
    }
}
