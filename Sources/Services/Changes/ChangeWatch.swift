import Foundation
import StoreContract
import Synchronization

/// Holds long-polling feed requests until their company's audit trail moves past them. One task per process
/// watches, and only while someone waits: each beat it reads each waiting company's newest line once (one index
/// seek), however many of its apps wait, and wakes those it passed. Polling rather than being told finds the
/// writes of every node sharing a PostgreSQL database alike; a beat of a quarter second keeps a change within a
/// second of the apps that wait for it.
final class ChangeWatch: Sendable {
    private struct Waiter {
        var company: UUID
        var after: Int64
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var waiters: [UInt64: Waiter] = [:]
        var nextId: UInt64 = 0
        var watching = false
    }

    private let audit: any AuditRepository
    private let beat: Duration
    private let state = Mutex(State())

    init(audit: any AuditRepository, beat: Duration = .milliseconds(250)) {
        self.audit = audit
        self.beat = beat
    }

    /// Returns once the company's trail holds a line after `sequence`, at `deadline`, or when the task is
    /// cancelled (the app went away), whichever comes first; the caller reads the trail again to know which.
    func wait(company: UUID, after sequence: Int64, until deadline: ContinuousClock.Instant) async {
        let id = state.withLock { state in
            state.nextId += 1
            return state.nextId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let startWatching = state.withLock { state in
                    state.waiters[id] = Waiter(company: company, after: sequence, deadline: deadline, continuation: continuation)
                    defer { state.watching = true }
                    return !state.watching
                }
                if startWatching { Task { await self.watch() } }
                // Cancelled before it was kept: the handler below found nothing to resume.
                if Task.isCancelled { resume([id]) }
            }
        } onCancel: {
            resume([id])
        }
    }

    /// How many requests wait now (for tests and metrics).
    var waiting: Int { state.withLock { $0.waiters.count } }

    private func resume(_ ids: [UInt64]) {
        let continuations = state.withLock { state in ids.compactMap { state.waiters.removeValue(forKey: $0)?.continuation } }
        for continuation in continuations { continuation.resume() }
    }

    /// Beats until nobody waits. A read that fails (the database restarting) wakes nobody early: the next beat
    /// tries again, and deadlines still end each wait.
    private func watch() async {
        while true {
            try? await Task.sleep(for: beat)
            let waiting = state.withLock { state -> [UUID: Int64]? in
                if state.waiters.isEmpty {
                    state.watching = false
                    return nil
                }
                return state.waiters.values.reduce(into: [:]) { lowest, waiter in
                    lowest[waiter.company] = min(lowest[waiter.company] ?? .max, waiter.after)
                }
            }
            guard let waiting else { return }
            var newest: [UUID: Int64] = [:]
            for (company, lowest) in waiting {
                if let position = try? await audit.position(in: company, checking: lowest) { newest[company] = position.newest }
            }
            let now = ContinuousClock.now
            let due = state.withLock { state in
                state.waiters.filter { _, waiter in waiter.deadline <= now || (newest[waiter.company] ?? 0) > waiter.after }.map(\.key)
            }
            resume(due)
        }
    }
}
