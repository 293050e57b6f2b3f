import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension Response {
    /// A JSON response. Dates are RFC 3339 in UTC.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        let data = try APIJSON.encoder.encode(value)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

enum APIJSON {
    /// Sorted keys make responses byte-for-byte repeatable: diffable, cacheable, and equal when they mean the same.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// A page of a list: `{items, nextCursor}`, with `nextCursor` null on the last page.
struct ListBody<Item: Encodable>: Encodable {
    var items: [Item]
    var nextCursor: String?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
    }

    enum CodingKeys: String, CodingKey {
        case items, nextCursor
    }
}
