import Synchronization
import Testing

@testable import Store

/// Reads that wait for a lane go together (`GroupedReads`): what is asked while the lane is busy is read in groups
/// of at most `maximumGroup`, each key once, and each caller gets its own key's value.
@Suite struct GroupedReadsTests {
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
    }

    private struct Refused: Error {}

    /// Waits until `count` callers wait for a lane (an event, not a time).
    private func waitUntil<Key, Value>(_ reads: GroupedReads<Key, Value>, holds count: Int) async {
        while reads.waitingCallers < count { await Task.yield() }
    }

    @Test func readsAskedWhileTheLaneIsBusyGoTogetherInBoundedGroupsEachKeyOnce() async throws {
        let fetch = HeldFetch()
        let reads = GroupedReads<Int, String>(lanes: 1, maximumGroup: 4) { try await fetch($0) }
        async let first = reads.value(for: 0)
        while fetch.groups.withLock({ $0.isEmpty }) { await Task.yield() }
        let asked = [1, 2, 2, 3, 4, 5, 99]
        let answers = Task {
            try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for key in asked { group.addTask { (key, try await reads.value(for: key)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        await waitUntil(reads, holds: asked.count)
        fetch.release()

        #expect(try await first == "value 0")
        let answered = try await answers.value
        #expect(answered.count == asked.count)
        for (key, value) in answered { #expect(value == (key == 99 ? nil : "value \(key)")) }
        let groups = fetch.groups.withLock { $0 }
        #expect(groups.first == [0], "the first went alone, at once")
        #expect(groups.dropFirst().map(\.count) == [4, 2], "six keys waited: a full group of four, then the rest")
        #expect(groups.dropFirst().flatMap { $0 }.sorted() == [1, 2, 3, 4, 5, 99], "each key read once: \(groups)")
    }

    @Test func aGroupThatFailsIsReadKeyByKeySoOnlyTheKeyAtFaultFails() async throws {
        let fetch = HeldFetch(failing: [13])
        let reads = GroupedReads<Int, String>(lanes: 1, maximumGroup: 8) { try await fetch($0) }
        async let first = reads.value(for: 0)
        while fetch.groups.withLock({ $0.isEmpty }) { await Task.yield() }
        let asked = [1, 13, 2]
        let answers = Task {
            await withTaskGroup(of: (Int, Result<String?, any Error>).self) { group in
                for key in asked {
                    group.addTask {
                        do { return (key, .success(try await reads.value(for: key))) } catch { return (key, .failure(error)) }
                    }
                }
                return await group.reduce(into: [Int: Result<String?, any Error>]()) { $0[$1.0] = $1.1 }
            }
        }
        await waitUntil(reads, holds: asked.count)
        fetch.release()

        #expect(try await first == "value 0")
        let answered = await answers.value
        #expect(try answered[1]?.get() == "value 1")
        #expect(try answered[2]?.get() == "value 2")
        #expect(throws: Refused.self) { try answered[13]?.get() }
        #expect(fetch.groups.withLock { $0.count } == 5, "the first, the group of three, then each alone")
    }
}
