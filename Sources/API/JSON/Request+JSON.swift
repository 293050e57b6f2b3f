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

    /// An optional body: nil when the request has none (an empty one, whatever its Content-Type says: many
    /// clients send `Content-Type: application/json` on every request), else as `decodeJSON`.
    func decodeJSONIfPresent<Body: StrictJSONBody>(_ type: Body.Type, context: some RequestContext) async throws -> Body? {
        let bytes = try await collectBody(upTo: context.maxUploadSize)
        guard bytes.readableBytes > 0 else { return nil }
        try requireJSONType()
        return try Body.decodeStrictly(from: Data(bytes.readableBytesView))
    }
}

extension Request {
    /// The body's bytes, after checking it is declared JSON (415) and within the size limit (413).
    func collectJSON(context: some RequestContext) async throws -> Data {
        try requireJSONType()
        return Data(try await collectBody(upTo: context.maxUploadSize).readableBytesView)
    }

    /// 415 unless the body is declared JSON.
    private func requireJSONType() throws {
        guard let declared = headers[.contentType] else { throw Self.notJSON }
        // What nearly every client sends, recognised without parsing (MediaType's parser was a few per cent of a
        // result POST's CPU); anything else is parsed.
        if Self.isPlainJSON(declared) { return }
        guard let mediaType = MediaType(from: declared), mediaType.type == .application,
            mediaType.subType == "json" || mediaType.subType.hasSuffix("+json")
        else { throw Self.notJSON }
    }

    /// `application/json`, alone or before a `;` (its parameters), in any case.
    static func isPlainJSON(_ declared: String) -> Bool {
        let bytes = declared.utf8
        let json = "application/json".utf8
        guard bytes.count >= json.count, zip(bytes, json).allSatisfy({ $0 | ($1 >= UInt8(ascii: "a") ? 0x20 : 0) == $1 }) else { return false }
        let rest = bytes.dropFirst(json.count)
        return rest.isEmpty || rest.first == UInt8(ascii: ";")
    }

    private static var notJSON: Problem {
        Problem(
            .unsupportedMediaType,
            slug: "media-type",
            detail: "send the body as application/json",
            errors: [FieldError("Content-Type", "must be application/json")]
        )
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
