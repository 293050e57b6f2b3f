import HTTPTypes
import Hummingbird
import NIOCore

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
