import Foundation
import HealthwheelCore
import NIOPosix
import Reports
import Store
import Synchronization

/// One photo or video on its way in, fed in order by the door as its bytes arrive (`append`), then `finish`ed
/// (stored, counted, answered) or `abort`ed (nothing left, nothing counted).
///
/// - The declared type is checked against the first bytes as soon as they are in (`unsupportedType`).
/// - Past the kind's limit the upload stops at once (`tooLarge`), whatever the body still holds.
/// - A video streams into its sealed file as it comes (at most about `writeBatch` of it in memory) while its
///   header is read on the way; a photo (at most 10 MiB) is held until it ends, so its header is checked against
///   `PictureLimit.resultPhoto` and its GPS block removed before one byte is stored.
/// - Sealing and writing run on NIO's thread pool, never on Swift's cooperative threads.
public final class MediaUpload: Sendable {
    private struct State: Sendable {
        var received = 0
        var prefix: [UInt8] = []
        var photo: [UInt8] = []
        var scanner = VideoHeaderScanner()
        /// A video's bytes not yet handed to the writer: they go in batches of `writeBatch`.
        var pending: [UInt8] = []
        var ended = false
    }

    /// A video's bytes go to the writer's thread about 1 MiB at a time, not per network read (tens of KiB):
    /// each trip to the thread pool costs two thread switches, which a 60 MiB upload would pay thousands of times.
    static let writeBatch = 1 << 20

    /// The file's id (time-ordered), known from the start.
    public let id: UUID
    public let format: MediaFormat
    private let result: AssessmentResult
    private let trainer: Trainer
    private let media: ResultMedia
    private let writer: any MediaWriting
    private let key: MediaKey
    private let state: Mutex<State>

    init(id: UUID, format: MediaFormat, result: AssessmentResult, trainer: Trainer, media: ResultMedia, key: MediaKey, writer: any MediaWriting) {
        self.id = id
        self.key = key
        self.format = format
        self.result = result
        self.trainer = trainer
        self.media = media
        self.writer = writer
        state = Mutex(State())
    }

    /// The largest file this upload takes.
    public var limit: Int { format.kind.maximumBytes }

    /// The next bytes of the file. Throws (and leaves nothing behind) when they pass the limit or show another
    /// type than declared.
    public func append(_ bytes: [UInt8]) async throws {
        do {
            let toWrite: [UInt8]? = try state.withLock { state in
                precondition(!state.ended, "append after the upload ended")
                state.received += bytes.count
                guard state.received <= limit else {
                    throw ServiceError.tooLarge(limit: limit, detail: "a \(format.kind.rawValue) may be at most \(limit) bytes (\(limit >> 20) MiB)")
                }
                if state.prefix.count < MediaFormat.signatureLength {
                    state.prefix += bytes.prefix(MediaFormat.signatureLength - state.prefix.count)
                    if state.prefix.count == MediaFormat.signatureLength { try checkSignature(state.prefix) }
                }
                if format.kind == .photo {
                    state.photo += bytes
                    return nil
                }
                state.scanner.consume(bytes)
                if let problem = state.scanner.problem { throw ServiceError.invalid("body", problem) }
                state.pending += bytes
                guard state.pending.count >= Self.writeBatch else { return nil }
                defer { state.pending = [] }
                return state.pending
            }
            if let toWrite {
                let writer = self.writer
                try await NIOThreadPool.singleton.runIfActive { try toWrite.withUnsafeBytes { try writer.write($0) } }
            }
        } catch {
            await abort()
            throw error
        }
    }

    private func checkSignature(_ prefix: [UInt8]) throws {
        let found = MediaFormat.sniff(prefix)
        guard found == format else {
            let what = found.map { "a \($0.contentType) file" } ?? "none of image/jpeg, image/png, image/heic, video/mp4, video/quicktime"
            throw ServiceError.unsupportedType(detail: "the body was declared \(format.contentType) but its bytes are \(what)")
        }
    }

