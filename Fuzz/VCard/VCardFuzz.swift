import FuzzSupport
import HealthwheelCore

/// Any bytes as a vCard file: parsed into contacts or failures, never a crash or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = VCardParser.parse(FuzzInput(data, size).text)
    return 0
}

@_cdecl("fuzz_vcard_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt { runFuzzer(argc, argv) }
