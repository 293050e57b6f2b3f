import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What a pool of worker processes has done, and which processes it runs now: written by the pool's threads, read
/// by tests (which signal a worker from outside) and metrics.
public final class WorkerPoolRecord: Sendable {
    /// What happened to the pool's workers since it started.
    public struct Counters: Sendable, Hashable {
        /// Workers started, replacements included.
        public var started = 0
        /// Workers killed past a request's deadline.
        public var killedForTime = 0
        /// Workers that ended on their own (a crash) or by a signal from outside while the pool used them.
        public var lost = 0

        public init(started: Int = 0, killedForTime: Int = 0, lost: Int = 0) {
            self.started = started
            self.killedForTime = killedForTime
            self.lost = lost
        }
    }

    /// One of the things counted.
    public enum Event: Sendable {
        case started, killedForTime, lost
    }

    private let counted = Mutex(Counters())
    private let ids: Mutex<[pid_t]>

    /// A record for `workers` places, each without a process yet.
    public init(workers: Int) {
        ids = Mutex(Array(repeating: 0, count: workers))
    }

    /// Read at once.
    public var counters: Counters { counted.withLock { $0 } }

    /// The worker processes now, by place (0 where one is being replaced).
    public var processIDs: [pid_t] { ids.withLock { $0 } }

    public func count(_ event: Event) {
        counted.withLock { counters in
            switch event {
            case .started: counters.started += 1
            case .killedForTime: counters.killedForTime += 1
            case .lost: counters.lost += 1
            }
        }
    }

    /// The process at `place` is now `pid` (0: none).
    public func setProcessID(_ pid: pid_t, at place: Int) {
        ids.withLock { $0[place] = pid }
    }
}
