import Foundation
import HealthwheelCore
import Testing

@Suite struct TimeOrderedUUIDTests {
    @Test func carriesVersionSevenTheVariantAndTheMillisecond() {
        let date = Date(timeIntervalSince1970: 1_795_000_000.123)
        let id = UUID.timeOrdered(at: date)
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        #expect(bytes[6] >> 4 == 7)
        #expect(bytes[8] >> 6 == 0b10)
        let milliseconds = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_795_000_000_123)
    }

    @Test func laterIdsSortAfterEarlierOnesAsStoredText() {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        // 10 ms apart: each id in a millisecond of its own.
        let ids = (0..<200).map { UUID.timeOrdered(at: start.addingTimeInterval(Double($0) * 0.01)) }
        let texts = ids.map(\.uuidString)
        #expect(texts == texts.sorted())
        #expect(Set(ids).count == ids.count)
    }

    @Test func idsOfTheSameMillisecondStillDiffer() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let ids = (0..<1_000).map { _ in UUID.timeOrdered(at: now) }
        #expect(Set(ids).count == ids.count)
    }
}
