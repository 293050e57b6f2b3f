import Foundation
import HealthwheelCore
import Media
import NIOPosix
import StoreContract

/// Photos and videos on results: uploading (`begin` gives a `MediaUpload`), listing, reading by range, captions,
/// deleting. Any trainer of the company may add media to its results; an admin or the trainer who recorded the
/// result may change their captions or delete them. Each company's media share a quota (`quota` bytes).
public struct ResultMedia: Sendable {
    let media: any MediaRepository
    let results: any ResultRepository
    let audit: any AuditRepository
    let storage: any MediaStorage
    let remover: MediaFileRemover
    /// Bytes each company's media may take in all.
    public let quota: Int
    let clock: any WallClock
    /// Where uploaded photos and videos are read and decoded: never in the server's process.
    let mediaWorkers: MediaWorkers

    /// 5 GiB per company unless the operator says otherwise (`HEALTHWHEEL_MEDIA_QUOTA`).
    public static let defaultQuota = 5 << 30

    public init(
        store: Repositories,
        storage: any MediaStorage,
        remover: MediaFileRemover,
        mediaWorkers: MediaWorkers,
        quota: Int = defaultQuota,
        clock: any WallClock
    ) {
        self.media = store.media
        self.results = store.results
        self.audit = store.audit
        self.mediaWorkers = mediaWorkers
        self.storage = storage
        self.remover = remover
        self.quota = quota
        self.clock = clock
    }

    /// An upload under an app's id that stopped this long ago (its node was killed mid-upload) holds it no more.
    static let uploadAbandonedAfter: TimeInterval = 3600

    /// Starts an upload to one of the company's results. `contentType` is what the client declared; `length`,
    /// when the client said it, is refused at once when over the kind's limit or the quota's room. `appId` is an id
    /// the app chose (`AppChosenIds`): a new one is held until the file is stored; one the company's media has
    /// already makes this upload a retry, compared with the stored file when it ends and never kept.
    public func begin(
        to resultId: UUID,
        by trainer: Trainer,
        contentType: String?,
        length: Int?,
        appId: UUID? = nil
    ) async throws
        -> MediaUpload
    {
        guard let result = try await results.find(resultId, in: trainer.companyId) else { throw ServiceError.notFound("result") }
        guard let contentType, let format = MediaFormat(contentType: contentType) else {
            throw ServiceError.unsupportedType(
                detail:
                    "send a photo (image/jpeg, image/png, image/heic) or a video (video/mp4, video/quicktime), as the body or one multipart/form-data file part"
            )
        }
        let limit = format.kind.maximumBytes
        if let length, length > limit {
            throw ServiceError.tooLarge(limit: limit, detail: "a \(format.kind.rawValue) may be at most \(limit) bytes (\(limit >> 20) MiB)")
        }
        let purpose = try await purpose(of: appId, for: result)
        // A retry is written apart under an id of its own, only to be compared: nothing of it is kept.
        let id = purpose.holdsAppId ? appId! : UUID.timeOrdered(at: clock.now)
        do {
            if purpose.keepsFile {
                let used = try await media.usedBytes(by: trainer.companyId)
                if used + (length ?? 1) > quota { throw Self.full(used: used, quota: quota) }
            }
            return try await start(id, format: format, result: result, by: trainer, purpose: purpose)
        } catch {
            if purpose.holdsAppId { try? await media.release(id) }
            throw error
        }
    }

    /// What an upload under `appId` is: new (the id is then held for it), or a retry of the stored file.
    private func purpose(of appId: UUID?, for result: AssessmentResult) async throws -> MediaUpload.Purpose {
        guard let appId else { return .new }
        if let (stored, _) = try await media.find(appId, in: result.companyId) { return .retry(of: stored) }
        if try await audit.wasRemoved(.media, appId, client: result.clientId, in: result.companyId) { throw AppChosenIds.removed("media file") }
        let now = clock.now
        do {
            try await media.reserve(appId, in: result.companyId, at: now, abandonedBefore: now.addingTimeInterval(-Self.uploadAbandonedAfter))
        } catch is RecordIdTaken {
            throw AppChosenIds.taken("media file")
        }
        return .appChosen
    }

