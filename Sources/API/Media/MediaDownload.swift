import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Services

/// A stored photo or video sent back, for both doors that serve one (the API and the web console).
public enum MediaDownload {
    /// The media file `id` of `company` as the answer to `request`: whole or the one range asked for, with `ETag`
    /// (its SHA-256) for `If-None-Match`, streamed from storage.
    public static func response(to request: Request, for id: UUID, in company: UUID, media: ResultMedia) async throws -> Response {
        let (file, reader) = try await media.open(id, in: company)
        let tag = "\"\(file.sha256)\""
        var headers: HTTPFields = [.eTag: tag, .acceptRanges: "bytes", .cacheControl: "private, max-age=31536000, immutable"]
        if let match = request.headers[.ifNoneMatch],
            match == "*"
                || match.split(separator: ",").contains(where: {
                    $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "") == tag
                })
        {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = file.format.contentType
        let range: Range<Int>
        var status = HTTPResponse.Status.ok
        switch ByteRange(header: request.headers[.range], length: file.bytes) {
        case .whole:
            range = 0..<file.bytes
        case .part(let part):
            range = part
            status = .partialContent
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(file.bytes)"
        case .unsatisfiable:
            var problem = Problem(
                .rangeNotSatisfiable,
                slug: "range-not-satisfiable",
                detail: "the file has \(file.bytes) bytes; ask for a range within them"
            )
            problem.headers[.contentRange] = "bytes */\(file.bytes)"
            throw problem
        }
        headers[.contentLength] = String(range.count)
        let body = ResponseBody(contentLength: range.count) { writer in
            defer { reader.close() }
            try await media.stream(reader, range) { try await writer.write(contentsOf: $0.map { ByteBuffer(bytes: $0) }) }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }
}
