import Foundation
import Synchronization
import Workers

#if canImport(Glibc)
import Glibc
#endif

/// Runs tenant scripts out of the server's process: a small pool of confined scoring worker processes (see
/// `ScoringWorker` and `WorkerConfinement`), each driven by a thread of its own.
///
/// The instruction budget inside a worker cannot see work done in C (a sort whose comparisons are C metamethods,
/// comparisons of long strings), so the server keeps a wall-clock deadline on every call: a worker still busy
/// with a call past `killAfter` is killed and replaced, the call answers the time-limit error, and the calls
/// queued behind it go to a fresh worker. Callers wait asynchronously: nothing of scoring runs on Swift's
/// cooperative threads, and a runaway script holds only its worker.
///
/// Calls queue in one line per company (`FairQueue`), taken in turn: a company whose scripts run long gets one
/// call at a time on fewer workers, so it slows itself, never the others. A thread takes a batch of cheap calls
/// and writes it to its worker at once, so under load many calls share each system call and wake-up.
public final class ScoringWorkers: Sendable {
    /// What each call may use inside a worker (the sandbox's own limits).
    public let limits: ScoringLimits
    /// How long a call may hold its worker before the worker is killed: the sandbox's time limit, which stops
    /// plain Lua cleanly, plus a margin for a descheduled worker. Within twice the time limit.
    public let killAfter: Duration
    private let queue: FairQueue<Job>
    fileprivate let record: WorkerPoolRecord

    /// A worker is retired (and replaced) once its calls took this long in all: well before its CPU-time limit.
    static let retireAfter: Duration = .seconds(60)
    /// At most this many calls are sent to a worker at once.
    static let batchSize = 64
    /// A batch of cheap calls is about this long on its worker: what a call of another company may wait behind.
    static let batchTime: Duration = .milliseconds(5)

    /// - Parameters:
    ///   - executable: a program that runs `ScoringWorker.run` when its first argument is `score-worker`: the
    ///     server itself (`/proc/self/exe`).
    ///   - workers: processes (and threads) in the pool; by default one per core.
    ///   - report: told, in a sentence, when a worker is killed, lost or cannot start (the server logs it).
    public init(
        executable: String = "/proc/self/exe",
        limits: ScoringLimits = ScoringLimits(),
        workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.limits = limits
        let margin = max(limits.timeLimit / 2, .milliseconds(50))
        killAfter = limits.timeLimit + min(margin, limits.timeLimit)
        // A tenth of the time limit: ordinary scripts run in microseconds, runaway ones to the limit.
        queue = FairQueue(workers: max(1, workers), slowCall: limits.timeLimit / 10, batchTime: Self.batchTime, batchSize: Self.batchSize)
        record = WorkerPoolRecord(workers: max(1, workers))
        for index in 0..<max(1, workers) {
            let driver = WorkerDriver(index: index, executable: executable, pool: self, report: report)
            let thread = Thread { driver.run() }
            thread.name = "scoring-worker-\(index)"
            thread.start()
        }
    }

    /// Runs the script in a worker; the result is the raw number in 0...10 (the caller rounds it), or why there
    /// is none. See `ScoreEngine.score` for what the script sees. A shared `budget` may end the call (and its
    /// worker) sooner: the examples of a pack share one. `tenant` names whose line the call waits in (a company's
    /// id; empty for the server's own calls).
    public func score(
        _ script: ScriptID,
        source: String,
        subject: ScoringSubject,
        value: Double?,
        values: [String: Double],
        budget: SharedBudget? = nil,
        tenant: String = ""
    ) async -> Result<Double, ScoringError> {
        let request = WorkerRequest.score(script, source: source, subject: subject, value: value, values: values)
        switch await call(request, budget: budget, tenant: tenant) {
        case .score(let score): return .success(score)
        case .failure(let error): return .failure(error)
        case .compiles, .ready: return .failure(.workerStopped("it answered a score with something else"))
        }
    }

    /// Compiles `source` text-only in a worker without running it; the error says why it does not compile.
    public func check(source: String, budget: SharedBudget? = nil, tenant: String = "") async -> ScoringError? {
        switch await call(.check(source: source), budget: budget, tenant: tenant) {
        case .compiles: return nil
        case .failure(let error): return error
        case .score, .ready: return .workerStopped("it answered a compile check with something else")
        }
    }