    private func start(
        _ id: UUID,
        format: MediaFormat,
        result: AssessmentResult,
        by trainer: Trainer,
        purpose: MediaUpload.Purpose
    ) async throws
        -> MediaUpload
    {
        let key = MediaKey.random()
        // A photo arrives into a spool of its own (another id, a key only this upload holds), since it is stored
        // only once its GPS block is out; a video goes straight to its file.
        let spool = format.kind == .photo ? MediaUpload.Spool(id: UUID.timeOrdered(at: clock.now), key: MediaKey.random()) : nil
        let storage = self.storage
        let writer = try await NIOThreadPool.singleton.runIfActive { try storage.create(spool?.id ?? id, key: spool?.key ?? key) }
        return MediaUpload(
            id: id,
            format: format,
            result: result,
            trainer: trainer,
            media: self,
            key: key,
            writer: writer,
            spool: spool,
            purpose: purpose
        )
    }

    /// A spooled photo's bytes, read whole (blocking: called on a media worker's thread in the server).
    func spooledBytes(_ spool: MediaUpload.Spool, length: Int) throws -> [UInt8] {
        let reader = try storage.open(spool.id, key: spool.key, length: length)
        defer { reader.close() }
        return try reader.read(0..<length)
    }

    static func full(used: Int, quota: Int) -> ServiceError {
        .storageFull(detail: "the company's media take \(used) of its \(quota) bytes; delete photos or videos to make room")
    }

    /// Keeps a stored file's row, under the quota.
    func keep(_ file: MediaFile, key: MediaKey) async throws {
        do {
            let audit = AuditEvent.about(
                file.clientId,
                in: file.companyId,
                .created,
                .media,
                id: file.id,
                by: .trainer(file.createdBy),
                at: file.createdAt
            )
            try await media.insert(file, key: key, quota: quota, audit: audit)
        } catch let reached as MediaQuotaReached {
            throw Self.full(used: reached.used, quota: reached.quota)
        } catch {
            // The result (or its client) was deleted while the file came in.
            guard try await results.find(file.resultId, in: file.companyId) != nil else { throw ServiceError.notFound("result") }
            throw error
        }
    }

    /// Seals `bytes` as the `variant` of `id` (a photo as stored, or one of its previews); returns its length and
    /// SHA-256.
    func store(_ bytes: [UInt8], _ variant: MediaVariant, of id: UUID, key: MediaKey) async throws -> (length: Int, sha256: String) {
        let storage = self.storage
        return try await NIOThreadPool.singleton.runIfActive {
            let writer = try storage.create(id, key: key, variant: variant)
            do {
                try bytes.withUnsafeBytes { try writer.write($0) }
                return try writer.finish()
            } catch {
                writer.abort()
                throw error
            }
        }
    }

    /// The smallest of the photo's previews that holds `size` pixels a side (`PreparedPhoto.previewSizes`: the
    /// small one up to its side, else the large one), read whole; nil for a video.
    func preview(of file: MediaFile, key: MediaKey, fitting size: Int) async throws -> [UInt8]? {
        let (variant, length): (MediaVariant, Int?) =
            size <= PreparedPhoto.previewSizes.small && file.smallPreviewBytes != nil
            ? (.small, file.smallPreviewBytes) : (.preview, file.previewBytes)
        guard let length else { return nil }
        let storage = self.storage
        return try await NIOThreadPool.singleton.runIfActive {
            try storage.open(file.id, key: key, length: length, variant: variant).read(0..<length)
        }
    }

    /// Removes a file that has no row (an upload that failed after its bytes were stored).
    func discard(_ id: UUID) async {
        let storage = self.storage
        _ = try? await NIOThreadPool.singleton.runIfActive { try storage.remove([id]) }
    }

