/// What a result's media file is: a photo or a video.
public enum MediaKind: String, Sendable, Codable, CaseIterable {
    case photo, video

    /// The largest file of the kind: 10 MiB for a photo, 60 MiB for a video (five seconds of 4K is about 30 MiB).
    public var maximumBytes: Int {
        switch self {
        case .photo: 10 << 20
        case .video: 60 << 20
        }
    }
}

/// The file formats a result's media may have. A file is told by its first bytes; the type a client declares must
/// be the one those bytes show.
public enum MediaFormat: String, Sendable, CaseIterable {
    case jpeg, png, heic, mp4, quicktime

    /// The media type as uploaded and served (`image/jpeg`, `video/quicktime`).
    public var contentType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .heic: "image/heic"
        case .mp4: "video/mp4"
        case .quicktime: "video/quicktime"
        }
    }

    /// The usual file name extension (`jpg`, `mov`): how a file is named outside the server (an export).
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .heic: "heic"
        case .mp4: "mp4"
        case .quicktime: "mov"
        }
    }

    /// Photo or video.
    public var kind: MediaKind {
        switch self {
        case .jpeg, .png, .heic: .photo
        case .mp4, .quicktime: .video
        }
    }

    /// The format a `Content-Type` names (parameters and case ignored), or nil for any other type.
    public init?(contentType: String) {
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { String($0).trimmingWhiteSpace().lowercased() } ?? ""
        guard let format = Self.allCases.first(where: { $0.contentType == type }) else { return nil }
        self = format
    }

    /// Bytes `sniff` needs: an ISO media file's first box header and brand.
    public static let signatureLength = 12

    /// The format the first bytes of a file show, or nil when they show none of these.
    public static func sniff(_ prefix: some Collection<UInt8>) -> MediaFormat? {
        let bytes = Array(prefix.prefix(signatureLength))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        guard bytes.count >= 12 else { return nil }
        let box = String(decoding: bytes[4..<8], as: UTF8.self)
        // A QuickTime movie from before `ftyp` existed starts with one of its other top-level atoms.
        if ["moov", "mdat", "wide", "free", "skip"].contains(box) { return .quicktime }
        guard box == "ftyp" else { return nil }
        let brand = String(decoding: bytes[8..<12], as: UTF8.self)
        if heicBrands.contains(brand) { return .heic }
        if brand == "qt  " { return .quicktime }
        if mp4Brands.contains(brand) { return .mp4 }
        return nil
    }

    /// Major brands of HEIF images with HEVC pictures, as phones write them.
    static let heicBrands: Set = ["heic", "heix", "heim", "heis", "mif1", "msf1"]
    /// Major brands of MPEG-4 files (ISO base media, MP4 versions 1 and 2, H.264 and 3GPP variants).
    static let mp4Brands: Set = [
        "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "mmp4", "dash", "3gp4", "3gp5", "3gp6",
    ]
}

extension PictureLimit {
    /// A photo's size from its header (JPEG, PNG; HEIC's largest image spatial extent, `ispe`) when within this
    /// limit; otherwise why not. Nothing is decoded.
    public func size(of bytes: [UInt8], format: MediaFormat) throws(PictureProblem) -> (width: Int, height: Int) {
        guard format == .heic else {
            let header = try header(of: bytes)
            return (header.width, header.height)
        }
        guard let size = HEICSize.read(bytes) else { throw PictureProblem("is a HEIC image without its size (ispe)") }
        let text = "\(size.width)×\(size.height) pixels"
        if size.width > maximumWidth || size.height > maximumHeight || size.width * size.height > maximumPixels {
            throw PictureProblem("is \(text); at most \(maximumWidth)×\(maximumHeight) and \(maximumPixels) pixels in all are accepted")
        }
        return size
    }
}

/// A HEIC image's size: the largest `ispe` (image spatial extents) among its item properties (meta → iprp →
/// ipco), which bounds every image a decoder could be asked for (the primary image and its tiles).
enum HEICSize {
    static func read(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard let meta = ISOBoxes.children(of: 0..<bytes.count, in: bytes).first(where: { $0.type == "meta" }),
            meta.payload.count > 4,
            let iprp = ISOBoxes.children(of: meta.payload.lowerBound + 4..<meta.payload.upperBound, in: bytes).first(where: { $0.type == "iprp" }),
            let ipco = ISOBoxes.children(of: iprp.payload, in: bytes).first(where: { $0.type == "ipco" })
        else { return nil }
        var largest: (width: Int, height: Int, pixels: Int)?
        for ispe in ISOBoxes.children(of: ipco.payload, in: bytes) where ispe.type == "ispe" {
            var reader = ISOReader(bytes: bytes, range: ispe.payload)
            guard reader.skip(4), let width = reader.read(4), let height = reader.read(4), width > 0, height > 0 else { return nil }
            // Each side is up to 2^32 - 1, so the product can pass Int.max: such a picture is simply the largest.
            let (product, overflow) = width.multipliedReportingOverflow(by: height)
            let pixels = overflow ? Int.max : product
            if pixels > (largest?.pixels ?? 0) { largest = (width, height, pixels) }
        }
        return largest.map { ($0.width, $0.height) }
    }
}
