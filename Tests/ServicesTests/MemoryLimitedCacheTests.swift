import Synchronization
import Testing

@testable import Services

/// Callers that miss the same key together share one making of its value (a report opened by many at once draws
/// each picture once); a failed making keeps nothing, and a forgotten key's value is handed out but not kept.
@Suite struct MemoryLimitedCacheTests {
    /// A making that waits until the test lets it finish, counting how often it started.
    final class Making: Sendable {
        let started = Mutex(0)
        let released = Mutex(false)

        func make(_ value: [UInt8], failing: Bool = false) async throws -> [UInt8] {
            started.withLock { $0 += 1 }
            while !released.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
            if failing { throw Refused() }
            return value
        }
    }

    struct Refused: Error {}

    /// Starts `count` callers of `key`, then waits until they all wait for one making, or a second one started.
    static func callers(
        _ count: Int,
        of cache: MemoryLimitedCache<[UInt8]>,
        _ key: String,
        making: Making,
        failing: Bool = false
    ) async throws -> [Task<[UInt8], any Error>] {
        let tasks = (0..<count).map { _ in
            Task { try await cache.value(for: key, cost: \.count) { try await making.make([7, 7], failing: failing) } }
        }
        while cache.waiting(for: key) != count - 1 && making.started.withLock({ $0 }) < 2 {
            try await Task.sleep(for: .milliseconds(1))
        }
        return tasks
    }

    @Test func callersThatMissTogetherShareOneMaking() async throws {
        let cache = MemoryLimitedCache<[UInt8]>(limit: 10_000)
        let making = Making()
        let tasks = try await Self.callers(8, of: cache, "picture", making: making)
        making.released.withLock { $0 = true }
        for task in tasks { #expect(try await task.value == [7, 7]) }
        #expect(making.started.withLock { $0 } == 1)
        #expect(cache.get("picture") == [7, 7])
        #expect(cache.waiting(for: "picture") == nil)
        // Kept: the next caller makes nothing.
        #expect(
            try await cache.value(for: "picture", cost: \.count) {
                Issue.record("made again")
                return []
            } == [7, 7]
        )
    }

    @Test func aFailedMakingFailsEveryCallerAndKeepsNothing() async throws {
        let cache = MemoryLimitedCache<[UInt8]>(limit: 10_000)
        let making = Making()
        let tasks = try await Self.callers(4, of: cache, "picture", making: making, failing: true)
        making.released.withLock { $0 = true }
        for task in tasks { await #expect(throws: Refused.self) { try await task.value } }
        #expect(making.started.withLock { $0 } == 1)
        #expect(cache.get("picture") == nil)
        // The next caller makes it again.
        #expect(try await cache.value(for: "picture", cost: \.count) { [1] } == [1])
    }

    @Test func aKeyForgottenWhileItsValueIsMadeIsNotKept() async throws {
        let cache = MemoryLimitedCache<[UInt8]>(limit: 10_000)
        let making = Making()
        let tasks = try await Self.callers(3, of: cache, "erased-256", making: making)
        cache.forget { $0.hasPrefix("erased") }
        making.released.withLock { $0 = true }
        for task in tasks { #expect(try await task.value == [7, 7]) }
        #expect(cache.get("erased-256") == nil)
    }
}
