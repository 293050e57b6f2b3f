import FuzzSupport
import HealthwheelCore

/// Any bytes as an uploaded picture: the PNG/JPEG header reader and the limits checked before anything decodes it.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    _ = try? PictureHeader.read(bytes)
    _ = try? PictureLimit.clientPhoto.header(of: bytes)
    _ = ImageSignature.contentType(of: bytes)
    return 0
}

@_cdecl("fuzz_pictureheader_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt { runFuzzer(argc, argv) }
