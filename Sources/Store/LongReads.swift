import Foundation
import NIOCore

/// Threads of the store's own for reads that can take long (a search of a chain-sized roster answered by SQL, a
/// page of the audit trail, an export): the caller suspends while one of these waits on the disk and the CPU,
/// so Swift's cooperative threads (one per core) stay free for every other request. Reads that take
/// microseconds (a cached session's, a client by id) stay inline (`Database.read`): a hop to a thread costs
/// more than they do.
final class LongReads: Sendable {
    private let queue = JobLine()

    /// Starts `threads` threads named `hw-reader`.
    init(threads: Int) {
        for _ in 0..<max(1, threads) {
            let queue = self.queue
            let thread = Thread {
                StoreThread.reader.configureCurrentThread()
                while let job = queue.next() { job() }
            }
            thread.start()
        }
    }

    /// Runs `job` on one of the threads.
    func run(_ job: @escaping @Sendable () -> Void) {
        queue.append(job)
    }

    /// Lets the threads end once the queued reads are done.
    func close() {
        queue.close()
    }

    /// The reads waiting for a thread, first in first out.
    private final class JobLine: @unchecked Sendable {
        private let condition = NSCondition()
        private var jobs = CircularBuffer<@Sendable () -> Void>()
        private var closed = false

        func append(_ job: @escaping @Sendable () -> Void) {
            condition.lock()
            jobs.append(job)
            condition.signal()
            condition.unlock()
        }

        func next() -> (@Sendable () -> Void)? {
            condition.lock()
            defer { condition.unlock() }
            while jobs.isEmpty {
                if closed { return nil }
                condition.wait()
            }
            return jobs.removeFirst()
        }

        func close() {
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
