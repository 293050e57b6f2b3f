import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Scoring
@testable import Workers

/// Scoring workers shared fairly between companies: the queue's rules on their own, then real workers.
@Suite struct FairQueueTests {
    /// The queue's time, moved by hand.
    let clock = TestClock()

    /// Two workers; a call of 10 ms or more on average is slow; a batch of cheap calls is about 5 ms.
    func makeQueue() -> FairQueue<Int> {
        let clock = self.clock
        return FairQueue(workers: 2, slowCall: .milliseconds(10), batchTime: .milliseconds(5), batchSize: 64) { clock.now }
    }

    /// Teaches a line that its calls are cheap (or slow) by running and ending one of them, and lets any rest that
    /// follows a slow call pass.
    func learn(_ queue: FairQueue<Int>, _ tenant: String, ran: Duration) {
        queue.append(-1, tenant: tenant)
        let batch = queue.take()!
        #expect(batch.map(\.tenant) == [tenant])
        queue.finished(tenant: tenant, ran: ran)
        clock.advance(by: ran * 3)
    }

    /// After a call that ran slow, its company rests three times as long: a quarter of one worker's time.
    @Test func aLineRestsAfterASlowCall() {
        let queue = makeQueue()
        learn(queue, "b", ran: .microseconds(100))
        for job in 0..<3 { queue.append(job, tenant: "a") }
        #expect(queue.take()!.map(\.job) == [0])
        queue.finished(tenant: "a", ran: .milliseconds(150))
        queue.append(1000, tenant: "b")
        #expect(queue.take()!.map(\.job) == [1000], "company A rests")
        clock.advance(by: .milliseconds(449))
        queue.append(1001, tenant: "b")
        #expect(queue.take()!.map(\.job) == [1001], "company A rests still")
        clock.advance(by: .milliseconds(1))
        #expect(queue.take()!.map(\.job) == [1])
    }

    @Test func aLineNeverSeenSendsOneCallAloneUntilItsCostIsKnown() {
        let queue = makeQueue()
        for job in 0..<10 { queue.append(job, tenant: "a") }
        #expect(queue.take()!.map(\.job) == [0])
        queue.finished(tenant: "a", ran: .microseconds(50))
        // Cheap now: the rest in one batch.
        #expect(queue.take()!.map(\.job) == Array(1..<10))
    }

    @Test func cheapLinesShareABatchInTurn() {
        let queue = makeQueue()
        learn(queue, "a", ran: .microseconds(100))
        learn(queue, "b", ran: .microseconds(100))
        for job in 0..<3 { queue.append(job, tenant: "a") }
        for job in 10..<13 { queue.append(job, tenant: "b") }
        let batch = queue.take()!
        #expect(batch.map(\.job) == [0, 1, 2, 10, 11, 12])
    }

    /// A company whose calls run to their deadline has one call on one worker at a time, alone in its batch:
    /// another company's calls go to the other worker, however many the slow one queued first.
    @Test func aSlowLineRunsOneCallAloneOnFewerWorkers() {
        let queue = makeQueue()
        learn(queue, "a", ran: .milliseconds(150))
        learn(queue, "b", ran: .microseconds(100))
        for job in 0..<100 { queue.append(job, tenant: "a") }
        queue.append(1000, tenant: "b")
        let first = queue.take()!
        #expect(first.map(\.job) == [0])
        // The slow line holds its one worker: the next batch is the other company's, not the slow line's.
        let second = queue.take()!
        #expect(second.map(\.job) == [1000])
        queue.append(1001, tenant: "b")
        #expect(queue.take()!.map(\.job) == [1001])
        // Once its call ends and its rest is over, the slow line sends its next, alone.
        queue.finished(tenant: "a", ran: .milliseconds(150))
        clock.advance(by: .milliseconds(450))
        #expect(queue.take()!.map(\.job) == [1])
        #expect(queue.waiting == 98)
    }

    /// Two companies whose calls run long share the workers a slow line may have: the last worker stays free for
    /// the company whose calls are cheap.
    @Test func slowLinesTogetherLeaveAWorkerFree() {
        let queue = makeQueue()
        learn(queue, "a", ran: .milliseconds(150))
        learn(queue, "c", ran: .milliseconds(150))
        learn(queue, "b", ran: .microseconds(100))
        for job in 0..<10 { queue.append(job, tenant: "a") }
        for job in 20..<30 { queue.append(job, tenant: "c") }
        queue.append(1000, tenant: "b")
        #expect(queue.take()!.map(\.job) == [0])
        #expect(queue.take()!.map(\.job) == [1000], "not company C's: one worker is left to the others")
        queue.finished(tenant: "a", ran: .milliseconds(150))
        #expect(queue.take()!.map(\.job) == [20], "then the slow lines in turn (company A rests)")
    }

    @Test func callsPutBackGoFirstInTheirLines() {
        let queue = makeQueue()
        learn(queue, "a", ran: .microseconds(100))
        for job in 0..<4 { queue.append(job, tenant: "a") }
        let batch = queue.take()!
        queue.finished(tenant: "a", ran: .microseconds(100))
        queue.putBack(Array(batch.dropFirst()))
        #expect(queue.take()!.map(\.job) == [1, 2, 3])
    }

