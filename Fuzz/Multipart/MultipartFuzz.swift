import FuzzSupport
import Multipart
import NIOCore

/// Any bytes as a `multipart/form-data` upload body (boundary `hw-fuzz`), fed to the stream in pieces whose size
/// the input's first byte picks, as buffers arrive from a socket; and the input's first line as a Content-Type.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    guard let first = bytes.first else { return 0 }
    let piece = Int(first % 64) + 1
    var stream = MultipartStream(boundary: "hw-fuzz")
    var start = 1
    while start < bytes.count {
        let end = min(start + piece, bytes.count)
        guard (try? stream.feed(ByteBuffer(bytes: bytes[start..<end]))) != nil else { break }
        start = end
    }
    let line = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
    _ = MultipartStream.boundary(of: line)
    _ = MultipartStream.parameter("name", in: line)
    return 0
}

@_cdecl("fuzz_multipart_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt { runFuzzer(argc, argv) }
