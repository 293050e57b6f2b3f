import Foundation
import TestSupport
import Testing

@testable import API

/// Request bodies read dates with `RFC3339.decode`: the same dates and the same refusals as `.iso8601`.
@Suite(.storeIndependent) struct RFC3339Tests {
    /// Forms Foundation's `.iso8601` reads as RFC 3339 does, from 1900 on: the two must agree.
    static let samples = [
        "2026-11-22T09:30:00Z", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2024-02-29T12:00:00Z", "2000-02-29T00:00:00Z",
        "1900-03-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-11-22T09:30:00+02:00", "2026-11-22T09:30:00-05:30",
    ]
    struct Body: Decodable { var at: Date }

    static func decode(_ text: String, _ strategy: JSONDecoder.DateDecodingStrategy) -> Date? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = strategy
        return try? decoder.decode(Body.self, from: Data(#"{"at":"\#(text)"}"#.utf8)).at
    }

    /// RFC 3339 forms Foundation's `.iso8601` refuses, as seconds from `2026-11-22T09:30:00Z`.
    static let beyondFoundation: [String: TimeInterval] = [
        "2026-11-22T09:30:00.250Z": 0.25, "2026-11-22t09:30:00z": 0, "2026-11-22T09:30:60Z": 60, "2026-11-22T09:30:00.5+02:00": -7_199.5,
        "2026-11-22T09:30:00.123456-05:30": 19_800.123456,
    ]
    /// Not RFC 3339 `date-time`s (some of which Foundation lets through), refused.
    static let refused = [
        "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-11-22T24:00:00Z", "2026-11-22T09:60:00Z", "2026-11-22 09:30:00Z", "2026-11-22", "2026-11-22T09:30:00", "2026-1-22T09:30:00Z",
        "+026-11-22T09:30:00Z", "2026-11-22T09:30:0AZ", "", "2026-11-22T09:30:00.Z", "2026-11-22T09:30:00+2:00", "2026-11-22T09:30:00+24:00",
        "2026-11-22T09:30:61Z", "2026-11-22T09:30:00.5", "2026-11-22T09:30:00Z ", "2026-11-22T09:30:00+02:00Z",
    ]

    @Test(arguments: samples) func readsWhatFoundationReadsAlike(_ text: String) throws {
        let foundation = try #require(Self.decode(text, .iso8601))
        #expect(Self.decode(text, .custom(RFC3339.decode)) == foundation, "\(text)")
    }

    @Test(arguments: Array(beyondFoundation.keys)) func readsTheRestOfTheGrammar(_ text: String) throws {
        let expected = try #require(Self.decode("2026-11-22T09:30:00Z", .iso8601)).addingTimeInterval(Self.beyondFoundation[text]!)
        let decoded = try #require(Self.decode(text, .custom(RFC3339.decode)), "\(text)")
        #expect(abs(decoded.timeIntervalSince(expected)) < 0.000_001, "\(text)")
    }

    @Test(arguments: refused) func refusesWhatIsNotADateTime(_ text: String) {
        #expect(Self.decode(text, .custom(RFC3339.decode)) == nil, "\(text)")
    }

    @Test func yearsBeforeTheGregorianReformCountInItsCalendarAsRFC3339Says() {
        // 0001-01-01 in the proleptic Gregorian calendar (Foundation's .iso8601 would count Julian days).
        #expect(Self.decode("0001-01-01T00:00:00Z", .custom(RFC3339.decode)) == Date(timeIntervalSince1970: -62_135_596_800))
    }

    @Test func theFastPathAgreesWithFoundationOverFourCenturies() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seconds = Int64.random(in: -2_208_988_800...4_102_444_800, using: &generator)
            let text = RFC3339.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            let fast = try #require(RFC3339.date(from: text), "\(text)")
            #expect(fast == (try Date(text, strategy: .iso8601)), "\(text)")
        }
    }

    @Test func writesWhatFoundationWrites() {
        var generator = SystemRandomNumberGenerator()
        var instants = (0..<5_000).map { _ in Double(Int64.random(in: -2_208_988_800...4_102_444_800, using: &generator)) }
        instants += [0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_399, -2_203_891_201]  // 2000-02-29, 2100-02-28…
        for instant in instants {
            for fraction in [0, 0.25, 0.999] {
                let date = Date(timeIntervalSince1970: instant + fraction)
                #expect(RFC3339.string(from: date) == date.formatted(.iso8601), "\(instant + fraction)")
            }
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