    /// Stores the file and its row with `caption`, and answers what is stored. Throws (leaving nothing) when the
    /// file is empty or not what it says, the company's quota would be passed, or the result is gone meanwhile.
    public func finish(caption: String?) async throws -> MediaFile {
        do {
            let (received, prefix, photo, video, pending) = try state.withLock { state in
                guard !state.ended else { throw ServiceError.conflict(slug: "upload-ended", "the upload has ended", field: "body") }
                state.ended = true
                return (state.received, state.prefix, state.photo, state.scanner.header, state.pending)
            }
            guard received > 0 else { throw ServiceError.invalid("body", "is empty: send the photo or video") }
            if prefix.count < MediaFormat.signatureLength { try checkSignature(prefix) }
            var size: (width: Int, height: Int)?
            var previews: (large: [UInt8], small: [UInt8])?
            if format.kind == .photo {
                // Measuring, cleaning and decoding a photo of up to 10 MiB is milliseconds of work: a drawing thread's.
                let format = self.format
                let prepared = try await PictureQueue.run { try Self.prepare(photo, format) }
                size = prepared.size
                previews = prepared.previews
                let writer = self.writer
                try await NIOThreadPool.singleton.runIfActive { try prepared.stored.withUnsafeBytes { try writer.write($0) } }
            } else {
                if !pending.isEmpty {
                    let writer = self.writer
                    try await NIOThreadPool.singleton.runIfActive { try pending.withUnsafeBytes { try writer.write($0) } }
                }
                size = video.flatMap { video in video.width.flatMap { width in video.height.map { (width, $0) } } }
            }
            let writer = self.writer
            let (length, sha256) = try await NIOThreadPool.singleton.runIfActive { try writer.finish() }
            let previewBytes = try await previews.asyncMap { try await media.storePreview($0.large, .preview, of: id, key: key) }
            let smallPreviewBytes = try await previews.asyncMap { try await media.storePreview($0.small, .small, of: id, key: key) }
            let file = MediaFile(
                id: id,
                companyId: result.companyId,
                clientId: result.clientId,
                resultId: result.id,
                format: format,
                bytes: length,
                sha256: sha256,
                width: size?.width,
                height: size?.height,
                durationSeconds: video?.durationSeconds,
                caption: caption,
                previewBytes: previewBytes,
                smallPreviewBytes: smallPreviewBytes,
                createdBy: trainer.id,
                createdAt: media.clock.now
            )
            try await media.keep(file, key: key)
            return file
        } catch {
            await abort()
            throw error
        }
    }

    /// A photo checked on its header against `PictureLimit.resultPhoto`, measured as shown (a photo its EXIF says
    /// to turn a quarter has its sides swapped), without its GPS block (what is stored), and decoded once into its
    /// previews (the small one made from the large): a photo that does not decode is refused, and thumbnails and
    /// reports are drawn from the small upright previews, not from the original.
    private static func prepare(
        _ photo: [UInt8],
        _ format: MediaFormat
    ) throws -> (size: (width: Int, height: Int), stored: [UInt8], previews: (large: [UInt8], small: [UInt8])) {
        var size: (width: Int, height: Int)
        do {
            size = try PictureLimit.resultPhoto.size(of: photo, format: format)
        } catch {
            throw ServiceError.invalid("body", error.reason)
        }
        if (5...8).contains(PhotoLocation.orientation(of: photo, format: format) ?? 1) { size = (size.height, size.width) }
        let stored = PhotoLocation.removed(from: photo, format: format).bytes
        do {
            let large = try MediaThumbnail.photo(stored, fitting: ResultMedia.previewSize)
            return (size, stored, (large, try MediaThumbnail.preview(large, fitting: ResultMedia.smallPreviewSize)))
        } catch let failure as ThumbnailFailure {
            throw ServiceError.invalid("body", "does not decode as \(format.contentType): \(failure.reason)")
        }
    }

    /// Drops the upload: its partial file, or the stored file when its row could not be kept.
    public func abort() async {
        state.withLock { $0.ended = true }
        let writer = self.writer
        _ = try? await NIOThreadPool.singleton.runIfActive { writer.abort() }
        await media.discard(id)
    }
}

extension Optional {
    /// `map` with an asynchronous transform.
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
