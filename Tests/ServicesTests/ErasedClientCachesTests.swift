import Foundation
import Testing

@testable import Services

/// What memory holds of a client goes when they are erased, and only theirs: their renderings (wheels, pictures,
/// result pages) and the pictures of their media, with the byte counts that bound each cache kept right.
@Suite struct ErasedClientCachesTests {
    @Test func aClientsRenderingsGoAndAnothersStay() {
        let renderings = ClientRenderings(maxBytes: 1 << 20)
        let (erased, kept) = (UUID(), UUID())
        let key = ClientRenderings.Key(resultsVersion: 1, catalogGeneration: 1)
        for (client, rendering) in [(erased, "json-en"), (erased, "svg-512-en"), (kept, "json-en")] {
            renderings.keep(Array(repeating: 7, count: 1_000), of: .init(client: client, rendering: rendering), at: key)
        }
        renderings.forget(client: erased)
        #expect(renderings.bytes(of: .init(client: erased, rendering: "json-en"), at: key) == nil)
        #expect(renderings.bytes(of: .init(client: erased, rendering: "svg-512-en"), at: key) == nil)
        #expect(renderings.bytes(of: .init(client: kept, rendering: "json-en"), at: key)?.count == 1_000)
        // The bound counts what is left: 1,000 bytes, so 1 MiB less 1,000 more still fits without starting over.
        renderings.keep(Array(repeating: 1, count: (1 << 20) - 1_000), of: .init(client: kept, rendering: "png-512-en"), at: key)
        #expect(renderings.bytes(of: .init(client: kept, rendering: "json-en"), at: key) != nil)
    }

    @Test func aFilesPicturesGoByItsIdAndOthersStay() {
        let cache = MemoryLimitedCache<[UInt8]>(limit: 10_000)
        let (erased, kept) = (UUID(), UUID())
        cache.put("\(erased)-256", [1], cost: 4_000)
        cache.put(erased.uppercaseHyphenated, [2], cost: 4_000)
        cache.put("\(kept)-256", [3], cost: 2_000)
        let named = Set([erased.uppercaseHyphenated])
        cache.forget { named.contains(String($0.prefix(36))) }
        #expect(cache.get("\(erased)-256") == nil)
        #expect(cache.get(erased.uppercaseHyphenated) == nil)
        #expect(cache.get("\(kept)-256") == [3])
        // 8,000 bytes went: another 8,000 fit beside the 2,000 kept.
        cache.put("other", [4], cost: 8_000)
        #expect(cache.get("\(kept)-256") == [3])
    }
}
