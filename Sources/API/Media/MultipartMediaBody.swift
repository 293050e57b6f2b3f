import Foundation
import HealthwheelCore
import Multipart
import NIOCore
import Services

/// Reads a `multipart/form-data` upload with `MultipartStream` as it streams in: exactly one file part (any part
/// with a filename or its own Content-Type), streamed into the upload as it arrives, and an optional `caption`
/// part. Any other part is refused by its name; nothing is dropped unnoticed.
struct MultipartMediaBody {
    /// The largest caption part read; longer ones are refused by the caption rule anyway.
    static let maximumFieldBytes = 16 << 10
    /// Everything but the file: boundaries, part headers, the caption.
    static let overheadBytes = 1 << 20

    /// Which part the parser is in.
    private enum Part { case file, caption }

    /// Feeds `body` through the parser: the file part's bytes go to the upload `start` makes from the part's
    /// Content-Type; returns it, and the caption if a part gave one.
    static func read(
        _ body: some AsyncSequence<ByteBuffer, any Error>,
        boundary: String,
        start: (_ contentType: String?) async throws -> MediaUpload
    ) async throws -> (upload: MediaUpload, caption: String?) {
        var stream = MultipartStream(boundary: boundary)

        var headers: [String: String] = [:]
        var current: Part?
        var upload: MediaUpload?
        var caption: [UInt8]?
        var received = 0

        func begin() async throws -> Part {
            let disposition = headers["content-disposition"] ?? ""
            let name = MultipartStream.parameter("name", in: disposition)
            if name == "caption" && MultipartStream.parameter("filename", in: disposition) == nil && headers["content-type"] == nil {
                guard caption == nil else { throw Problem.invalid("caption", "is given twice") }
                caption = []
                return .caption
            }
            guard MultipartStream.parameter("filename", in: disposition) != nil || headers["content-type"] != nil else {
                throw Problem.invalid(name ?? "body", "is not a part of a media upload: send one file part and an optional caption")
            }
            guard upload == nil else { throw Problem.invalid(name ?? "body", "is a second file: send one file per upload") }
            upload = try await start(headers["content-type"])
            return .file
        }

        do {
            for try await buffer in body {
                received += buffer.readableBytes
                if received > (upload?.limit ?? MediaKind.video.maximumBytes) + overheadBytes {
                    throw Problem.tooLarge(limit: (upload?.limit ?? MediaKind.video.maximumBytes) + overheadBytes)
                }
                let happened: [MultipartEvent]
                do {
                    happened = try stream.feed(buffer)
                } catch .badHeaderName {
                    throw Problem.malformed("a part's header name holds a byte that is not a token character (RFC 9110)")
                } catch .malformed(let why) {
                    throw Problem.malformed("the multipart/form-data body does not follow its boundary (\(boundary)): \(why)")
                }
                // The parser reports a file's bytes in many small slices (it stops at every CR): they go to the
                // upload together, one append per buffer read, not one per slice.
                var fileBytes: [UInt8] = []
                for event in happened {
                    switch event {
                    case .header(let name, let value):
                        headers[name] = value
                    case .body(let bytes):
                        if current == nil { current = try await begin() }
                        if current == .file {
                            fileBytes += bytes
                        } else {
                            caption! += bytes
                            if caption!.count > maximumFieldBytes { throw Problem.invalid("caption", "is longer than \(maximumFieldBytes) bytes") }
                        }
                    case .partEnd:
                        if current == nil { current = try await begin() }  // an empty part
                        if current == .file, !fileBytes.isEmpty {
                            try await upload?.append(fileBytes)
                            fileBytes = []
                        }
                        current = nil
                        headers = [:]
                    }
                }
                if !fileBytes.isEmpty { try await upload?.append(fileBytes) }
            }
        } catch {
            await upload?.abort()
            throw error
        }
        guard stream.isComplete else {
            await upload?.abort()
            throw Problem.malformed("the multipart/form-data body ends before its closing boundary (\(boundary))")
        }
        guard let upload else { throw Problem.invalid("file", "is required: send the photo or video as a file part") }
        return (upload, caption.map { String(decoding: $0, as: UTF8.self) })
    }
}
