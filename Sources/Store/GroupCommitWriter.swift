import Dispatch
import Foundation
import StoreContract
import Synchronization
import Workers

/// The writer connection and the one thread that owns it, committing queued writes in groups.
///
/// A commit with `synchronous = FULL` waits for the disk (an fsync, about half a millisecond here). Run on Swift's
/// cooperative pool, that wait would hold one of its few threads (two on this machine) and stall every other
/// request. So each write is a job queued here; the writer thread drains the queue in batches: `BEGIN IMMEDIATE`,
/// the jobs, then one `COMMIT` — one fsync for every job in the batch. A job that throws gets its own error and
/// the others go on: the batch then runs again with a `SAVEPOINT` per job, and the failing job is rolled back to
/// it. A job's caller hears of success only after the COMMIT that holds its work has returned; if that COMMIT
/// fails, every job of the batch gets the error. Acknowledged therefore still means durable, except for jobs
/// queued as unsynced (`Job.synced`), whose batch alone commits without waiting for the disk.
///
/// Batches form by themselves: while one commits, the next jobs queue up behind it. Nothing waits on purpose.
final class GroupCommitWriter: Sendable {
    /// One queued piece of work. Its closures run on the writer thread only, in this order: `run` (unless the batch
    /// failed before reaching it; twice when another job of its batch threw and the batch ran again), then
    /// `finish`, exactly once.
    struct Job: @unchecked Sendable {
        /// The work: inside the batch's transaction, or alone outside any when `ownsTransaction`. It changes
        /// nothing but the database, as it may run again after a rollback.
        var run: (SQLiteConnection) async throws -> Void
        /// nil once the work is durable, or the error that undid it.
        var finish: (_ error: (any Error)?) -> Void
        /// Runs alone, outside a transaction, for work that manages its own (migrations, backups).
        var ownsTransaction = false
        /// Whether its caller waits for the disk (`SQLDatabase.writeUnsynced` does not).
        var synced = true
    }

    private struct Queue: ~Copyable {
        var jobs: [Job] = []
        var isClosed = false
    }

    /// At most this many jobs share one transaction: a bound on how long one batch holds the write lock.
    static let maximumBatch = 500
    /// A writer idle this long lets go of its page cache (see `loop`).
    static let idleBeforeReleasingCache = DispatchTimeInterval.seconds(10)

    private let queue = Mutex(Queue())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    private let counters = Mutex(Counters())

    /// The tables each commit changed, for caches of what is read from a few tables.
    let tableChanges = TableChanges()

    /// What the writer has done, for tests and benchmarks.
    struct Counters: Sendable, Equatable {
        var commits = 0
        var jobs = 0
    }

    /// The connection until the thread takes it: the thread's closure must not keep it (Foundation keeps a
    /// thread's closure after it ends), or the file would stay open after `close()`.
    private let handOver: Mutex<SQLiteConnection?>

    /// Starts the writer thread, which owns `connection` from now on.
    init(connection: SQLiteConnection) {
        handOver = Mutex(connection)
        let thread = Thread { [self] in
            StoreThread.writer.configureCurrentThread()
            if let connection = handOver.withLock({ $0.take() }) { loop(connection) }
            // The connection is closed here, when `loop` has returned and its last reference is gone.
            stopped.signal()
        }
        thread.start()
    }

    var statistics: Counters { counters.withLock { $0 } }

    /// Queues `jobs` in order; they may share a batch with each other and with jobs queued before or after.
    func enqueue(_ jobs: [Job]) {
        let accepted = queue.withLock { queue -> Bool in
            guard !queue.isClosed else { return false }
            queue.jobs.append(contentsOf: jobs)
            return true
        }
        guard accepted else {
            for job in jobs { job.finish(StoreError.closed) }
            return
        }
        wakeUp.signal()
    }

    /// Finishes what is queued, then stops the thread and closes the connection; later jobs fail.
    func close() {
        let wasOpen = queue.withLock { queue -> Bool in
            defer { queue.isClosed = true }
            return !queue.isClosed
        }
        guard wasOpen else { return }
        wakeUp.signal()
        stopped.wait()
    }

