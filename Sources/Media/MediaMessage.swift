import HealthwheelCore
import Reports
import Workers

/// What the server asks a media worker to do with one file. Every request carries the file whole: a worker keeps
/// nothing between requests.
enum MediaRequest: Equatable {
    /// An uploaded result photo: measured against `PictureLimit.resultPhoto`, turned by its orientation, its GPS
    /// block removed (what is stored), decoded into its two previews.
    case preparePhoto(MediaFormat, [UInt8], previewSizes: PreviewSizes)
    /// A stored photo (a client's) scaled to fit `size`, as JPEG or PNG (`MediaThumbnail.photo`).
    case photoThumbnail([UInt8], size: Int, png: Bool)
    /// A stored preview scaled to fit `size` (`MediaThumbnail.preview`).
    case previewThumbnail([UInt8], size: Int, png: Bool)
    /// A stored preview as a report shows it: PNG, JPEG and pixels, `ReportMedia.side` at most.
    case reportPicture([UInt8])
    /// A logo, as uploaded (`normalised` false: measured against `PictureLimit.logo`, scaled) or as its stored
    /// normalised copy.
    case logo([UInt8], normalised: Bool)
    /// A picture's header measured against a limit (a client's photo, one in a vCard).
    case pictureHeader([UInt8], PictureLimit)
    /// The next piece of an uploaded video, whose boxes are followed to its header (`VideoHeaderScanner`): the
    /// first piece starts a new scan; the worker answers `more` (with what to pass over) until it has the header
    /// or the last piece.
    case videoBytes([UInt8], first: Bool, last: Bool)
}

/// A media worker's answer to one request.
enum MediaReply: Equatable {
    case preparedPhoto(PreparedPhoto)
    case picture([UInt8])
    case reportPicture(png: [UInt8], bitmap: Bitmap)
    case logo(png: [UInt8], width: Int, height: Int, bitmap: Bitmap)
    case header(PictureHeader)
    /// A video's header, nil when it has none (no `moov` box, or one that says nothing readable).
    case video(VideoHeader?)
    /// Send the video's next piece, starting `skip` bytes after the end of the last one (the rest of a box whose
    /// bytes the header does not need).
    case more(skip: Int)
    /// The file is refused: the reader's or decoder's own words ("is a PNG that does not decode").
    case refused(String)
    /// The first frame a worker sends, once confined.
    case ready
}

/// The sides, in pixels, a photo's two previews fit.
public struct PreviewSizes: Sendable, Equatable {
    public var large: Int
    public var small: Int

    public init(large: Int, small: Int) {
        self.large = large
        self.small = small
    }
}

/// An uploaded photo as it is stored: its size as shown, its bytes without GPS, its two upright previews.
public struct PreparedPhoto: Sendable, Equatable {
    /// A photo's preview fits 1,024 pixels a side: the largest thumbnail, and more than a report page needs; its
    /// small preview 320: thumbnails up to this size (lists ask for 256) and report pictures are drawn from it, in
    /// half the time the preview takes.
    public static let previewSizes = PreviewSizes(large: 1024, small: 320)

    public var width: Int
    public var height: Int
    /// The photo as uploaded, without its GPS block.
    public var stored: [UInt8]
    /// JPEGs fitting `previewSizes.large` and `previewSizes.small`.
    public var largePreview: [UInt8]
    public var smallPreview: [UInt8]
}

/// The frames of a media worker's socket (`WorkerFrame`).
enum MediaMessage {
    /// The largest request: a 10 MiB photo and its fields; replies are smaller (the photo without GPS and two
    /// previews of at most a few hundred KiB).
    static let maximumFrameBytes = MediaKind.photo.maximumBytes + (4 << 20)

