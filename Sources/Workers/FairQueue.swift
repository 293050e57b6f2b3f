import Foundation

/// The calls waiting for a pool of worker processes (scoring, media), one line per tenant (a company), taken in
/// turn so that no company's calls can starve another's: a company whose calls run long gets fewer workers, never
/// all of them.
///
/// Each line learns what its calls cost (a moving average of their running time, `cost`), and that decides how it
/// is served:
/// - a line whose calls are cheap sends many in one batch (up to what fits `batchTime`), as one system call;
/// - a line whose calls are slow (`cost` at least `slowCall`) sends one call at a time, alone in its batch, so
///   nobody else's call waits behind it on that worker; slow lines together have at most `slowLineWorkers` calls
///   running (all workers but one), so a worker stays free for everyone else, however many calls they queue;
/// - after a call that ran slow, its line rests `slowLineRest` times as long before its next starts: a company
///   whose scripts run to their deadline has a quarter of one worker's time, so its runaway scripts (and the
///   workers started again after each is killed) take little of the cores the others' requests need.
///
/// A line never seen starts as slow and takes the cost of its first call that ends: a company cannot put a batch
/// of slow calls on a worker before the pool knows them. Generic over the job so its rules are tested on their own.
public final class FairQueue<Job>: @unchecked Sendable {
    /// What a line of calls has learned and holds.
    private struct Line {
        var waiting: [Job] = []
        var head = 0
        /// Calls of this line taken by a worker and not yet answered.
        var running = 0
        /// Of those, the ones taken while the line was slow.
        var runningAsSlow = 0
        /// Seconds: the moving average of its calls' running time; until one has ended, as if slow.
        var cost: Double
        /// Whether a call has ended: the first sets `cost` outright, later ones move it.
        var measured = false
        /// Until when the line rests after a slow call.
        var restUntil: ContinuousClock.Instant?

        var isEmpty: Bool { head == waiting.count }

        mutating func popFirst() -> Job {
            let job = waiting[head]
            head += 1
            if head == waiting.count || head > 1024 {
                waiting.removeSubrange(0..<head)
                head = 0
            }
            return job
        }
    }

    /// A call at least this long on average makes its line slow.
    let slowCall: Duration
    /// What a batch of cheap calls may be expected to take on its worker.
    let batchTime: Duration
    /// At most this many calls in one batch.
    let batchSize: Int
    /// Calls of slow lines running at once, all lines together: all workers but one (one when there is only one).
    let slowLineWorkers: Int
    /// Calls of one line running at once, whatever its cost, while it is the only line with calls: a company
    /// cannot hold more workers than this. While several lines have calls, each may run an equal part of it (at
    /// least one): companies that all keep the workers busy share the cores equally.
    let runningPerLine: Int
    /// How many times what a slow call ran its line rests afterwards.
    static var slowLineRest: Double { 3 }
    /// The time (a test moves its own).
    private let now: @Sendable () -> ContinuousClock.Instant

    /// Lines whose cost is kept while idle.
    static var rememberedLines: Int { 10_000 }

    private let condition = NSCondition()
    private var lines: [String: Line] = [:]
    /// Tenants with calls waiting, in the order they are served next.
    private var turn: [String] = []
    /// Calls taken from slow lines and not yet answered.
    private var slowRunning = 0
    /// Tenants with calls waiting or running.
    private var activeLines: Set<String> = []
    private var closed = false

    /// - Parameters:
    ///   - slowCall: a line whose calls take this long on average is slow (media workers: never, by a day).
    ///   - runningPerLine: calls of one line running at once, shared out while several lines have calls (media
    ///     workers: all workers but one, as many as there are cores).
    public init(
        workers: Int,
        slowCall: Duration,
        batchTime: Duration,
        batchSize: Int,
        runningPerLine: Int = .max,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.now = now
        self.runningPerLine = max(1, runningPerLine)
        self.slowCall = slowCall
        self.batchTime = batchTime
        self.batchSize = batchSize
        slowLineWorkers = max(1, workers - 1)
    }

    /// Queues `job` at the end of its tenant's line.
    public func append(_ job: Job, tenant: String) {
        condition.lock()
        lines[tenant, default: Line(cost: slowCall.seconds)].waiting.append(job)
        activeLines.insert(tenant)
        if !turn.contains(tenant) { turn.append(tenant) }
        condition.signal()
        condition.unlock()
    }

