import Foundation
import StoreContract
import Testing

@testable import Store

/// Result values as stored: the hand-written reader agrees with `JSONDecoder` on what the writer writes, and
/// hands anything else to it.
@Suite struct ResultValuesCodingTests {
    @Test func whatIsWrittenReadsBackExactly() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let count = Int.random(in: 0...4, using: &generator)
            let values = Dictionary(
                uniqueKeysWithValues: (0..<count).map { index in
                    ("field\(index)", Double.random(in: -1e6...1e6, using: &generator) * (index == 0 ? 1e-9 : 1))
                }
            )
            let json = try SQLResultRepository.encodeValues(values)
            #expect(try SQLResultRepository.decodeValues(json) == values, "\(json)")
            #expect(try JSONDecoder().decode([String: Double].self, from: Data(json.utf8)) == values)
        }
    }

    @Test func otherJSONIsReadByJSONDecoderAndBrokenJSONIsRefused() throws {
        #expect(try SQLResultRepository.decodeValues(#"{ "a" : 1.5, "b\u0041": 2 }"#) == ["a": 1.5, "bA": 2])
        #expect(try SQLResultRepository.decodeValues("{}") == [:])
        for broken in [#"{"a":}"#, #"{"a":0x10}"#, #"{"a":nan}"#, #"{"a" 1}"#, "{"] {
            #expect(throws: (any Error).self, "\(broken)") { try SQLResultRepository.decodeValues(broken) }
        }
    }
}
