import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own, at a lower priority than the threads serving requests, for long jobs such as reading and
/// indexing a whole roster (a second or more for 100,000 clients). On Swift's cooperative pool, which has one
/// thread per core (two here), such a job would hold up every request queued behind it; here it only takes CPU
/// that requests leave over. Jobs run one at a time, in the order they came.
final class BackgroundThread: Sendable {
    /// Where client lists are built.
    static let directories = BackgroundThread(name: "hw-directories", nice: 10)

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let wakeUp = DispatchSemaphore(value: 0)

    /// `name` is what `top -H` shows (Linux keeps 15 bytes); `nice` from 0 (normal) to 19 (lowest).
    private init(name: String, nice: Int32) {
        let thread = Thread { [self] in
            Thread.current.name = name
            #if os(Linux)
            // Linux keeps a nice value per thread: this lowers only this one's.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
            #endif
            while true {
                wakeUp.wait()
                while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { job() }
            }
        }
        thread.start()
    }

    /// Runs `work` on the thread; the caller suspends meanwhile.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            jobs.withLock { $0.append { continuation.resume(with: Result { try work() }) } }
            wakeUp.signal()
        }
    }
}
