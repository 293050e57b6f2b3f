import Cryptography
import Foundation
import HealthwheelCore
import Media
import NIOPosix
import Reports
import StoreContract
import Synchronization

/// One photo or video on its way in, fed in order by the door as its bytes arrive (`append`), then `finish`ed
/// (stored, counted, answered) or `abort`ed (nothing left, nothing counted).
///
/// - The declared type is checked against the first bytes as soon as they are in (`unsupportedType`).
/// - Past the kind's limit the upload stops at once (`tooLarge`), whatever the body still holds.
/// - A video streams into its sealed file as it comes (at most about `writeBatch` of it in memory); when it ends,
///   it is read back to a media worker a piece at a time, which follows its boxes to its header (a video of too
///   many boxes is refused there).
/// - A photo streams into a sealed spool of its own (at most `photoWriteBatch` in memory), so uploads held open
///   hold no photo in memory; when it ends, it is read back and sent to a media worker, which checks its header
///   against `PictureLimit.resultPhoto`, removes its GPS block and decodes its previews (`PreparedPhoto`), and
///   only then is it stored.
/// - Sealing and writing run on NIO's thread pool, never on Swift's cooperative threads.
public final class MediaUpload: Sendable {
    private struct State: Sendable {
        var received = 0
        var prefix: [UInt8] = []
        /// Bytes not yet handed to the writer: they go in batches (`writeBatch`, `photoWriteBatch`).
        var pending: [UInt8] = []
        var ended = false
    }

    /// Where a photo's bytes wait, sealed, until they are checked and stored: an id of its own and a key that
    /// lives only in this upload (a crash leaves a file no row names, which the start-up sweep removes).
    struct Spool: Sendable {
        let id: UUID
        let key: MediaKey
    }

    /// What the upload is for.
    enum Purpose: Sendable {
        /// A new file under an id of the server's.
        case new
        /// A new file under the id the app chose, held (`MediaRepository.reserve`) until its row is stored.
        case appChosen
        /// An app sending again a file it made under an id the company's media has: compared with `stored` when
        /// it ends (a replay when the same, `id-taken` when not), its bytes written apart and never kept.
        case retry(of: MediaFile)

        var holdsAppId: Bool {
            if case .appChosen = self { true } else { false }
        }

        var keepsFile: Bool {
            if case .retry = self { false } else { true }
        }
    }

    /// A video's bytes go to the writer's thread about 1 MiB at a time, not per network read (tens of KiB):
    /// each trip to the thread pool costs two thread switches, which a 60 MiB upload would pay thousands of times.
    static let writeBatch = 1 << 20
    /// A photo's go in batches of 128 KiB (80 trips for the largest): many held open at once stay small.
    public static let photoWriteBatch = 128 << 10

    /// The file's id (time-ordered), known from the start.
    public let id: UUID
    public let format: MediaFormat
    private let result: AssessmentResult
    private let trainer: Trainer
    private let media: ResultMedia
    private let writer: any MediaWriting
    private let key: MediaKey
    /// A photo's spool, which `writer` writes to; nil for a video, which `writer` writes in place.
    private let spool: Spool?
    private let purpose: Purpose
    private let state: Mutex<State>

    init(
        id: UUID,
        format: MediaFormat,
        result: AssessmentResult,
        trainer: Trainer,
        media: ResultMedia,
        key: MediaKey,
        writer: any MediaWriting,
        spool: Spool?,
        purpose: Purpose
    ) {
        self.id = id
        self.purpose = purpose
        self.key = key
        self.spool = spool
        self.format = format
        self.result = result
        self.trainer = trainer
        self.media = media
        self.writer = writer
        state = Mutex(State())
    }

    /// The largest file this upload takes.
    public var limit: Int { format.kind.maximumBytes }

    /// The upload's bytes held in memory now (not yet handed to the writer): a batch at most, however large the
    /// file, so that uploads held open cost little memory each.
    public var bytesInMemory: Int { state.withLock { $0.pending.count } }

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
                state.pending += bytes
                guard state.pending.count >= (format.kind == .photo ? Self.photoWriteBatch : Self.writeBatch) else { return nil }
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

