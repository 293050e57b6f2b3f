import Foundation
import Testing

@testable import API

/// Request bodies read dates with `RFC3339.decode`: the same dates and the same refusals as `.iso8601`.
@Suite struct RFC3339Tests {
    static let samples = [
        "2026-11-22T09:30:00Z", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2024-02-29T12:00:00Z", "2000-02-29T00:00:00Z",
        "1900-03-01T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
        "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T09:60:00Z",
        "2026-11-22T09:30:60Z", "2026-11-22T09:30:00+02:00", "2026-11-22T09:30:00.250Z", "2026-11-22 09:30:00Z", "2026-11-22",
        "2026-11-22T09:30:00", "2026-1-22T09:30:00Z", "+026-11-22T09:30:00Z", "2026-11-22T09:30:0AZ", "",
    ]

    struct Body: Decodable { var at: Date }

    static func decode(_ text: String, _ strategy: JSONDecoder.DateDecodingStrategy) -> Date? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = strategy
        return try? decoder.decode(Body.self, from: Data(#"{"at":"\#(text)"}"#.utf8)).at
    }

    @Test(arguments: samples) func decodesAsFoundationsISO8601Does(_ text: String) {
        #expect(Self.decode(text, .custom(RFC3339.decode)) == Self.decode(text, .iso8601))
    }

    @Test func theFastPathAgreesWithFoundationOverFourCenturies() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seconds = Int64.random(in: -2_208_988_800...4_102_444_800, using: &generator)
            let text = RFC3339.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            let fast = try #require(RFC3339.utcSeconds(text), "\(text)")
            #expect(fast == (try Date(text, strategy: .iso8601)), "\(text)")
        }
    }

    @Test func aRefusedDateNamesItsField() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom(RFC3339.decode)
        #expect(throws: DecodingError.self) { try decoder.decode(Body.self, from: Data(#"{"at":"yesterday"}"#.utf8)) }
        do {
            _ = try decoder.decode(Body.self, from: Data(#"{"at":"yesterday"}"#.utf8))
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["at"])
        }
    }
}