    static func frame(_ request: MediaRequest) -> [UInt8] {
        var writer = FrameWriter(capacity: 64)
        switch request {
        case .preparePhoto(let format, let photo, let sizes):
            writer = FrameWriter(capacity: photo.count + 64)
            writer.byte(1)
            writer.string(format.rawValue)
            writer.blob(photo)
            writer.integer(Int64(sizes.large))
            writer.integer(Int64(sizes.small))
        case .photoThumbnail(let bytes, let size, let png), .previewThumbnail(let bytes, let size, let png):
            writer = FrameWriter(capacity: bytes.count + 64)
            if case .photoThumbnail = request { writer.byte(2) } else { writer.byte(3) }
            writer.blob(bytes)
            writer.integer(Int64(size))
            writer.byte(png ? 1 : 0)
        case .reportPicture(let preview):
            writer = FrameWriter(capacity: preview.count + 64)
            writer.byte(4)
            writer.blob(preview)
        case .logo(let bytes, let normalised):
            writer = FrameWriter(capacity: bytes.count + 64)
            writer.byte(5)
            writer.blob(bytes)
            writer.byte(normalised ? 1 : 0)
        case .pictureHeader(let bytes, let limit):
            writer = FrameWriter(capacity: bytes.count + 64)
            writer.byte(6)
            writer.blob(bytes)
            writer.integer(Int64(limit.maximumWidth))
            writer.integer(Int64(limit.maximumHeight))
            writer.integer(Int64(limit.maximumPixels))
        case .videoBytes(let bytes, let first, let last):
            writer = FrameWriter(capacity: bytes.count + 64)
            writer.byte(7)
            writer.blob(bytes)
            writer.byte(first ? 1 : 0)
            writer.byte(last ? 1 : 0)
        }
        return writer.finished()
    }

    static func request(_ payload: ArraySlice<UInt8>) throws(WorkerFrameError) -> MediaRequest {
        var reader = FrameReader(payload)
        let request: MediaRequest
        switch try reader.byte() {
        case 1:
            guard let format = MediaFormat(rawValue: try reader.string()) else { throw .malformed }
            let photo = try reader.blob()
            let (large, small) = (try reader.integer(), try reader.integer())
            guard (1...Int64(1 << 16)).contains(large), (1...Int64(1 << 16)).contains(small) else { throw .malformed }
            request = .preparePhoto(format, photo, previewSizes: PreviewSizes(large: Int(large), small: Int(small)))
        case let code where code == 2 || code == 3:
            let bytes = try reader.blob()
            let size = try reader.integer()
            guard (1...Int64(1 << 16)).contains(size) else { throw .malformed }
            let png = try reader.flag()
            request = code == 2 ? .photoThumbnail(bytes, size: Int(size), png: png) : .previewThumbnail(bytes, size: Int(size), png: png)
        case 4:
            request = .reportPicture(try reader.blob())
        case 5:
            request = .logo(try reader.blob(), normalised: try reader.flag())
        case 6:
            let bytes = try reader.blob()
            let (width, height, pixels) = (try reader.integer(), try reader.integer(), try reader.integer())
            guard width > 0, height > 0, pixels > 0 else { throw .malformed }
            request = .pictureHeader(bytes, PictureLimit(maximumWidth: Int(width), maximumHeight: Int(height), maximumPixels: Int(pixels)))
        case 7:
            request = .videoBytes(try reader.blob(), first: try reader.flag(), last: try reader.flag())
        default:
            throw .malformed
        }
        guard reader.remaining == 0 else { throw .malformed }
        return request
    }

    static func frame(_ reply: MediaReply) -> [UInt8] {
        var writer = FrameWriter(capacity: 256)
        switch reply {
        case .preparedPhoto(let photo):
            writer = FrameWriter(capacity: photo.stored.count + photo.largePreview.count + photo.smallPreview.count + 64)
            writer.byte(1)
            writer.integer(Int64(photo.width))
            writer.integer(Int64(photo.height))
            writer.blob(photo.stored)
            writer.blob(photo.largePreview)
            writer.blob(photo.smallPreview)
        case .picture(let bytes):
            writer = FrameWriter(capacity: bytes.count + 16)
            writer.byte(2)
            writer.blob(bytes)
        case .reportPicture(let png, let bitmap):
            writer = FrameWriter(capacity: png.count + bitmap.pixels.count + (bitmap.jpeg?.count ?? 0) + 64)
            writer.byte(3)
            writer.blob(png)
            writer.bitmap(bitmap)
        case .logo(let png, let width, let height, let bitmap):
            writer = FrameWriter(capacity: png.count + bitmap.pixels.count + 64)
            writer.byte(4)
            writer.blob(png)
            writer.integer(Int64(width))
            writer.integer(Int64(height))
            writer.bitmap(bitmap)
        case .header(let header):
            writer.byte(5)
            writer.string(header.format.rawValue)
            writer.integer(Int64(header.width))
            writer.integer(Int64(header.height))
        case .refused(let reason):
            writer.byte(6)
            writer.string(String(reason.prefix(MediaFailure.maximumReasonLength)))
        case .ready:
            writer.byte(7)
        case .video(let header):
            writer.byte(8)
            writer.number(header?.durationSeconds)
            writer.integer(Int64(header?.width ?? 0))
            writer.integer(Int64(header?.height ?? 0))
        case .more(let skip):
            writer.byte(9)
            writer.integer(Int64(skip))
        }
        return writer.finished()
    }

