import FuzzSupport
import HealthwheelCore

/// Any bytes as an uploaded photo or video, through the calls an upload makes: the PNG/JPEG header reader and the
/// limits checked before anything decodes it (pixels, a JPEG's scans and metadata segments), a photo's size as an
/// upload measures it in each format (HEIC's `ispe`), its EXIF orientation and GPS removal (offsets a file
/// chooses), the signature sniffing, and the video box scanner fed in two pieces, as an upload streams past.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    _ = try? PictureHeader.read(bytes)
    _ = try? PictureLimit.clientPhoto.header(of: bytes)
    _ = ImageSignature.contentType(of: bytes)
    for format in MediaFormat.allCases {
        _ = try? PictureLimit.resultPhoto.size(of: bytes, format: format)
        _ = PhotoLocation.orientation(of: bytes, format: format)
        _ = PhotoLocation.removed(from: bytes, format: format)
    }
    var scanner = VideoHeaderScanner()
    scanner.consume(bytes.prefix(bytes.count / 2))
    scanner.consume(bytes.dropFirst(bytes.count / 2))
    _ = scanner.header
    return 0
}

@_cdecl("fuzz_mediaheaders_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt { runFuzzer(argc, argv) }
