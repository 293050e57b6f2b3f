import Foundation
import HealthwheelCore
import Testing

struct HyphenatedUUIDTests {
    @Test func spellsIdsAsFoundationDoes() {
        for _ in 0..<1_000 {
            let id = UUID()
            #expect(id.uppercaseHyphenated == id.uuidString)
            #expect(id.lowercaseHyphenated == id.uuidString.lowercased())
        }
        let edges = UUID(uuid: (0x00, 0x09, 0x0A, 0x0F, 0x10, 0x9F, 0xA0, 0xAF, 0xF0, 0xFF, 0x5A, 0xA5, 0x01, 0x10, 0xEE, 0x7C))
        #expect(edges.uppercaseHyphenated == "00090A0F-109F-A0AF-F0FF-5AA50110EE7C")
    }

    @Test func readsEitherCaseBackAndNothingElse() {
        let id = UUID()
        #expect(UUID(hyphenatedHex: id.uppercaseHyphenated) == id)
        #expect(UUID(hyphenatedHex: id.lowercaseHyphenated) == id)
        let text = id.uppercaseHyphenated
        let malformed = [
            String(text.dropLast()), text + "0", text.replacingOccurrences(of: "-", with: ""), "G" + text.dropFirst(), "", "-" + text.dropFirst(),
        ]
        for bad in malformed {
            #expect(UUID(hyphenatedHex: bad) == nil, "\(bad)")
        }
    }
}
