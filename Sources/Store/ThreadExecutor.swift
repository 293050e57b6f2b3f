import Foundation
import Synchronization

/// Runs async work to its end on the calling thread, which waits meanwhile: for the store's own threads (the
/// writer, the long reads) and for callers that may block (the command line, a roster scan).
///
/// The repositories' bodies are async, because on PostgreSQL each statement awaits the server. On SQLite they
/// never suspend, but the writer thread still has to run them: the work runs as a task that prefers this
/// executor (SE-0417), so every nonisolated step of it, and every resumption after an `await`, comes back to the
/// calling thread, which runs the task's jobs until it ends. No thread of Swift's cooperative pool is needed, so
/// a caller that blocks one (a test, a command) cannot deadlock waiting for another.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var finished = false

    private init() {}

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `work` on the calling thread and returns what it returned once it is done.
    static func run<T>(_ work: () async throws -> T) throws -> T {
        try withoutActuallyEscaping(work) { work in
            let executor = ThreadExecutor()
            let lent = Lent(work)
            Task(executorPreference: executor) {
                let outcome: Result<T, any Error>
                do {
                    outcome = .success(try await lent.run())
                } catch {
                    outcome = .failure(error)
                }
                executor.finish(outcome, lent)
            }
            executor.runJobs()
            return try lent.take()
        }
    }

    private func finish<T>(_ outcome: Result<T, any Error>, _ lent: Lent<T>) {
        lent.outcome = outcome
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs the task's jobs as they come, until it has finished.
    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    /// The caller's non-escaping work on its way into the task, and its outcome on the way back. The caller waits
    /// in `run` until the task has ended, so the work never outlives the call that lent it; `@unchecked
    /// Sendable` because the task writes `outcome` before it signals, and the caller reads it only after.
    private final class Lent<T>: @unchecked Sendable {
        private var work: (() async throws -> T)?
        var outcome: Result<T, any Error>?

        init(_ work: @escaping () async throws -> T) { self.work = work }

        func run() async throws -> T {
            defer { work = nil }
            return try await work!()
        }

        func take() throws -> T { try outcome!.get() }
    }
}
