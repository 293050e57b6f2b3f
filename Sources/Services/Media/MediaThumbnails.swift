import Foundation
import HealthwheelCore
import Media
import Reports

/// Thumbnails of result media: a photo's preview scaled down (JPEG) by a media worker, a video's poster card (PNG)
/// drawn on the drawing threads (`PictureQueue`), never on the cooperative pool; kept in memory (up to `cacheBytes`, the least
/// recently used go first): a stored file never changes, so a thumbnail stays right until its file is deleted.
public struct MediaThumbnails: Sendable {
    let media: ResultMedia
    private let cache: MemoryLimitedCache<Thumbnail>
    private let reportPictures: MemoryLimitedCache<ReportMedia>

    /// A thumbnail as served.
    public struct Thumbnail: Sendable {
        public var contentType: String
        public var bytes: [UInt8]
        /// Changes with the file and the size: the response's ETag.
        public var tag: String
    }

    public static let defaultSize = 256

    /// `cacheBytes` for the API's thumbnails and as much again for reports' pictures.
    public init(media: ResultMedia, cacheBytes: Int = 32 << 20) {
        self.media = media
        cache = MemoryLimitedCache(limit: cacheBytes)
        reportPictures = MemoryLimitedCache(limit: cacheBytes)
    }

    /// The file's thumbnail fitting `size` × `size`; `invalid("size")` outside `MediaThumbnail.sizes`.
    public func thumbnail(of id: UUID, in company: UUID, size: Int) async throws -> Thumbnail {
        guard MediaThumbnail.sizes.contains(size) else {
            throw ServiceError.invalid("size", "must be \(MediaThumbnail.sizes.lowerBound) to \(MediaThumbnail.sizes.upperBound) pixels")
        }
        let (file, key) = try await media.stored(id, in: company)
        return try await cache.value(for: "\(file.id)-\(size)", cost: \.bytes.count) { [media] in
            switch file.kind {
            case .photo:
                // From a stored preview (upright, 320 or 1024 pixels a side): a few milliseconds, whatever the photo.
                guard let preview = try await media.preview(of: file, key: key, fitting: size) else { throw ServiceError.notFound("media") }
                let jpeg: [UInt8]
                do throws(MediaFailure) {
                    jpeg = try await media.mediaWorkers.previewThumbnail(preview, fitting: size, company: company)
                } catch {
                    throw error.invalid("id")
                }
                return Thumbnail(contentType: "image/jpeg", bytes: jpeg, tag: "\"\(file.sha256.prefix(32))-\(size)\"")
            case .video:
                let png = try await PictureQueue.run {
                    try MediaThumbnail.video(width: file.width, height: file.height, durationSeconds: file.durationSeconds, fitting: size)
                }
                return Thumbnail(contentType: "image/png", bytes: png, tag: "\"\(file.sha256.prefix(32))-\(size)-card\"")
            }
        }
    }

    /// Drops the thumbnails and report pictures of `files` (an erased client's): their keys start with the id.
    func forget(_ files: [UUID]) {
        let ids = Set(files.map(\.uppercaseHyphenated))
        let named = { (key: String) in ids.contains(String(key.prefix(36))) }
        cache.forget(where: named)
        reportPictures.forget(where: named)
    }

    /// The file as a report shows it (a photo's thumbnail, a video's poster card, `ReportMedia.side` pixels at
    /// most), drawn once and kept: a report is not cached, but its pictures are, so a report with photos costs
    /// little more than one without, and reports asked for together draw each picture once. The caption is the
    /// row's, as it is now.
    func reportPicture(of file: MediaFile, in company: UUID) async throws -> ReportMedia {
        let side = ReportMedia.side
        var picture = try await reportPictures.value(for: file.id.uppercaseHyphenated, cost: \.memoryCost) { [media] in
            switch file.kind {
            case .photo:
                let (file, key) = try await media.stored(file.id, in: company)
                guard let preview = try await media.preview(of: file, key: key, fitting: side) else { throw ServiceError.notFound("media") }
                do throws(MediaFailure) {
                    return try await media.mediaWorkers.reportPicture(id: file.id, preview: preview, caption: file.caption, company: company)
                } catch {
                    throw error.invalid("id")
                }
            case .video:
                return try await PictureQueue.run {
                    let poster = try MediaThumbnail.video(
                        width: file.width,
                        height: file.height,
                        durationSeconds: file.durationSeconds,
                        fitting: side
                    )
                    return try ReportMedia(id: file.id, kind: .video, png: poster, caption: file.caption)
                }
            }
        }
        picture.caption = file.caption
        return picture
    }
}
