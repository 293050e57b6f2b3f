#if PostgreSQL
import Foundation
import Synchronization
import Testing

@testable import Store

/// PostgreSQL's long reads: a company that queues many waits its turn like everyone else.
@Suite struct CompanyTurnsTests {
    @Test func anotherCompanysReadGoesBeforeTheRestOfAQueueThatWasThereFirst() async throws {
        let turns = CompanyTurns(slots: 1)
        let chain = UUID()
        let gym = UUID()
        final class Order: Sendable {
            let names = Mutex<[String]>([])
            func append(_ name: String) { names.withLock { $0.append(name) } }
        }
        let order = Order()
        let (started, startedNow) = AsyncStream<Void>.makeStream()
        let (release, releaseNow) = AsyncStream<Void>.makeStream()

        let first = Task {
            try await turns.run(for: chain) {
                order.append("chain 1")
                startedNow.yield()
                for await _ in release { break }
            }
        }
        for await _ in started { break }
        // The chain queues two more while its first holds the only slot; then the gym queues one.
        var queued: [Task<Void, any Error>] = []
        for (company, name) in [(chain, "chain 2"), (chain, "chain 3"), (gym, "gym 1")] {
            let waitingBefore = turns.waiting
            queued.append(Task { try await turns.run(for: company) { order.append(name) } })
            while turns.waiting == waitingBefore { await Task.yield() }
        }
        releaseNow.yield()
        try await first.value
        for task in queued { try await task.value }

        // The chain's turn came first (its line was there first), then the gym's, then the chain's again: first come,
        // first served would have run the gym last.
        #expect(order.names.withLock { $0 } == ["chain 1", "chain 2", "gym 1", "chain 3"])
        #expect(turns.waiting == 0)
    }

    @Test func slotsAreSharedUpToTheirNumberAndFreedWhenABodyThrows() async throws {
        let turns = CompanyTurns(slots: 2)
        let company = UUID()
        struct Failure: Error {}
        await #expect(throws: Failure.self) { try await turns.run(for: company) { throw Failure() } }
        #expect(turns.free == 2)
        final class Counts: Sendable {
            let running = Atomic<Int>(0)
            let most = Atomic<Int>(0)
        }
        let counts = Counts()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await turns.run(for: company) {
                        counts.most.max(counts.running.add(1, ordering: .relaxed).newValue, ordering: .relaxed)
                        for _ in 0..<10 { await Task.yield() }
                        counts.running.subtract(1, ordering: .relaxed)
                    }
                }
            }
            try await group.waitForAll()
        }
        // Eight bodies that yield while they run overlap as far as they are let.
        #expect(counts.most.load(ordering: .relaxed) <= 2)
        #expect(turns.waiting == 0 && turns.free == 2)
    }
}
#endif
