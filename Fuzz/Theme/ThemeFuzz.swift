import FuzzSupport
import HealthwheelCore

/// Any bytes as an uploaded theme document.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    if let document = FuzzInput(data, size).json { _ = try? Theme.parse(document) }
    return 0
}

@_cdecl("fuzz_theme_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt { runFuzzer(argc, argv) }
