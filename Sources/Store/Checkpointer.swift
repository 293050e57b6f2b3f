import Dispatch
import Foundation
import StoreContract
import Synchronization

/// Copies the write-ahead log back into the database file, mostly on a thread and connection of its own.
///
/// SQLite checkpoints on the committing connection by default: the writer thread would stop committing while it
/// copies thousands of pages and waits for their fsync (a sixth of its time during a large vCard import). Here
/// the writer only counts: once the log holds `threshold` frames after a commit, it asks this thread for a
/// PASSIVE checkpoint, which copies beside new commits (WAL lets writers append while a checkpoint copies) and
/// never waits for readers. Requests made while one runs fold into one more run.
///
/// A log is only started over by a writer that finds it wholly copied, and under steady writes the thread never
/// catches up with the last commit. So once the log reaches twice the threshold, the writer copies the rest
/// itself, between two of its transactions (usually a few frames, the thread having copied the bulk), and its
/// next transaction starts the log over: the `-wal` file stays bounded.
public final class Checkpointer: Sendable {
    /// Frames (pages) in the log that trigger a checkpoint: about 32 MiB. A large log lets a page written by many
    /// commits be copied once, at the price of a bigger `-wal` file between checkpoints.
    public static let defaultThreshold = 8_000

    private let threshold: Int
    private let requested = Atomic<Bool>(false)
    /// A truncation of the log the writer could not finish (readers held on): tried here until it is done.
    private let truncationWanted = Atomic<Bool>(false)
    private let isClosed = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    private let checkpoints = Atomic<Int>(0)
    /// The connection until the thread takes it (see `GroupCommitWriter.handOver`).
    private let handOver: Mutex<SQLiteConnection?>

    /// Starts the thread, which owns `connection` from now on.
    init(connection: SQLiteConnection, threshold: Int) {
        self.threshold = threshold
        handOver = Mutex(connection)
        let thread = Thread { [self] in
            StoreThread.checkpointer.configureCurrentThread()
            if let connection = handOver.withLock({ $0.take() }) { loop(connection) }
            stopped.signal()
        }
        thread.start()
    }

    /// Checkpoints completed so far, for tests.
    var count: Int { checkpoints.load(ordering: .acquiring) }

    /// Called on the writer's connection after each of its commits, which left `frames` in the log.
    func committed(frames: Int, on writer: SQLiteConnection) {
        guard frames >= threshold else { return }
        if frames >= 2 * threshold {
            // Busy while the thread is copying: the writer tries again after its next commit.
            writer.checkpointPassively()
        } else {
            request()
        }
    }

    /// Asks for a checkpoint soon; cheap to call while one is pending or running.
    func request() {
        if !requested.exchange(true, ordering: .acquiringAndReleasing) { wakeUp.signal() }
    }

    /// Asks for the log to be copied back whole and truncated (after an erasure), retried until it is.
    func requestTruncation() {
        truncationWanted.store(true, ordering: .releasing)
        request()
    }

    /// Whether a truncation is still waiting, for tests.
    var isTruncationPending: Bool { truncationWanted.load(ordering: .acquiring) }

    /// Stops the thread (after a checkpoint that is running) and closes its connection.
    func close() {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wakeUp.signal()
        stopped.wait()
    }

    private func loop(_ connection: SQLiteConnection) {
        while true {
            // While a truncation waits, wake up now and then to try it again.
            if truncationWanted.load(ordering: .acquiring) {
                _ = wakeUp.wait(timeout: .now() + .milliseconds(100))
            } else {
                wakeUp.wait()
            }
            if isClosed.load(ordering: .acquiring) { return }
            if truncationWanted.load(ordering: .acquiring), (try? connection.checkpointTruncating(within: .milliseconds(100))) == true {
                truncationWanted.store(false, ordering: .releasing)
                checkpoints.add(1, ordering: .releasing)
                continue
            }
            guard requested.exchange(false, ordering: .acquiringAndReleasing) else { continue }
            // A failure (the disk, say) leaves the log as it was: the next request tries again.
            if (try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)")) != nil {
                checkpoints.add(1, ordering: .releasing)
            }
        }
    }
}
