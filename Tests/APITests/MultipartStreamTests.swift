import Multipart
import NIOCore
import TestSupport
import Testing

/// `MultipartStream` reads the same parts wherever the buffers split the body (the file's bytes full of CRs,
/// dashes and near-delimiters), refuses a header name that is no token and a body that breaks its boundary, and
/// knows whether the closing delimiter came.
@Suite(.storeIndependent) struct MultipartStreamTests {
    static let boundary = "hw-7f3c"
    /// File bytes full of CRs, LFs, dashes and high bytes, and the delimiter's start without its end.
    static let file: [UInt8] = {
        let noise: [UInt8] = (0..<3_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let nearDelimiter: [UInt8] = Array("\r\n--hw-7f\r\n--".utf8)
        return noise + nearDelimiter + [0xFF, 0x0D, 0x0D, 0x0A, 0x0D]
    }()

    static func body(headerName: String = "Content-Type", fileBytes: [UInt8] = file, closed: Bool = true) -> [UInt8] {
        let caption: [UInt8] = Array("preamble \u{E9}\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nCaf\u{E9}\r\n".utf8)
        let fileHead: [UInt8] = Array("--\(boundary)  \r\n\(headerName):  image/jpeg; x=\"\u{E9}\"\r\n\r\n".utf8)
        let end: [UInt8] = Array((closed ? "\r\n--\(boundary)--\r\nepilogue \u{E9}\r\n" : "\r\n--\(boundary)").utf8)
        return caption + fileHead + fileBytes + end
    }

    /// Feeds `bytes` in pieces of `size`: the parts (headers and bytes) and whether the body was complete.
    static func read(_ bytes: [UInt8], in size: Int) throws(MultipartRefusal) -> (parts: [([String: String], [UInt8])], complete: Bool) {
        var stream = MultipartStream(boundary: boundary)
        var parts: [([String: String], [UInt8])] = []
        var headers: [String: String] = [:]
        var content: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            for event in try stream.feed(ByteBuffer(bytes: bytes[start..<end])) {
                switch event {
                case .header(let name, let value): headers[name] = value
                case .body(let piece): content += piece
                case .partEnd:
                    parts.append((headers, content))
                    (headers, content) = ([:], [])
                }
            }
            start = end
        }
        return (parts, stream.isComplete)
    }

    @Test(arguments: [1, 2, 3, 7, 64, 100_000]) func thePartsAreTheSameWhereverTheBuffersSplit(size: Int) throws {
        let read = try Self.read(Self.body(), in: size)
        #expect(read.complete)
        #expect(read.parts.count == 2)
        #expect(read.parts.first?.0 == ["content-disposition": "form-data; name=\"caption\""])
        #expect(read.parts.first?.1 == Array("Caf\u{E9}".utf8))
        #expect(read.parts.last?.0 == ["content-type": "image/jpeg; x=\"\u{E9}\""])
        #expect(read.parts.last?.1 == Self.file)
    }

    @Test(arguments: [1, 7, 100_000]) func aHeaderNameThatIsNoTokenIsRefused(size: Int) {
        for name in ["Content-Typ\u{E9}", "Content Type", "Content(Type)"] {
            #expect(throws: MultipartRefusal.badHeaderName) { try Self.read(Self.body(headerName: name), in: size) }
        }
    }

    @Test func whatBreaksTheBoundaryIsMalformedAndACutBodyIsIncomplete() throws {
        let junkAfterDelimiter = Array("--\(Self.boundary)x\r\n\r\nbody\r\n--\(Self.boundary)--".utf8)
        #expect(throws: MultipartRefusal.self) { try Self.read(junkAfterDelimiter, in: 5) }
        let headerWithoutColon = Array("--\(Self.boundary)\r\nNoColon\r\n\r\nbody\r\n--\(Self.boundary)--".utf8)
        #expect(throws: MultipartRefusal.self) { try Self.read(headerWithoutColon, in: 5) }
        let endless = Array("--\(Self.boundary)\r\nX-A: ".utf8) + [UInt8](repeating: 0x41, count: MultipartStream.maximumHeaderBytes)
        #expect(throws: MultipartRefusal.self) { try Self.read(endless, in: 4096) }
        #expect(try Self.read(Self.body(closed: false), in: 13).complete == false)
        #expect(throws: MultipartRefusal.self) { try Self.read(Array("--\(Self.boundary)--\r\n".utf8), in: 3) }
    }

    @Test func boundariesFollowRFC2046() {
        #expect(MultipartStream.boundary(of: "multipart/form-data; boundary=\"a b:c\"") == "a b:c")
        #expect(MultipartStream.boundary(of: "Multipart/Form-Data;boundary=hw-1") == "hw-1")
        for refused in [
            "multipart/form-data; boundary=\"a\r\nb\"", "multipart/form-data; boundary=\"end \"", "multipart/form-data; boundary=",
            "multipart/form-data; boundary=\(String(repeating: "x", count: 71))", "multipart/mixed; boundary=x",
            "multipart/form-data; boundary=\u{E9}",
        ] {
            #expect(MultipartStream.boundary(of: refused) == nil, "\(refused)")
        }
    }
}
