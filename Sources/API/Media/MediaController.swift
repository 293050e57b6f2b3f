import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import Multipart
import NIOCore
import Services

/// `/v1/results/{id}/media` and `/v1/media/{id}`: photos and videos on results, uploaded as the raw body (with
/// its Content-Type, `?caption=`) or as `multipart/form-data`, streamed back with ranges so a phone can scrub.
struct MediaController {
    let media: ResultMedia
    let thumbnails: MediaThumbnails

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.post("results/:id/media", use: upload)
        group.get("results/:id/media", use: list)
        group.get("media/:id", use: download)
        group.get("media/:id/thumbnail", use: thumbnail)
        group.patch("media/:id", use: edit)
        group.delete("media/:id", use: delete)
    }

    /// What the API shows of a media file; what the file does not say (a photo's duration) is `null`, as elsewhere.
    struct MediaBody: Encodable {
        let file: MediaFile

        enum CodingKeys: String, CodingKey {
            case id, resultId, kind, contentType, bytes, sha256, width, height, durationSeconds, caption, createdAt, updatedAt
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file.id, forKey: .id)
            try container.encode(file.resultId, forKey: .resultId)
            try container.encode(file.kind.rawValue, forKey: .kind)
            try container.encode(file.format.contentType, forKey: .contentType)
            try container.encode(file.bytes, forKey: .bytes)
            try container.encode(file.sha256, forKey: .sha256)
            try container.encode(file.width, forKey: .width)
            try container.encode(file.height, forKey: .height)
            try container.encode(file.durationSeconds.map { ($0 * 1000).rounded() / 1000 }, forKey: .durationSeconds)
            try container.encode(file.caption, forKey: .caption)
            try container.encode(file.createdAt, forKey: .createdAt)
            try container.encode(file.updatedAt, forKey: .updatedAt)
        }
    }

    /// `?id=`: an id the app chose for the file (a UUID), so that sending it again is answered as the first time.
    @Sendable func upload(request: Request, context: AuthenticatedContext) async throws -> Response {
        let resultId = try context.id(of: "result")
        let appId = try request.uri.parameter("id", blankIsAbsent: false).map { text in
            guard let id = UUID(uuidString: text) else { throw Problem.invalid("id", "must be a UUID") }
            return id
        }
        let outcome: AppChosenIds.Outcome<MediaFile>
        do {
            outcome = try await MediaUploadRequest.receive(request, to: resultId, by: context.trainer, media: media, appId: appId)
        } catch let refusal as ServiceError where appId != nil {
            // What the server holds under the app's id, for it to adopt.
            throw await refusal.withCurrent { MediaBody(file: try await media.find(appId!, in: context.trainer.companyId)) }
        }
        let stored = outcome.record
        let reply = try JSONReply(MediaBody(file: stored), status: .created, headers: [.location: "/v1/media/\(stored.id.uppercaseHyphenated)"])
        if case .replayed = outcome { return reply.replayed.response }
        context.logger.info("media uploaded", metadata: ["media.id": "\(stored.id)", "media.bytes": "\(stored.bytes)"])
        return reply.response
    }

    @Sendable func list(request: Request, context: AuthenticatedContext) async throws -> Response {
        let files = try await media.list(result: try context.id(of: "result"), in: context.trainer.companyId)
        return try .json(ListBody(items: files.map(MediaBody.init), nextCursor: nil))
    }

    /// The bytes as stored, whole or one range, with `ETag` (the SHA-256) for `If-None-Match`.
    @Sendable func download(request: Request, context: AuthenticatedContext) async throws -> Response {
        try await MediaDownload.response(to: request, for: try context.id(of: "media"), in: context.trainer.companyId, media: media)
    }

    /// `?size=` (32–1024, default 256): a JPEG of a photo, upright; a PNG poster card of a video.
    @Sendable func thumbnail(request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.id(of: "media")
        let size = try request.uri.pixelSize() ?? MediaThumbnails.defaultSize
        let picture = try await thumbnails.thumbnail(of: id, in: context.trainer.companyId, size: size)
        var headers: HTTPFields = [.eTag: picture.tag, .cacheControl: "private, max-age=86400"]
        if request.headers[.ifNoneMatch] == picture.tag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = picture.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: picture.bytes)))
    }

    struct EditRequest: StrictJSONBody {
        var caption: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case caption
        }
    }

    /// Changes the caption (`null` or blank removes it).
    @Sendable func edit(request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.id(of: "media")
        let body = try await request.decodeJSON(EditRequest.self, context: context)
        return try .json(MediaBody(file: try await media.setCaption(body.caption, of: id, by: context.trainer)))
    }

    @Sendable func delete(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let id = try context.id(of: "media")
        try await media.delete(id, by: context.trainer)
        context.logger.info("media deleted", metadata: ["media.id": "\(id)"])
        return .noContent
    }
}