    /// The worker processes now (0 where one is being replaced), for tests that signal one from outside.
    public var processIDs: [pid_t] { record.processIDs }

    /// What the pool has done since it started (workers started, killed, lost), read at once; tests check it.
    public var counters: WorkerPoolRecord.Counters { record.counters }

    /// Calls waiting for a worker, all companies together; tests wait on it.
    public var waitingCalls: Int { queue.waiting }

    /// Stops the threads and their workers once the calls already queued are answered.
    public func shutdown() {
        queue.close()
    }

    private func call(_ request: WorkerRequest, budget: SharedBudget?, tenant: String) async -> WorkerReply {
        let frame = WorkerMessage.frame(request)
        guard frame.count - 4 <= WorkerMessage.maximumFrameBytes else {
            return .failure(ScoringError(kind: .compile, message: "the script is too large to run"))
        }
        return await withCheckedContinuation { continuation in
            queue.append(Job(frame: frame, budget: budget, tenant: tenant, continuation: continuation), tenant: tenant)
        }
    }

    fileprivate func take() -> [Job]? { queue.take()?.map(\.job) }
    fileprivate func putBack(_ jobs: ArraySlice<Job>) { queue.putBack(jobs.map { ($0, $0.tenant) }) }
    /// Answers `job`, which ran for `ran` on its worker (zero when it never ran), and frees its place in its line.
    fileprivate func answer(_ job: Job, _ reply: WorkerReply, ran: Duration) {
        queue.finished(tenant: job.tenant, ran: ran)
        job.finish(reply)
    }
}

/// One queued call: its request frame, the budget it shares, whose line it waits in, and the caller waiting for
/// the reply.
private final class Job: Sendable {
    let frame: [UInt8]
    let budget: SharedBudget?
    let tenant: String
    private let continuation: CheckedContinuation<WorkerReply, Never>

    init(frame: [UInt8], budget: SharedBudget?, tenant: String, continuation: CheckedContinuation<WorkerReply, Never>) {
        self.frame = frame
        self.budget = budget
        self.tenant = tenant
        self.continuation = continuation
    }

    /// Called exactly once per job.
    func finish(_ reply: WorkerReply) {
        continuation.resume(returning: reply)
    }
}

/// The loop of one pool thread: keeps one worker process (`WorkerSlot`), sends it batches of calls, reads the
/// replies in order, and kills and replaces it when a call passes its deadline.
private final class WorkerDriver: @unchecked Sendable {
    /// Held strongly: the pool lives until `shutdown` ends its threads.
    private let pool: ScoringWorkers
    private let slot: WorkerSlot

    init(index: Int, executable: String, pool: ScoringWorkers, report: @escaping @Sendable (String) -> Void) {
        self.pool = pool
        slot = WorkerSlot(
            kind: "scoring worker",
            index: index,
            executable: executable,
            arguments: [ScoringWorker.command] + pool.limits.workerArguments,
            ready: WorkerMessage.frame(.ready),
            record: pool.record,
            retireAfter: ScoringWorkers.retireAfter,
            report: report
        )
    }

    func run() {
        _ = slot.worker()
        while let jobs = pool.take() {
            let started = ContinuousClock.now
            serve(jobs)
            slot.worked(.now - started)
        }
        slot.close()
    }

