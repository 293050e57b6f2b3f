import FuzzSupport
import HealthwheelCore

/// Any bytes as a result's `values` object: each measurement (a number, `{value, unit}`, a stopwatch text, feet
/// and inches) converted as every quantity, within a wide range and a narrow one.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let values = FuzzInput(data, size).decoded([String: MeasurementInput].self) else { return 0 }
    for (key, measurement) in values {
        for quantity in Quantity.allCases {
            for range in [0.0...1e9, -5.0...5.0] { _ = try? measurement.siValue(of: quantity, field: key, range: range) }
        }
    }
    return 0
}

@_cdecl("fuzz_measurement_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt { runFuzzer(argc, argv) }