    /// A worker's reply, read as untrusted: sizes within what was asked for, lengths within the frame.
    static func reply(_ payload: ArraySlice<UInt8>) throws(WorkerFrameError) -> MediaReply {
        var reader = FrameReader(payload)
        let reply: MediaReply
        switch try reader.byte() {
        case 1:
            let (width, height) = (try reader.integer(), try reader.integer())
            guard (1...Int64(1 << 16)).contains(width), (1...Int64(1 << 16)).contains(height) else { throw .malformed }
            let photo = PreparedPhoto(
                width: Int(width),
                height: Int(height),
                stored: try reader.blob(),
                largePreview: try reader.blob(),
                smallPreview: try reader.blob()
            )
            reply = .preparedPhoto(photo)
        case 2:
            reply = .picture(try reader.blob())
        case 3:
            reply = .reportPicture(png: try reader.blob(), bitmap: try reader.bitmap())
        case 4:
            let png = try reader.blob()
            let (width, height) = (try reader.integer(), try reader.integer())
            guard (1...Int64(ReportLogo.maximumSide)).contains(width), (1...Int64(ReportLogo.maximumSide)).contains(height) else { throw .malformed }
            reply = .logo(png: png, width: Int(width), height: Int(height), bitmap: try reader.bitmap())
        case 5:
            guard let format = PictureHeader.Format(rawValue: try reader.string()) else { throw .malformed }
            let (width, height) = (try reader.integer(), try reader.integer())
            guard width > 0, height > 0, width <= Int64(Int32.max), height <= Int64(Int32.max) else { throw .malformed }
            reply = .header(PictureHeader(format: format, width: Int(width), height: Int(height)))
        case 6:
            let reason = try reader.string()
            guard reason.utf8.count <= MediaFailure.maximumReasonLength * 4 else { throw .malformed }
            reply = .refused(reason)
        case 7:
            reply = .ready
        case 8:
            let seconds = try reader.number()
            let (width, height) = (try reader.integer(), try reader.integer())
            guard (0...Int64(1 << 20)).contains(width), (0...Int64(1 << 20)).contains(height) else { throw .malformed }
            if let seconds {
                guard seconds >= 0, seconds <= VideoHeader.longestSeconds else { throw .malformed }
                reply = .video(VideoHeader(durationSeconds: seconds, width: width > 0 ? Int(width) : nil, height: height > 0 ? Int(height) : nil))
            } else {
                reply = .video(nil)
            }
        case 9:
            let skip = try reader.integer()
            guard skip >= 0 else { throw .malformed }
            reply = .more(skip: Int(skip))
        default:
            throw .malformed
        }
        guard reader.remaining == 0 else { throw .malformed }
        return reply
    }
}

extension FrameWriter {
    fileprivate mutating func bitmap(_ bitmap: Bitmap) {
        integer(Int64(bitmap.width))
        integer(Int64(bitmap.height))
        integer(Int64(bitmap.stride))
        blob(bitmap.pixels)
        byte(bitmap.jpeg == nil ? 0 : 1)
        if let jpeg = bitmap.jpeg { blob(jpeg) }
    }
}

extension FrameReader {
    fileprivate mutating func flag() throws(WorkerFrameError) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw .malformed
        }
    }

    /// Pixels of at most `ReportLogo.maximumSide` a side, exactly `stride` × `height` of them.
    fileprivate mutating func bitmap() throws(WorkerFrameError) -> Bitmap {
        let (width, height, stride) = (try integer(), try integer(), try integer())
        let side = Int64(ReportLogo.maximumSide)
        guard (1...side).contains(width), (1...side).contains(height), stride >= width * 4, stride <= width * 4 + 64 else { throw .malformed }
        let pixels = try blob()
        guard pixels.count == Int(stride * height) else { throw .malformed }
        let jpeg = try flag() ? try blob() : nil
        return Bitmap(width: Int(width), height: Int(height), stride: Int(stride), pixels: pixels, jpeg: jpeg)
    }
}
