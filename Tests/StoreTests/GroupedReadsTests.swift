import Synchronization
import Testing

@testable import Store

/// Reads that wait for a lane go together (`GroupedReads`): what is asked while the lane is busy is read in groups
/// of at most `maximumGroup`, each key once, and each caller gets its own key's value.
@Suite(.timeLimit(.minutes(1))) struct GroupedReadsTests {
    /// A fetch that holds its first call until `release()`, and notes every group it is given.
    private final class HeldFetch: Sendable {
        let groups = Mutex<[[Int]]>([])
        private let held: AsyncStream<Void>
        private let releasing: AsyncStream<Void>.Continuation
        /// Keys whose group fails as a whole.
        let failing: Set<Int>

        init(failing: Set<Int> = []) {
            (held, releasing) = AsyncStream.makeStream()
            self.failing = failing
        }

        func release() { releasing.yield() }

        func callAsFunction(_ keys: [Int]) async throws -> [Int: String] {
            let first = groups.withLock { groups in
                groups.append(keys)
                return groups.count == 1
            }
            if first { for await _ in held { break } }
            if !failing.isDisjoint(with: keys) { throw Refused() }
            // 99 has no value.
            return Dictionary(uniqueKeysWithValues: keys.filter { $0 != 99 }.map { ($0, "value \($0)") })
        }

        /// Waits until the first read has started (an event, not a time).
        func waitForTheFirstRead() async {
            while groups.withLock({ $0.isEmpty }) { await Task.yield() }
        }
    }

    private struct Refused: Error {}

    /// Waits until `count` callers wait for a lane (an event, not a time).
    private func waitUntil<Key, Value>(_ reads: GroupedReads<Key, Value>, holds count: Int) async {
        while reads.waitingCallers < count { await Task.yield() }
    }

    /// Asks for each of `keys` at once; the answers, key by key, once all are in.
    private func ask(_ reads: GroupedReads<Int, String>, _ keys: [Int]) -> Task<[(Int, Result<String?, any Error>)], Never> {
        Task {
            await withTaskGroup(of: (Int, Result<String?, any Error>).self) { group in
                for key in keys {
                    group.addTask {
                        do { return (key, .success(try await reads.value(for: key))) } catch { return (key, .failure(error)) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
    }

    @Test func readsAskedWhileTheLaneIsBusyGoTogetherInBoundedGroupsEachKeyOnce() async throws {
        let fetch = HeldFetch()
        // Never stalled here, however slow the machine: the first read is held on purpose.
        let reads = GroupedReads<Int, String>(lanes: 1, maximumGroup: 4, stalledAfter: .seconds(3600)) { try await fetch($0) }
        async let first = reads.value(for: 0)
        await fetch.waitForTheFirstRead()
        let asked = [1, 2, 2, 3, 4, 5, 99]
        let answers = ask(reads, asked)
        await waitUntil(reads, holds: asked.count)
        fetch.release()

        #expect(try await first == "value 0")
        let answered = await answers.value
        #expect(answered.count == asked.count)
        for (key, value) in answered { #expect(try value.get() == (key == 99 ? nil : "value \(key)")) }
        let groups = fetch.groups.withLock { $0 }
        #expect(groups.first == [0], "the first went alone, at once")
        #expect(groups.dropFirst().map(\.count) == [4, 2], "six keys waited: a full group of four, then the rest")
        #expect(groups.dropFirst().flatMap { $0 }.sorted() == [1, 2, 3, 4, 5, 99], "each key read once: \(groups)")
    }

    @Test func aGroupThatFailsFailsEachOfItsCallersAndTheNextGroupIsReadAsUsual() async throws {
        let fetch = HeldFetch(failing: [13])
        let reads = GroupedReads<Int, String>(lanes: 1, maximumGroup: 8, stalledAfter: .seconds(3600)) { try await fetch($0) }
        async let first = reads.value(for: 0)
        await fetch.waitForTheFirstRead()
        let failing = ask(reads, [1, 13, 2])
        await waitUntil(reads, holds: 3)
        fetch.release()

        #expect(try await first == "value 0")
        for (key, answer) in await failing.value {
            #expect(throws: Refused.self, "\(key)") { try answer.get() }
        }
        #expect(try await reads.value(for: 1) == "value 1", "the lane goes on")
        #expect(fetch.groups.withLock { $0.count } == 3, "the first, the group of three, then 1 again")
    }

    /// A lane whose read hangs (a connection dead without a word) no longer holds the others back once it has run
    /// for `stalledAfter`: the next caller opens a lane of its own.
    @Test func aReadThatHangsDoesNotHoldTheNextOnesBack() async throws {
        let fetch = HeldFetch()
        let reads = GroupedReads<Int, String>(lanes: 1, maximumGroup: 8, stalledAfter: .zero) { try await fetch($0) }
        async let first = reads.value(for: 0)
        await fetch.waitForTheFirstRead()

        #expect(try await reads.value(for: 1) == "value 1", "read while the first still hangs")
        fetch.release()
        #expect(try await first == "value 0")
    }
}