    /// As media workers use it: one call at a time, never slow, and a company holds at most one worker of two.
    @Test func aLineRunsNoMoreCallsAtOnceThanItsShare() {
        let queue = FairQueue<Int>(workers: 2, slowCall: .seconds(86_400), batchTime: .zero, batchSize: 1, runningPerLine: 1) { clock.now }
        queue.append(-1, tenant: "a")
        #expect(queue.take()!.map(\.job) == [-1])
        queue.finished(tenant: "a", ran: .milliseconds(400))
        for job in 0..<3 { queue.append(job, tenant: "a") }
        #expect(queue.take()!.map(\.job) == [0], "one at a time, and no rest after a long call")
        queue.append(10, tenant: "b")
        #expect(queue.take()!.map(\.job) == [10], "company A has its one running: the other worker is B's")
        queue.finished(tenant: "a", ran: .milliseconds(400))
        #expect(queue.take()!.map(\.job) == [1])
    }

    /// As media workers use it on four cores (five workers): a company alone may run four calls; once another has
    /// calls too, each may run two, and a company that has taken more runs no more until it is back within its part.
    @Test func linesWithCallsShareTheRunningCallsEqually() {
        let queue = FairQueue<Int>(workers: 5, slowCall: .seconds(86_400), batchTime: .zero, batchSize: 1, runningPerLine: 4) { clock.now }
        queue.append(-1, tenant: "a")
        #expect(queue.take()!.map(\.job) == [-1])
        queue.finished(tenant: "a", ran: .milliseconds(10))
        for job in 0..<8 { queue.append(job, tenant: "a") }
        for expected in 0..<4 { #expect(queue.take()!.map(\.job) == [expected], "alone: four at once") }
        for job in 10..<14 { queue.append(job, tenant: "b") }
        #expect(queue.take()!.map(\.job) == [10])
        queue.finished(tenant: "b", ran: .milliseconds(10))
        #expect(queue.take()!.map(\.job) == [11], "B runs one while A, over its part, waits")
        queue.finished(tenant: "a", ran: .milliseconds(10))
        queue.finished(tenant: "a", ran: .milliseconds(10))
        #expect(queue.take()!.map(\.job) == [12], "A still runs two: its part")
        queue.finished(tenant: "a", ran: .milliseconds(10))
        #expect(queue.take()!.map(\.job) == [4], "A back under its part")
    }

    @Test func aClosedQueueAnswersNilOnceEmpty() {
        let queue = makeQueue()
        queue.close()
        #expect(queue.take() == nil)
    }
}

/// Real workers, one of them: company A queues calls that each run to the time limit, then company B asks for
/// one score. B is answered after a call or two of A's, not after all of them (first come, first served made B
/// wait for every call A had queued). Nothing here reads a clock: the test counts A's calls answered by the time
/// B's task runs again with its answer. A's line is long (60 calls) and the bound loose (under three quarters of
/// them), since on a loaded machine (the whole suite on two cores) B's task may run again seconds after its answer,
/// while A's calls go on being answered on the pool's thread; first come, first served would still make it all 60.
@Test func aCompanyWhoseScriptsRunToTheirDeadlineDoesNotHoldAnothersScore() async throws {
    let workers = ScoringWorkers(executable: HealthwheelExecutable.url.path, limits: ScoringLimits(timeLimit: .milliseconds(50)), workers: 1)
    defer { workers.shutdown() }
    // Busy in C, where the instruction budget cannot see it: each call holds its worker until it is killed.
    let hostile = hostileScripts[0].source
    let finishedOfA = Tally()
    let callsOfA = 60
    try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<callsOfA {
            group.addTask {
                let result = await workers.score(
                    ScriptID(exerciseId: "a-\(index)", version: 1),
                    source: hostile,
                    subject: woman,
                    value: 1,
                    values: [:],
                    tenant: "company-a"
                )
                #expect(result.kind == .timeLimit)
                finishedOfA.add()
            }
        }
        // B asks once A's calls wait in line (all but the one running).
        while workers.waitingCalls < callsOfA - 1 && finishedOfA.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let score = await workers.score(
            ScriptID(exerciseId: "b", version: 1),
            source: "return 7",
            subject: woman,
            value: 1,
            values: [:],
            tenant: "company-b"
        )
        let aheadOfB = finishedOfA.count
        #expect(try score.get() == 7)
        #expect(aheadOfB < callsOfA * 3 / 4, "company B's score waited for \(aheadOfB) of company A's \(callsOfA) calls")
        try await group.waitForAll()
    }
}

/// A time that moves only when a test moves it.
final class TestClock: Sendable {
    private let instant = Mutex(ContinuousClock.now)
    var now: ContinuousClock.Instant { instant.withLock { $0 } }
    func advance(by duration: Duration) { instant.withLock { $0 += duration } }
}