    /// Answers `jobs` in order; on a kill or a lost worker, fails the call it was running and puts the rest back.
    private func serve(_ taken: [Job]) {
        // A call whose shared budget ran out while it queued is not sent at all.
        var jobs: ArraySlice<Job> = []
        for job in taken {
            if let budget = job.budget, budget.remaining <= .zero {
                pool.answer(job, .failure(budget.error), ran: .zero)
            } else {
                jobs.append(job)
            }
        }
        guard !jobs.isEmpty else { return }
        guard let process = slot.worker() else {
            for job in jobs { pool.answer(job, .failure(.noWorker), ran: .zero) }
            return
        }
        var output: [UInt8] = []
        var frameEnds: [Int] = []
        for job in jobs {
            output.append(contentsOf: job.frame)
            frameEnds.append(output.count)
        }
        var written = 0
        var input: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        var answered = 0
        // When the worker started the call it is on: its request is all written and the one before answered.
        var runningSince: ContinuousClock.Instant?

        /// Ends the worker, fails the call it was running with `error(how it ended)`, puts the calls behind it
        /// back in the line, and starts a replacement.
        func replaceWorker(killing: Bool, _ why: String, _ error: (_ how: String) -> ScoringError) {
            let how = slot.end(killing: killing, why)
            let ran = runningSince.map { .now - $0 } ?? .zero
            pool.answer(jobs[jobs.startIndex + answered], .failure(error(how)), ran: ran)
            pool.putBack(jobs.dropFirst(answered + 1))
            _ = slot.worker()
        }

        while answered < jobs.count {
            let job = jobs[jobs.startIndex + answered]
            if runningSince == nil && written >= frameEnds[answered] { runningSince = .now }
            var allowed = pool.killAfter
            var deadlineError = ScoringError.timeLimit(pool.limits)
            if let budget = job.budget, budget.remaining < allowed { (allowed, deadlineError) = (budget.remaining, budget.error) }
            let killAt = runningSince.map { $0 + allowed }
            var wanted = pollfd(fd: process.socket, events: Int16(POLLIN), revents: 0)
            if written < output.count { wanted.events |= Int16(POLLOUT) }
            let timeout = killAt.map { Self.milliseconds(until: $0) } ?? -1
            let ready = poll(&wanted, 1, timeout)
            if ready < 0 && errno != EINTR {
                return replaceWorker(killing: true, "could not be polled") { _ in .workerStopped("the server could not wait for it") }
            }
            let replied = ready > 0 && wanted.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
            if !replied, let killAt, ContinuousClock.now >= killAt {
                job.budget?.spend(allowed)
                pool.record.count(.killedForTime)
                return replaceWorker(killing: true, "was killed: a call ran past its deadline") { _ in deadlineError }
            }
            if wanted.revents & Int16(POLLOUT) != 0 {
                let count = output[written...].withUnsafeBytes { send(process.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count > 0 { written += count }
            }
            guard replied else { continue }
            let count = recv(process.socket, &chunk, chunk.count, 0)
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            if count <= 0 {
                pool.record.count(.lost)
                return replaceWorker(killing: true, "stopped while running a call") { .workerStopped($0) }
            }
            input.append(contentsOf: chunk[0..<count])
            var start = 0
            do {
                while let length = try WorkerMessage.completeFrameLength(in: input, from: start) {
                    let reply = try WorkerMessage.reply(input[(start + 4)..<(start + length)])
                    start += length
                    guard answered < jobs.count else { throw WorkerMessage.DecodingError.malformed }
                    let job = jobs[jobs.startIndex + answered]
                    let ran = runningSince.map { .now - $0 } ?? .zero
                    job.budget?.spend(ran)
                    pool.answer(job, reply, ran: ran)
                    answered += 1
                    runningSince = nil
                }
            } catch {
                pool.record.count(.lost)
                return replaceWorker(killing: true, "sent a malformed reply") { _ in .workerStopped("it sent a malformed reply") }
            }
            input.removeFirst(start)
        }
    }

    /// Whole milliseconds from now until `instant`, rounded up, for poll.
    private static func milliseconds(until instant: ContinuousClock.Instant) -> Int32 {
        let left = ContinuousClock.now.duration(to: instant)
        guard left > .zero else { return 0 }
        return Int32(clamping: left.milliseconds + 1)
    }
}

/// Running time shared by several calls (the examples of a pack): a call may run only for what is left, and what
/// it ran is taken off. Time spent waiting for a worker does not count, so a busy server refuses no pack.
public final class SharedBudget: Sendable {
    /// What the calls may run in all.
    public let total: Duration
    private let left: Mutex<Duration>

    /// A budget of `total` running time for the calls that share it; 1 s for a pack's examples (`ExerciseScorer.packBudget`).
    public init(_ total: Duration) {
        self.total = total
        left = Mutex(total)
    }

    var remaining: Duration { left.withLock { $0 } }

    func spend(_ time: Duration) {
        left.withLock { $0 -= time }
    }

    /// What a call answers once the budget is spent.
    var error: ScoringError { .packTimeLimit(total) }
}
