import Foundation
import HealthwheelCore
import Hummingbird
import Multipart
import Services

/// One file sent by a plain HTML form (`multipart/form-data`, one file part named `file`), read whole into memory
/// up to `limit`: a logo, an exercise pack, a file of vCards. Any other part is refused by its name; a body past
/// the limit is refused before more of it is read. (Photos and videos stream instead: `MediaUploadRequest`.)
struct UploadedFile {
    var filename: String?
    var contentType: String?
    var bytes: [UInt8]

    static func read(_ request: Request, limit: Int) async throws -> UploadedFile {
        guard let boundary = MultipartStream.boundary(of: request.headers[.contentType]) else {
            throw ServiceError.unsupportedType(detail: "send the file from the form (multipart/form-data)")
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit + overhead {
            throw ServiceError.tooLarge(limit: limit, detail: "the file is larger than \(limit >> 10) KiB")
        }
        var stream = MultipartStream(boundary: boundary)
        var headers: [String: String] = [:]
        var file: UploadedFile?
        var inFile = false
        var received = 0
        for try await buffer in request.body {
            received += buffer.readableBytesView.count
            if received > limit + overhead { throw ServiceError.tooLarge(limit: limit, detail: "the file is larger than \(limit >> 10) KiB") }
            let events: [MultipartEvent]
            do {
                events = try stream.feed(buffer)
            } catch {
                throw ServiceError.invalid("file", "did not arrive whole: send it again")
            }
            for event in events {
                switch event {
                case .header(let name, let value):
                    headers[name] = value
                case .body(let bytes):
                    if !inFile {
                        try begin()
                        inFile = true
                    }
                    file!.bytes += bytes
                    if file!.bytes.count > limit { throw ServiceError.tooLarge(limit: limit, detail: "the file is larger than \(limit >> 10) KiB") }
                case .partEnd:
                    if !inFile { try begin() }
                    inFile = false
                    headers = [:]
                }
            }
        }
        func begin() throws {
            let disposition = headers["content-disposition"] ?? ""
            let name = MultipartStream.parameter("name", in: disposition)
            guard name == "file", file == nil else { throw ServiceError.invalid(name ?? "body", "is not a part of this form: send one file") }
            file = UploadedFile(filename: MultipartStream.parameter("filename", in: disposition), contentType: headers["content-type"], bytes: [])
        }
        guard stream.isComplete, let file, !file.bytes.isEmpty else { throw ServiceError.invalid("file", "is required: choose a file") }
        return file
    }

    /// Boundaries and part headers around the file.
    static let overhead = 64 << 10
}
