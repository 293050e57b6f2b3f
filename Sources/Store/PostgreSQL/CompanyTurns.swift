#if PostgreSQL
import Foundation
import Synchronization

/// A few slots of the pool's connections for the reads that can take long (a search of a chain-sized roster
/// answered by SQL, a page of the audit trail, an export), given to companies in turn: each company's reads wait
/// in a line of their own, and a slot that frees goes to the next company's line. So a chain searching its roster
/// from many connections holds at most these slots (the other connections stay free for every other request) and
/// delays another company's long read by one of its reads at a time, never by all it has queued. The embedded
/// file's `LongReads` does the same with threads.
final class CompanyTurns: Sendable {
    private struct State: ~Copyable {
        var free: Int
        var waiting = CompanyLines<CheckedContinuation<Void, Never>>()
    }

    private let state: Mutex<State>

    init(slots: Int) {
        state = Mutex(State(free: max(1, slots)))
    }

    /// Runs `body` once `company`'s turn gives it a slot, and frees the slot when it ends.
    func run<T>(for company: UUID, _ body: () async throws -> T) async throws -> T {
        await enter(company)
        defer { leave() }
        return try await body()
    }

    /// Reads waiting for a slot, and slots free (for tests).
    var waiting: Int { state.withLock { $0.waiting.count } }
    var free: Int { state.withLock { $0.free } }

    private func enter(_ company: UUID) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.free > 0, state.waiting.isEmpty {
                    state.free -= 1
                    return true
                }
                state.waiting.append(continuation, company: company)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Hands the slot to the next company's first read, or frees it.
    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let continuation = state.waiting.next() else {
                state.free += 1
                return nil
            }
            return continuation
        }
        next?.resume()
    }
}
#endif
