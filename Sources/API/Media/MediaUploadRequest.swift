import Foundation
import HealthwheelCore
import Hummingbird
import Multipart
import Services

/// A photo or video upload as a request carries it, for both doors that take one (the API and the web console):
/// the raw body with its Content-Type (and `?caption=`), or `multipart/form-data` with one file part and an
/// optional `caption` part, streamed into the result's media as it arrives.
public enum MediaUploadRequest {
    /// Streams the request's file into a new media file of `result`, and stores it; an upload refused on the
    /// way (too large, not a picture, a broken body) leaves nothing behind. `appId`: the id the app chose for it
    /// (`ResultMedia.begin`), whose retry answers `replayed`.
    public static func receive(
        _ request: Request,
        to result: UUID,
        by trainer: Trainer,
        media: ResultMedia,
        appId: UUID? = nil
    ) async throws -> AppChosenIds.Outcome<MediaFile> {
        let contentType = request.headers[.contentType]
        let length = request.headers[.contentLength].flatMap(Int.init)
        let upload: MediaUpload
        var caption: String?
        if let boundary = MultipartStream.boundary(of: contentType) {
            if let length, length > MediaKind.video.maximumBytes + MultipartMediaBody.overheadBytes {
                throw Problem.tooLarge(limit: MediaKind.video.maximumBytes + MultipartMediaBody.overheadBytes)
            }
            (upload, caption) = try await MultipartMediaBody.read(request.body, boundary: boundary) { partType in
                try await media.begin(to: result, by: trainer, contentType: partType, length: nil, appId: appId)
            }
        } else {
            caption = request.uri.parameter("caption")
            upload = try await media.begin(to: result, by: trainer, contentType: contentType, length: length, appId: appId)
            do {
                for try await buffer in request.body { try await upload.append(Array(buffer.readableBytesView)) }
            } catch {
                await upload.abort()
                throw error
            }
        }
        do {
            return try await upload.finish(caption: try MediaFile.caption(caption))
        } catch let error as ValidationError {
            await upload.abort()
            throw error
        }
    }
}