    /// The media of each of `results` (of `company`), by result id, in one read: a page of results with their photos.
    public func list(results: [UUID], in company: UUID) async throws -> [UUID: [MediaFile]] {
        guard !results.isEmpty else { return [:] }
        return try await media.list(results: results, in: company)
    }

    /// The result's media in upload order.
    public func list(result: UUID, in company: UUID) async throws -> [MediaFile] {
        guard try await results.find(result, in: company) != nil else { throw ServiceError.notFound("result") }
        return try await media.list(result: result, in: company)
    }

    public func find(_ id: UUID, in company: UUID) async throws -> MediaFile {
        try await stored(id, in: company).file
    }

    /// The file's row and the key its bytes open with; `notFound` outside the company.
    func stored(_ id: UUID, in company: UUID) async throws -> (file: MediaFile, key: MediaKey) {
        guard let stored = try await media.find(id, in: company) else { throw ServiceError.notFound("media") }
        return stored
    }

    /// The file and its bytes, opened to read ranges (close the reader when done).
    public func open(_ id: UUID, in company: UUID) async throws -> (file: MediaFile, reader: any MediaReading) {
        let (file, key) = try await stored(id, in: company)
        let storage = self.storage
        let reader = try await NIOThreadPool.singleton.runIfActive { try storage.open(id, key: key, length: file.bytes) }
        return (file, reader)
    }

    /// Reads `range` of an open file off the cooperative threads, as pieces of at most one chunk.
    public func read(_ reader: any MediaReading, _ range: Range<Int>) async throws -> [[UInt8]] {
        try await NIOThreadPool.singleton.runIfActive { try reader.readPieces(range) }
    }

    /// Reads `range` of an open file a step at a time (about 1 MiB of whole sealed chunks per trip to the thread
    /// pool) and hands each step's pieces to `send` before reading on, so a file of any size holds one step.
    public func stream(_ reader: any MediaReading, _ range: Range<Int>, to send: ([[UInt8]]) async throws -> Void) async throws {
        let step = reader.chunkSize * max(1, (1 << 20) / reader.chunkSize)
        var position = range.lowerBound
        while position < range.upperBound {
            let end = min(range.upperBound, (position / reader.chunkSize) * reader.chunkSize + step)
            try await send(try await read(reader, position..<end))
            position = end
        }
    }

    public func setCaption(_ raw: String?, of id: UUID, by trainer: Trainer) async throws -> MediaFile {
        let caption: String?
        do {
            caption = try MediaFile.caption(raw)
        } catch {
            throw ServiceError.invalid(error.errors)
        }
        try await requireOwner(id, trainer, to: "change its caption")
        let now = clock.now
        let audit = { (file: MediaFile) in
            AuditEvent.about(file.clientId, in: file.companyId, .changed, .media, id: file.id, by: .trainer(trainer.id), at: now)
        }
        guard let file = try await media.setCaption(caption, of: id, in: trainer.companyId, at: now, audit: audit) else {
            throw ServiceError.notFound("media")
        }
        return file
    }

    public func delete(_ id: UUID, by trainer: Trainer) async throws {
        try await requireOwner(id, trainer, to: "delete it")
        let now = clock.now
        let audit = { (file: MediaFile) in
            AuditEvent.about(file.clientId, in: file.companyId, .deleted, .media, id: file.id, by: .trainer(trainer.id), at: now)
        }
        guard try await media.delete(id, in: trainer.companyId, audit: audit) != nil else { throw ServiceError.notFound("media") }
        try await remover.removeFiles()
    }

    /// An admin, or the trainer who recorded the result (as for deleting the result itself).
    private func requireOwner(_ id: UUID, _ trainer: Trainer, to action: String) async throws {
        let file = try await find(id, in: trainer.companyId)
        guard trainer.role != .admin else { return }
        let result = try await results.find(file.resultId, in: trainer.companyId)
        guard result?.trainerId == trainer.id else {
            throw ServiceError.forbidden(detail: "only an admin or the trainer who recorded the result can \(action)")
        }
    }
}
