import Foundation
import NIOCore
import StoreContract

/// Threads of the store's own for reads that can take long (a search of a chain-sized roster answered by SQL, a
/// page of the audit trail, an export): the caller suspends while one of these waits on the disk and the CPU,
/// so Swift's cooperative threads (one per core) stay free for every other request. Reads that take
/// microseconds (a cached session's, a client by id) stay inline (`SQLiteDatabase.read`): a hop to a thread costs
/// more than they do.
///
/// Each company's reads wait in a line of their own and the threads take from the lines in turn, so a chain
/// searching its roster from many connections delays another company's read by one of its reads at most, never
/// by all it has queued.
final class LongReads: Sendable {
    private let lines = Lines()

    /// Starts `threads` threads named `hw-reader`.
    init(threads: Int) {
        for _ in 0..<max(1, threads) {
            let lines = self.lines
            let thread = Thread {
                StoreThread.reader.configureCurrentThread()
                while let job = lines.next() { job() }
            }
            thread.start()
        }
    }

    /// Runs `job` on one of the threads, in `company`'s turn.
    func run(for company: UUID, _ job: @escaping @Sendable () -> Void) {
        lines.append(job, company: company)
    }

    /// Lets the threads end once the queued reads are done.
    func close() {
        lines.close()
    }

    /// The reads waiting for a thread: one line per company, taken in turn.
    private final class Lines: @unchecked Sendable {
        private let condition = NSCondition()
        private var waiting = CompanyLines<@Sendable () -> Void>()
        private var closed = false

        func append(_ job: @escaping @Sendable () -> Void, company: UUID) {
            condition.lock()
            waiting.append(job, company: company)
            condition.signal()
            condition.unlock()
        }

        func next() -> (@Sendable () -> Void)? {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if let job = waiting.next() { return job }
                if closed { return nil }
                condition.wait()
            }
        }

        func close() {
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
