import Foundation
import HealthwheelCore
import MultipartKit
import NIOCore
import Services

/// Reads a `multipart/form-data` upload with MultipartKit's streaming parser: exactly one file part (any part
/// with a filename or its own Content-Type), streamed into the upload as it arrives, and an optional `caption`
/// part. Any other part is refused by its name; nothing is dropped unnoticed.
struct MultipartMediaBody {
    /// The largest caption part read; longer ones are refused by the caption rule anyway.
    static let maximumFieldBytes = 16 << 10
    /// Everything but the file: boundaries, part headers, the caption.
    static let overheadBytes = 1 << 20

    /// The boundary parameter of a `multipart/form-data` type, or nil for any other type.
    static func boundary(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return (1...70).contains(value.count) ? value : nil
        }
        return nil
    }

    /// Which part the parser is in.
    private enum Part { case file, caption }

    /// Events the parser reports while it reads one buffer; handled (asynchronously) after it.
    private final class Events {
        enum Event {
            case header(String, String)
            case body([UInt8])
            case partEnd
        }

        var list: [Event] = []
    }

    /// Feeds `body` through the parser: the file part's bytes go to the upload `start` makes from the part's
    /// Content-Type; returns it, and the caption if a part gave one.
    static func read(
        _ body: some AsyncSequence<ByteBuffer, any Error>,
        boundary: String,
        start: (_ contentType: String?) async throws -> MediaUpload
    ) async throws -> (upload: MediaUpload, caption: String?) {
        let parser = MultipartParser(boundary: boundary)
        var headerCheck = MultipartHeaderCheck(boundary: boundary)
        let events = Events()
        parser.onHeader = { events.list.append(.header($0.lowercased(), $1)) }
        parser.onBody = { events.list.append(.body(Array($0.readableBytesView))) }
        parser.onPartComplete = { events.list.append(.partEnd) }

        var headers: [String: String] = [:]
        var current: Part?
        var upload: MediaUpload?
        var caption: [UInt8]?
        var received = 0

        func begin() async throws -> Part {
            let disposition = headers["content-disposition"] ?? ""
            let name = parameter("name", in: disposition)
            if name == "caption" && parameter("filename", in: disposition) == nil && headers["content-type"] == nil {
                guard caption == nil else { throw Problem.invalid("caption", "is given twice") }
                caption = []
                return .caption
            }
            guard parameter("filename", in: disposition) != nil || headers["content-type"] != nil else {
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
                try headerCheck.check(buffer)
                do {
                    try parser.execute(buffer)
                } catch {
                    throw Problem.malformed("the multipart/form-data body does not follow its boundary (\(boundary))")
                }
                let happened = events.list
                events.list = []
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
        guard let upload else { throw Problem.invalid("file", "is required: send the photo or video as a file part") }
        return (upload, caption.map { String(decoding: $0, as: UTF8.self) })
    }

    /// A parameter of a `Content-Disposition` value (`name="file"`), unquoted.
    static func parameter(_ key: String, in value: String) -> String? {
        for item in value.split(separator: ";").dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == key else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}
