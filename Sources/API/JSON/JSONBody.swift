import Foundation
import HealthwheelCore
import Hummingbird
import NIOCore

/// A request body type whose accepted fields are exactly its `CodingKeys`. Anything else in the body is refused
/// with 422 naming it, so a client can never set a field the server owns (no mass assignment) and never believe
/// a misspelt field was saved.
protocol StrictJSONBody: Decodable {
    associatedtype CodingKeys: CodingKey & CaseIterable
}

/// Fields that only the server sets, named specially in the 422 so the reason is obvious.
let serverOwnedFields: Set<String> = [
    "id", "companyId", "createdAt", "updatedAt", "passwordHash", "score", "scoreError", "subject", "packVersion", "revision", "trainerId",
]

extension Request {
    /// Reads and decodes a JSON body, turning each way it can be wrong into the matching problem:
    /// 415 not JSON, 413 too large, 400 not parseable, 422 unknown / missing / mistyped fields.
    func decodeJSON<Body: StrictJSONBody>(_ type: Body.Type, context: some RequestContext) async throws -> Body {
        try Body.decodeStrictly(from: try await collectJSON(context: context))
    }
}

extension StrictJSONBody {
    /// Decodes a body already collected, refusing unknown fields (422) as `Request.decodeJSON` does.
    static func decodeStrictly(from data: Data) throws -> Self {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            // One parse: the wrapper checks the top-level keys, then decodes the body from the same decoder.
            return try decoder.decode(Strict<Self>.self, from: data).body
        } catch let unknown as UnknownFields {
            throw Problem.invalid(
                unknown.names.map {
                    FieldError($0, serverOwnedFields.contains($0) ? "is set by the server and cannot be sent" : "is not a field of this request")
                }
            )
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw Problem.malformed("the body is not a JSON object")
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw Problem.malformed("the body is not a JSON object")
        } catch let error as DecodingError {
            throw Problem.invalid([error.fieldError])
        }
    }
}

/// A body's fields that are not in its `CodingKeys`, sorted.
private struct UnknownFields: Error {
    let names: [String]
}

/// Decodes `Body` after refusing any top-level key it does not accept.
private struct Strict<Body: StrictJSONBody>: Decodable {
    let body: Body

    init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        let accepted = Set(Body.CodingKeys.allCases.map(\.stringValue))
        let unknown = keys.filter { !accepted.contains($0) }.sorted()
        if !unknown.isEmpty { throw UnknownFields(names: unknown) }
        body = try Body(from: decoder)
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
        let limit = context.maxUploadSize
        if let length = headers[.contentLength].flatMap({ Int($0) }), length > limit { throw Problem.tooLarge(limit: limit) }
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw Problem.tooLarge(limit: limit)
        }
        return Data(buffer.readableBytesView)
    }
}

extension Problem {
    static func tooLarge(limit: Int) -> Problem {
        Problem(.contentTooLarge, slug: "too-large", detail: "the body is larger than \(limit) bytes")
    }
}

/// The names of a JSON object's top-level members, whatever their values.
/// Any key of a JSON object.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension DecodingError {
    /// Which field is wrong and why, in a client's words.
    var fieldError: FieldError {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let keys = codingPath + (last.map { [$0] } ?? [])
            return keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch self {
        case .keyNotFound(let key, let context):
            return FieldError(path(context.codingPath, key), "is required")
        case .valueNotFound(_, let context):
            return FieldError(path(context.codingPath), "must not be null")
        case .typeMismatch(let type, let context):
            return FieldError(path(context.codingPath), "must be \(Self.describe(type))")
        case .dataCorrupted(let context):
            return FieldError(path(context.codingPath), context.debugDescription)
        @unknown default:
            return FieldError("", "is invalid")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        default: "a \(type)".lowercased()
        }
    }
}

extension KeyedDecodingContainer {
    /// For PATCH bodies: absent means "leave unchanged", but an explicit `null` for a field that cannot be empty
    /// is an error rather than being silently ignored.
    func decodeIfPresentNotNull<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath + [key], debugDescription: "null"))
        }
        return try decode(T.self, forKey: key)
    }
}