    /// Stores the file and its row with `caption`, and answers what is stored (`created`), or for a retry the
    /// stored file it matches (`replayed`). Throws (leaving nothing) when the file is empty or not what it says,
    /// the company's quota would be passed, the result is gone meanwhile, or a retry holds another file.
    public func finish(caption: String?) async throws -> AppChosenIds.Outcome<MediaFile> {
        do {
            let (received, prefix, pending) = try state.withLock { state in
                guard !state.ended else { throw ServiceError.conflict(slug: "upload-ended", "the upload has ended", field: "body") }
                state.ended = true
                return (state.received, state.prefix, state.pending)
            }
            guard received > 0 else { throw ServiceError.invalid("body", "is empty: send the photo or video") }
            if prefix.count < MediaFormat.signatureLength { try checkSignature(prefix) }
            let writer = self.writer
            if !pending.isEmpty {
                try await NIOThreadPool.singleton.runIfActive { try pending.withUnsafeBytes { try writer.write($0) } }
            }
            var (length, sha256) = try await NIOThreadPool.singleton.runIfActive { try writer.finish() }
            let video = spool == nil ? try await videoHeader(length: length) : nil
            var size: (width: Int, height: Int)? = video.flatMap { video in video.width.flatMap { width in video.height.map { (width, $0) } } }
            var previews: (large: [UInt8], small: [UInt8])?
            if let spool {
                // Read back when a worker is free for it, not before: at most one photo per worker is in memory.
                let (media, spooled) = (self.media, length)
                let prepared: PreparedPhoto
                do {
                    prepared = try await media.mediaWorkers.preparePhoto(format: format, company: result.companyId) {
                        try media.spooledBytes(spool, length: spooled)
                    }
                } catch {
                    throw error.invalid("body")
                }
                await media.discard(spool.id)
                size = (prepared.width, prepared.height)
                if purpose.keepsFile {
                    previews = (prepared.largePreview, prepared.smallPreview)
                    (length, sha256) = try await media.store(prepared.stored, .original, of: id, key: key)
                } else {
                    let stored = prepared.stored
                    (length, sha256) = (stored.count, try await NIOThreadPool.singleton.runIfActive { SHA256.digest(stored).hexString })
                }
            }
            if case .retry(let first) = purpose {
                await media.discard(id)
                // The file as stored now (its caption may have changed while this came in): the same file to the
                // same result with the same caption is the first upload, sent again.
                guard let (stored, _) = try await media.media.find(first.id, in: result.companyId) else {
                    throw AppChosenIds.removed("media file")
                }
                guard stored.resultId == result.id, stored.sha256 == sha256, stored.caption == caption else {
                    throw AppChosenIds.taken("media file")
                }
                return .replayed(stored)
            }
            let previewBytes = try await previews.asyncMap { try await media.store($0.large, .preview, of: id, key: key).length }
            let smallPreviewBytes = try await previews.asyncMap { try await media.store($0.small, .small, of: id, key: key).length }
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
            return .created(file)
        } catch {
            await abort()
            throw error
        }
    }

    /// The stored video's header, read by a media worker as the file is read back a piece at a time.
    private func videoHeader(length: Int) async throws -> VideoHeader? {
        let (storage, id, key) = (media.storage, self.id, self.key)
        let reader = try await NIOThreadPool.singleton.runIfActive { try storage.open(id, key: key, length: length) }
        defer { reader.close() }
        do {
            return try await media.mediaWorkers.videoHeader(length: length, company: result.companyId) { try reader.read($0) }
        } catch {
            throw error.invalid("body")
        }
    }

    /// Drops the upload: its partial file, or the stored file when its row could not be kept.
    public func abort() async {
        state.withLock { $0.ended = true }
        let writer = self.writer
        _ = try? await NIOThreadPool.singleton.runIfActive { writer.abort() }
        if let spool { await media.discard(spool.id) }
        await media.discard(id)
        if purpose.holdsAppId { try? await media.media.release(id) }
    }
}
