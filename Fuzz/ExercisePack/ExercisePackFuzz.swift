import FuzzSupport
import HealthwheelCore

/// Any bytes as an uploaded exercise pack: the unknown-key walk over the document, the decoding, and every check
/// of a decoded pack (the scripts are not run here: the scoring sandbox has its own corpus).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    if let document = input.json { _ = ExercisePackCheck.unknownKeys(in: document) }
    if let pack = input.decoded(ExercisePack.self) { _ = ExercisePackCheck.problems(in: pack, imageExists: { _ in true }) }
    return 0
}

@_cdecl("fuzz_exercisepack_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt { runFuzzer(argc, argv) }
