import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import NIOCore

/// An RFC 9457 problem document, sent as `application/problem+json`. Every 4xx and 5xx leaves the server as one.
public struct Problem: Error, HTTPResponseError, Encodable, Sendable {
    /// A stable identifier a client can switch on, e.g. `urn:healthwheel:problem:validation`.
    public var type: String
    /// A short summary of the kind of problem, the same for every occurrence (the status's reason phrase by default).
    public var title: String
    /// The HTTP status the response carries, repeated in the body as a number.
    public var status: HTTPResponse.Status
    /// What went wrong this time, in a sentence a developer can act on ("name must not be empty").
    public var detail: String
    /// The fields at fault, when the problem is about input.
    public var errors: [FieldError]
    /// Extension members (RFC 9457 §3.2) a client acts on, e.g. the `companies` to choose from at login.
    public var members: [String: JSONValue] = [:]
    /// Extra response headers, e.g. `Retry-After`.
    public var headers: HTTPFields = [:]

    /// A problem of kind `urn:healthwheel:problem:<slug>`; the title defaults to the status's reason phrase.
    public init(_ status: HTTPResponse.Status, slug: String, title: String? = nil, detail: String, errors: [FieldError] = []) {
        self.type = "urn:healthwheel:problem:\(slug)"
        self.title = title ?? status.reasonPhrase
        self.status = status
        self.detail = detail
        self.errors = errors
    }

    enum CodingKeys: String, CodingKey {
        case type, title, status, detail, errors
    }

    /// Writes `type`, `title`, `status` (a number), `detail`, `errors` only when there are any, then the members.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(title, forKey: .title)
        try container.encode(status.code, forKey: .status)
        try container.encode(detail, forKey: .detail)
        if !errors.isEmpty { try container.encode(errors, forKey: .errors) }
        var extra = encoder.container(keyedBy: AnyCodingKey.self)
        for (name, value) in members.sorted(by: { $0.key < $1.key }) { try extra.encode(value, forKey: AnyCodingKey(name)) }
    }

    /// The problem as an `application/problem+json` response with `headers` added; Hummingbird calls this when it is thrown.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try ResponseJSONEncoder().encode(self)
        var fields = headers
        fields[.contentType] = "application/problem+json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension Problem {
    static func invalid(_ errors: [FieldError]) -> Problem {
        let detail =
            errors.count != 1
            ? "\(errors.count) fields are invalid"
            : errors[0].field.isEmpty ? errors[0].message : "\(errors[0].field) \(errors[0].message)"
        return Problem(.unprocessableContent, slug: "validation", title: "Invalid field", detail: detail, errors: errors)
    }

    static func invalid(_ field: String, _ message: String) -> Problem {
        invalid([FieldError(field, message)])
    }

    static func malformed(_ detail: String) -> Problem {
        Problem(.badRequest, slug: "malformed", title: "Malformed request", detail: detail)
    }

    static func notFound(_ what: String) -> Problem {
        Problem(.notFound, slug: "not-found", detail: "no \(what) with this id")
    }

    static func forbidden(_ detail: String) -> Problem {
        Problem(.forbidden, slug: "forbidden", detail: detail)
    }

    static func conflict(slug: String, _ detail: String, field: String? = nil) -> Problem {
        Problem(.conflict, slug: slug, detail: detail, errors: field.map { [FieldError($0, detail)] } ?? [])
    }

    static func tooLarge(limit: Int) -> Problem {
        Problem(.contentTooLarge, slug: "too-large", detail: "the body is larger than \(limit) bytes")
    }

    /// 429 with `Retry-After`: an allowance (failed logins, emails a day) is used up for `seconds`.
    static func tooManyRequests(_ detail: String, retryAfter seconds: Int) -> Problem {
        var problem = Problem(.tooManyRequests, slug: "rate-limited", detail: detail)
        problem.headers[.retryAfter] = String(seconds)
        return problem
    }

    static let unauthenticated = Problem(
        .unauthorized,
        slug: "unauthenticated",
        detail: "send a valid bearer token (POST /v1/auth/login gives one)"
    )
}
