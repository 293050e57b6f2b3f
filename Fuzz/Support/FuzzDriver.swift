import Foundation
import HealthwheelCore

/// libFuzzer's driver, linked in by `-sanitize=fuzzer`. SwiftPM links an executable's entry as `<target>_main`:
/// each target defines that as a call to `runFuzzer`, which hands over to the driver, and the driver calls the
/// target's `LLVMFuzzerTestOneInput` with every input.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_silgen_name("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt

/// Runs libFuzzer with the process's arguments (`-max_total_time=60 corpus/…`).
public func runFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { LLVMFuzzerTestOneInput($0, $1) }
}

/// One fuzz input, as the parsers under test take it.
public struct FuzzInput {
    public let bytes: [UInt8]

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The bytes as text (invalid UTF-8 repaired, as the server's body decoding does).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The bytes as JSON, or nil when they are not.
    public var json: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) }

    /// The bytes decoded as `T`, or nil.
    public func decoded<T: Decodable>(_ type: T.Type) -> T? { try? JSONDecoder().decode(type, from: Data(bytes)) }
}

/// The checkout the fuzzer was built from: shipped packs and questionnaires are read from it.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
