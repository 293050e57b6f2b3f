import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension Response {
    /// A JSON response. Dates are RFC 3339 in UTC.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        try JSONReply(value, status: status, headers: headers).response
    }
}

/// A JSON answer kept as bytes, so it can be both sent and remembered (for an `Idempotency-Key`).
struct JSONReply {
    var status: HTTPResponse.Status
    var body: [UInt8]
    var headers: HTTPFields = [:]

    init(status: HTTPResponse.Status, body: [UInt8], headers: HTTPFields = [:]) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    init(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws {
        self.init(status: status, body: try ResponseJSONEncoder().encode(value), headers: headers)
    }

    var response: Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
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

/// RFC 3339 timestamps in UTC to the second (`2026-11-22T09:30:00Z`), the format `.iso8601` decoding accepts.
/// Written by hand because Foundation's formatter was a measurable share of every response.
enum RFC3339 {
    static func string(from date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        func digits(_ value: Int32, _ count: Int) {
            var divisor: Int32 = 1
            for _ in 1..<count { divisor *= 10 }
            var remaining = value
            while divisor > 0 {
                bytes.append(UInt8(48 + remaining / divisor))
                remaining %= divisor
                divisor /= 10
            }
        }
        digits(parts.tm_year + 1900, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(parts.tm_mon + 1, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(parts.tm_mday, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(parts.tm_hour, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(parts.tm_min, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(parts.tm_sec, 2)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
