import NIOCore
import Testing

@testable import API

/// The walk beside MultipartKit's parser finds a non-ASCII header name wherever the buffers split the body, and
/// lets everything else through: bodies (the file's bytes, CRs and all), header values, preamble and epilogue.
@Suite struct MultipartHeaderCheckTests {
    static let boundary = "hw-7f3c"

    static func body(headerName: String, fileBytes: [UInt8]) -> [UInt8] {
        Array("preamble \u{E9}\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nCaf\u{E9}\r\n".utf8)
            + Array("--\(boundary)\r\n\(headerName): image/jpeg; x=\"\u{E9}\"\r\n\r\n".utf8) + fileBytes
            + Array("\r\n--\(boundary)--\r\nepilogue \u{E9}\r\n".utf8)
    }

    /// Feeds `bytes` in pieces of `size`; whether the check refused it.
    static func refuses(_ bytes: [UInt8], in size: Int) -> Bool {
        var check = MultipartHeaderCheck(boundary: boundary)
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            do { try check.check(ByteBuffer(bytes: bytes[start..<end])) } catch { return true }
            start = end
        }
        return false
    }

    @Test(arguments: [1, 2, 3, 7, 64, 100_000]) func aNonASCIIHeaderNameIsFoundWhereverTheBuffersSplit(size: Int) {
        // File bytes full of CRs, LFs, dashes and high bytes, and the delimiter's start without its end.
        let file = (0..<3_000).map { UInt8(truncatingIfNeeded: $0 * 7) } + Array("\r\n--hw-7f\r\n--".utf8) + [0xFF, 0x0D, 0x0D, 0x0A]
        #expect(!Self.refuses(Self.body(headerName: "Content-Type", fileBytes: file), in: size))
        #expect(Self.refuses(Self.body(headerName: "Content-Typ\u{E9}", fileBytes: file), in: size))
    }
}
