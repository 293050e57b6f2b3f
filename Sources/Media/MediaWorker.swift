import Foundation
import HealthwheelCore
import Reports
import Workers

/// The media worker's side: a process that holds nothing but the file in hand, confined before it reads its first
/// request (`WorkerConfinement.media`), answering requests on fd 0 in order until the server closes it. Our own
/// readers (headers, orientation, the GPS block) and the C decoders (libjpeg, libpng, libheif through libvips;
/// cairo) run here, never in the server: a trap or a fault in any of them ends this process only.
///
/// The server's executable hosts it (`healthwheel media-worker`): its `main` calls `run()` first thing when its
/// first argument is `command`.
public enum MediaWorker {
    /// The first argument that makes the executable a media worker.
    public static let command = "media-worker"

    /// Serves the server on fd 0 and exits when it closes the socket.
    public static func run() -> Never {
        WorkerLoop.begin(.media)
        // Every library opens what it needs (libvips its modules, libheif its decoders) on a first picture of each
        // kind, while files may still be opened.
        guard warmUp() else { WorkerLoop.fail(command: command, "the decoders could not be started") }
        do {
            try WorkerConfinement.media.apply()
        } catch {
            WorkerLoop.fail(command: command, "could not confine the worker: \(error)")
        }
        WorkerLoop.send(MediaMessage.frame(.ready))
        // The one thing kept from a request to the next: the video being scanned, piece by piece.
        var video = VideoHeaderScanner()
        WorkerLoop.serve(command: command, maximumFrameBytes: MediaMessage.maximumFrameBytes) { payload in
            guard let request = try? MediaMessage.request(payload) else { return nil }
            guard case .videoBytes(let bytes, let first, let last) = request else { return MediaMessage.frame(answer(request)) }
            if first { video = VideoHeaderScanner() }
            video.consume(bytes)
            if let problem = video.problem { return MediaMessage.frame(.refused(problem)) }
            if last || video.isFinished { return MediaMessage.frame(.video(video.header)) }
            return MediaMessage.frame(.more(skip: video.skipPayload()))
        }
    }

    private static func warmUp() -> Bool {
        let requests: [MediaRequest] = [
            .preparePhoto(.jpeg, WarmUpPictures.jpeg, previewSizes: PreparedPhoto.previewSizes),
            .preparePhoto(.png, WarmUpPictures.png, previewSizes: PreparedPhoto.previewSizes),
            .preparePhoto(.heic, WarmUpPictures.heic, previewSizes: PreparedPhoto.previewSizes),
            .photoThumbnail(WarmUpPictures.jpeg, size: 16, png: true),
            .previewThumbnail(WarmUpPictures.jpeg, size: 16, png: false),
            .reportPicture(WarmUpPictures.jpeg),
            .logo(WarmUpPictures.png, normalised: false),
            .logo(WarmUpPictures.png, normalised: true),
            .pictureHeader(WarmUpPictures.png, .clientPhoto),
            .videoBytes([0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65], first: true, last: true),
        ]
        return requests.allSatisfy { request in
            if case .refused = answer(request) { return false }
            return true
        }
    }

    private static let anyID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// Does what `request` asks; a file that cannot be read or decoded is `.refused` with the reason.
    static func answer(_ request: MediaRequest) -> MediaReply {
        do {
            switch request {
            case .preparePhoto(let format, let photo, let sizes):
                return .preparedPhoto(try prepare(photo, format, previewSizes: sizes))
            case .photoThumbnail(let bytes, let size, let png):
                return .picture(try MediaThumbnail.photo(bytes, fitting: size, png: png))
            case .previewThumbnail(let bytes, let size, let png):
                return .picture(try MediaThumbnail.preview(bytes, fitting: size, png: png))
            case .reportPicture(let preview):
                let side = ReportMedia.side
                let (png, jpeg) = (try MediaThumbnail.preview(preview, fitting: side, png: true), try MediaThumbnail.preview(preview, fitting: side))
                // Decoded here as the server would: it receives the pixels, and never decodes the PNG itself.
                // (Any id: the server names it. A random one would read /dev/urandom, which the filter refuses.)
                let picture = try ReportMedia(id: Self.anyID, kind: .photo, png: png, jpeg: jpeg, caption: nil)
                return .reportPicture(png: png, bitmap: picture.bitmap)
            case .logo(let bytes, let normalised):
                let logo = normalised ? try ReportLogo(normalised: bytes) : try ReportLogo(normalising: bytes, limit: .logo)
                return .logo(png: logo.png, width: logo.width, height: logo.height, bitmap: logo.bitmap)
            case .pictureHeader(let bytes, let limit):
                return .header(try limit.header(of: bytes))
            case .videoBytes(let bytes, _, _):
                var scanner = VideoHeaderScanner()
                scanner.consume(bytes)
                return scanner.problem.map(MediaReply.refused) ?? .video(scanner.header)
            }
        } catch let problem as PictureProblem {
            return .refused(problem.reason)
        } catch let failure as ThumbnailFailure {
            return .refused("does not decode: \(failure.reason)")
        } catch {
            return .refused("does not decode: \(error)")
        }
    }

    /// A photo checked on its header against `PictureLimit.resultPhoto`, measured as shown (a photo its EXIF says
    /// to turn a quarter has its sides swapped), without its GPS block (what is stored), and decoded once into its
    /// previews (the small one made from the large): a photo that does not decode is refused, and thumbnails and
    /// reports are drawn from the small upright previews, not from the original.
    private static func prepare(_ photo: [UInt8], _ format: MediaFormat, previewSizes: PreviewSizes) throws -> PreparedPhoto {
        var (width, height) = try PictureLimit.resultPhoto.size(of: photo, format: format)
        if (5...8).contains(PhotoLocation.orientation(of: photo, format: format) ?? 1) { (width, height) = (height, width) }
        let stored = PhotoLocation.removed(from: photo, format: format).bytes
        do {
            let large = try MediaThumbnail.photo(stored, fitting: previewSizes.large)
            let small = try MediaThumbnail.preview(large, fitting: previewSizes.small)
            return PreparedPhoto(width: width, height: height, stored: stored, largePreview: large, smallPreview: small)
        } catch let failure as ThumbnailFailure {
            throw PictureProblem("does not decode as \(format.contentType): \(failure.reason)")
        }
    }
}
