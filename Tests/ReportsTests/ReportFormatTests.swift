import Foundation
import HealthwheelCore
import Testing

@testable import Reports

/// Numbers written by hand must read exactly as the locale's formatter writes them.
@Suite struct ReportFormatTests {
    @Test(arguments: ["en", "es"])
    func numbersReadAsTheLocalesFormatterWritesThem(language: String) throws {
        let format = ReportFormat(strings: try ReportStrings(language: language), units: .metric)
        let locale = Locale(identifier: try ReportStrings(language: language).text("locale"))
        var values: [Double] = [0, -0.0, 0.04, 0.05, 0.95, 1, 6.95, 7.25, 9.999, 10, -3.45, 123.456, 99_999.994, -0.004, 1_234_567.891]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 { values.append(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 997) }
        for value in values {
            for places in 0...3 {
                let expected = value.formatted(.number.precision(.fractionLength(0...places)).locale(locale).grouping(.never))
                #expect(format.number(value, places: places) == expected, "\(value) to \(places) places in \(language)")
            }
        }
    }
}
