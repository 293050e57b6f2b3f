import Foundation
import HealthwheelCore
import Hummingbird
import NIOCore

extension Request {
    /// Reads and decodes a JSON body, turning each way it can be wrong into the matching problem:
    /// 415 not JSON, 413 too large, 400 not parseable, 422 unknown / missing / mistyped fields.
    func decodeJSON<Body: StrictJSONBody>(_ type: Body.Type, context: some RequestContext) async throws -> Body {
        try Body.decodeStrictly(from: try await collectJSON(context: context))
    }
}

extension Request {
    /// The body's bytes, after checking it is declared JSON (415) and within the size limit (413).
    func collectJSON(context: some RequestContext) async throws -> Data {
        let mediaType = headers[.contentType].flatMap { MediaType(from: $0) }
        guard let mediaType, mediaType.type == .application, mediaType.subType == "json" || mediaType.subType.hasSuffix("+json") else {
            throw Problem(
                .unsupportedMediaType,
                slug: "media-type",
                detail: "send the body as application/json",
                errors: [FieldError("Content-Type", "must be application/json")]
            )
        }
        return Data(try await collectBody(upTo: context.maxUploadSize).readableBytesView)
    }

    /// The whole body, or 413 when it is declared or turns out larger than `limit` bytes.
    func collectBody(upTo limit: Int) async throws -> ByteBuffer {
        if let length = headers[.contentLength].flatMap({ Int($0) }), length > limit { throw Problem.tooLarge(limit: limit) }
        do {
            return try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw Problem.tooLarge(limit: limit)
        }
    }
}
