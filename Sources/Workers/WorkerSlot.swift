#if canImport(Glibc)
import Glibc
#endif

/// One place in a pool of worker processes, as the pool thread that drives it sees it: the worker running there,
/// started when there is none, found gone when it ended while idle, replaced after a failure, and retired (and
/// replaced) once its requests took `retireAfter` in all, well before its CPU-time limit. Used by its one thread,
/// which starts the first worker (`worker()`) before it waits for requests: a start blocks until the worker is ready.
public final class WorkerSlot {
    /// "scoring worker", "media worker": how the reports name it.
    private let kind: String
    private let index: Int
    private let executable: String
    private let arguments: [String]
    private let ready: [UInt8]
    private let record: WorkerPoolRecord
    private let retireAfter: Duration
    private let report: @Sendable (String) -> Void
    private var process: WorkerProcess?
    /// How long the worker's requests have taken in all: an upper bound of its CPU time.
    private var busy: Duration = .zero

    /// - Parameters:
    ///   - arguments: the worker's command line after the executable; `ready` the frame it sends once confined.
    ///   - report: told, in a sentence, when a worker is lost, replaced or cannot start (the server logs it).
    public init(
        kind: String,
        index: Int,
        executable: String,
        arguments: [String],
        ready: [UInt8],
        record: WorkerPoolRecord,
        retireAfter: Duration,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.kind = kind
        self.index = index
        self.executable = executable
        self.arguments = arguments
        self.ready = ready
        self.record = record
        self.retireAfter = retireAfter
        self.report = report
    }

    /// The worker to send the next request to: the one running, unless it ended while idle (an idle worker never
    /// writes, so a readable socket means it is gone), else a new one; nil when none can start.
    public func worker() -> WorkerProcess? {
        if let idle = process, idle.hasEnded {
            record.count(.lost)
            report("\(kind) \(idle.pid) ended while idle (\(idle.stop(kill: true))); starting another")
            process = nil
        }
        return process ?? start()
    }

    /// Ends the worker after it failed a request (`why`) and says how it ended. The caller answers the request,
    /// then calls `worker()`, which starts another at once: the answer does not wait for a start.
    public func end(killing: Bool = true, _ why: String) -> String {
        guard let failed = process else { return "not running" }
        let how = failed.stop(kill: killing)
        process = nil
        record.setProcessID(0, at: index)
        report("\(kind) \(failed.pid) \(why) (\(how)); starting another")
        return how
    }

    /// Counts `time` as worked; past `retireAfter` the worker is retired and another started.
    public func worked(_ time: Duration) {
        busy += time
        guard busy > retireAfter, let retired = process else { return }
        _ = retired.stop(kill: false)
        process = nil
        _ = start()
    }

    /// Ends the worker for good (the pool is shutting down).
    public func close() {
        if let process { _ = process.stop(kill: false) }
        process = nil
        record.setProcessID(0, at: index)
    }

    private func start() -> WorkerProcess? {
        busy = .zero
        do {
            let started = try WorkerProcess(executable: executable, arguments: arguments, ready: ready)
            process = started
            record.setProcessID(started.pid, at: index)
            record.count(.started)
            return started
        } catch {
            report("\(kind) could not be started from \(executable)")
            return nil
        }
    }
}
