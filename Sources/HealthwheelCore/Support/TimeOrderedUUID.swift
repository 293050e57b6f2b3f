import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562): the Unix time in milliseconds in the first 48 bits, then 74 random bits.
    ///
    /// Rows created one after another get ids that sort after each other, so an index on the id grows at its
    /// end: a batch of inserts touches one or two of its pages instead of one random page each, which the
    /// encrypted store would otherwise re-encrypt and write for every insert (and a roster of 50,000 would make
    /// every import slower than the last). The ids stay unguessable enough for ids that are never secrets:
    /// every route checks the caller's company anyway.
    public static func timeOrdered(at date: Date) -> UUID {
        var generator = SystemRandomNumberGenerator()
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded(.down)))
        let high = (milliseconds << 16) | 0x7000 | (generator.next() & 0x0FFF)
        let low = (generator.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        func byte(_ value: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (56 - 8 * index)) }
        return UUID(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
                byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
            )
        )
    }
}