    private func loop(_ connection: SQLiteConnection) {
        let changed = ChangedTables()
        connection.observeRowChanges { changed.note($0) }
        while true {
            // The page cache is large (64 MiB) so that an import touching every index of a roster stays fast, and
            // after one it stays full. Once the writes have stopped it is given back; the next ones read what they
            // need again.
            if wakeUp.wait(timeout: .now() + Self.idleBeforeReleasingCache) == .timedOut {
                connection.releaseCachedPages()
                ProcessMemory.returnFreedPages()
                wakeUp.wait()
            }
            while true {
                let (batch, isClosed) = queue.withLock { queue in
                    let count = min(queue.jobs.count, Self.maximumBatch)
                    let batch = Array(queue.jobs.prefix(count))
                    queue.jobs.removeFirst(count)
                    return (batch, queue.isClosed)
                }
                if batch.isEmpty {
                    if isClosed { return }
                    break
                }
                // The jobs' bodies are async (they are PostgreSQL's too); here they never suspend, and run on
                // this thread.
                try? ThreadExecutor.run { await run(batch, on: connection, changed) }
            }
        }
    }

    /// Runs a batch in order: jobs that own their transaction alone, runs of the others in one transaction each.
    private func run(_ batch: [Job], on connection: SQLiteConnection, _ changed: ChangedTables) async {
        var group: [Job] = []
        for job in batch {
            if job.ownsTransaction {
                await commit(group, on: connection, changed)
                group.removeAll()
                await runAlone(job, on: connection, changed)
            } else {
                group.append(job)
            }
        }
        await commit(group, on: connection, changed)
    }

    private func runAlone(_ job: Job, on connection: SQLiteConnection, _ changed: ChangedTables) async {
        defer {
            _ = changed.take()
            tableChanges.advanceAll()
        }
        do {
            try await job.run(connection)
            job.finish(nil)
        } catch {
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            job.finish(error)
        }
    }

    /// One transaction for `jobs` and one COMMIT; every job is finished when this returns.
    ///
    /// The batch first runs without savepoints: a savepoint makes SQLite (and SQLCipher, encrypting) copy every
    /// page a job touches into a journal of its own, a third of the writer's time per recorded result. Jobs almost
    /// never throw; when one does, the whole transaction is rolled back and the batch runs again with a savepoint
    /// per job, so that only the job that throws is undone. A job's `run` may therefore run twice: it changes
    /// nothing but the database.
    private func commit(_ jobs: [Job], on connection: SQLiteConnection, _ changed: ChangedTables) async {
        guard !jobs.isEmpty else { return }
        // A batch of unsynced jobs alone commits without an fsync; the next synced COMMIT flushes the log with it.
        let unsynced = !jobs.contains(where: \.synced)
        if unsynced { try? connection.execute("PRAGMA synchronous = NORMAL") }
        defer { if unsynced { try? connection.execute("PRAGMA synchronous = FULL") } }
        do {
            try await connection.run("BEGIN IMMEDIATE")
        } catch {
            for job in jobs { job.finish(error) }
            return
        }
        for job in jobs {
            do {
                try await job.run(connection)
            } catch {
                if connection.isInTransaction { try? connection.execute("ROLLBACK") }
                _ = changed.take()
                if jobs.count == 1 {
                    job.finish(error)
                } else {
                    await commitWithSavepoints(jobs, on: connection, changed)
                }
                return
            }
        }
        finishCommit(jobs, on: connection, changed)
    }

    /// One transaction for `jobs`, a savepoint each, one COMMIT; every job is finished when this returns.
    private func commitWithSavepoints(_ jobs: [Job], on connection: SQLiteConnection, _ changed: ChangedTables) async {
        var pending = jobs[...]
        while !pending.isEmpty {
            do {
                try await connection.run("BEGIN IMMEDIATE")
            } catch {
                for job in pending { job.finish(error) }
                return
            }
            var done: [Job] = []
            var transactionLost: (any Error)?
            while let job = pending.popFirst() {
                do {
                    try await connection.run("SAVEPOINT job")
                    try await job.run(connection)
                    try await connection.run("RELEASE job")
                    done.append(job)
                } catch {
                    guard connection.isInTransaction else {
                        // SQLite ended the whole transaction itself (disk full, I/O error): the jobs before this
                        // one are undone too. The rest start over in a new transaction.
                        job.finish(error)
                        transactionLost = error
                        break
                    }
                    try? connection.execute("ROLLBACK TO job")
                    try? connection.execute("RELEASE job")
                    job.finish(error)
                }
            }
            if let transactionLost {
                _ = changed.take()
                for job in done { job.finish(transactionLost) }
                continue
            }
            finishCommit(done, on: connection, changed)
        }
    }

    /// Commits the open transaction holding `done`, then finishes each of them with the outcome.
    private func finishCommit(_ done: [Job], on connection: SQLiteConnection, _ changed: ChangedTables) {
        do {
            try connection.run("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            _ = changed.take()
            for job in done { job.finish(error) }
            return
        }
        tableChanges.advance(changed.take())
        counters.withLock {
            $0.commits += 1
            $0.jobs += done.count
        }
        for job in done { job.finish(nil) }
    }
}