    /// Puts calls a worker took and did not run (its worker was killed) back at the front of their lines.
    public func putBack(_ returned: [(job: Job, tenant: String)]) {
        guard !returned.isEmpty else { return }
        condition.lock()
        for (job, tenant) in returned.reversed() {
            var line = lines[tenant, default: Line(cost: slowCall.seconds)]
            line.waiting.insert(job, at: line.head)
            release(&line)
            lines[tenant] = line
            activeLines.insert(tenant)
            if !turn.contains(tenant) { turn.insert(tenant, at: 0) }
        }
        condition.broadcast()
        condition.unlock()
    }

    /// A call a worker took has ended after running for `ran` (zero when it never ran): its line may take another.
    public func finished(tenant: String, ran: Duration) {
        condition.lock()
        if var line = lines[tenant] {
            release(&line)
            line.cost = line.measured ? 0.75 * line.cost + 0.25 * ran.seconds : ran.seconds
            line.measured = true
            if ran >= slowCall { line.restUntil = now() + ran * Self.slowLineRest }
            if line.isEmpty && line.running == 0 { activeLines.remove(tenant) }
            // What lines learned is kept while there are few; past `rememberedLines`, an idle line is forgotten
            // (and starts again as unknown) so that memory stays bounded however many companies call.
            if line.isEmpty && line.running == 0 && lines.count > Self.rememberedLines {
                lines[tenant] = nil
            } else {
                lines[tenant] = line
            }
        }
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch for a worker, waiting while no line may send one; nil once closed and empty. Lines are
    /// visited in turn, each giving what its cost allows, and each line served goes to the back of the turn.
    public func take() -> [(job: Job, tenant: String)]? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let batch = nextBatch()
            if !batch.isEmpty {
                if turn.contains(where: { mayRun($0) }) { condition.signal() }  // more for another worker
                return batch
            }
            if closed && turn.isEmpty { return nil }
            // A resting line may send again at a set time, which no other event announces; any other wait ends
            // with a call that ends (`finished` broadcasts).
            let time = now()
            if let wake = turn.compactMap({ lines[$0]?.restUntil }).filter({ $0 > time }).min() {
                _ = condition.wait(until: Date().addingTimeInterval(time.duration(to: wake).seconds))
            } else {
                condition.wait()
            }
        }
    }

    /// Calls waiting in all lines, for tests and metrics.
    public var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return lines.values.reduce(0) { $0 + $1.waiting.count - $1.head }
    }

    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func isSlow(_ line: Line) -> Bool { line.cost >= slowCall.seconds }

    /// What one line may run now: `runningPerLine` shared out among the lines with calls.
    private var runningShare: Int { max(1, runningPerLine / max(1, activeLines.count)) }

    private func mayRun(_ tenant: String) -> Bool {
        guard let line = lines[tenant], !line.isEmpty else { return false }
        if let rest = line.restUntil, now() < rest { return false }
        guard line.running < runningShare else { return false }
        return !isSlow(line) || slowRunning < slowLineWorkers
    }

    /// One of the line's calls is no longer running.
    private func release(_ line: inout Line) {
        line.running -= 1
        if line.runningAsSlow > 0 {
            line.runningAsSlow -= 1
            slowRunning -= 1
        }
    }

    /// Called with the lock held.
    private func nextBatch() -> [(job: Job, tenant: String)] {
        var batch: [(job: Job, tenant: String)] = []
        var served: [String] = []
        for tenant in turn where batch.count < batchSize {
            guard mayRun(tenant), var line = lines[tenant] else { continue }
            if isSlow(line) {
                // Alone, and only as a batch's first call.
                guard batch.isEmpty else { continue }
                batch.append((line.popFirst(), tenant))
                line.running += 1
                line.runningAsSlow += 1
                slowRunning += 1
                lines[tenant] = line
                served.append(tenant)
                break
            }
            let share = max(1, min(batchSize - batch.count, Int(batchTime.seconds / max(line.cost, 1e-6))))
            for _ in 0..<min(share, runningShare - line.running) where !line.isEmpty {
                batch.append((line.popFirst(), tenant))
                line.running += 1
            }
            lines[tenant] = line
            served.append(tenant)
        }
        // Served lines go to the back, in the order they were served; emptied lines leave the turn.
        turn.removeAll { served.contains($0) }
        turn += served.filter { lines[$0]?.isEmpty == false }
        return batch
    }
}
