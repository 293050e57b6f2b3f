import Synchronization
import Testing

@testable import Store

/// When a PostgreSQL node gives freed memory back: after a look finds it quiet since the one before (no more than
/// its own pollers' leases), once per quiet spell.
@Suite struct IdleMemoryReleaseTests {
    final class Releases: Sendable {
        let count = Mutex(0)
    }

    @Test func freedMemoryGoesBackOnceAQuietSpellIsSeenAndNeverWhileWorkGoesOn() {
        let releases = Releases()
        let idle = IdleMemoryRelease(every: nil, background: 2) { releases.count.withLock { $0 += 1 } }
        func work() { for _ in 0..<3 { idle.noteActivity() } }
        let count = { releases.count.withLock { $0 } }
        idle.look()
        #expect(count() == 0, "nothing was done since the start: nothing to give back")
        work()
        idle.look()
        #expect(count() == 0, "work since the last look")
        idle.look()
        #expect(count() == 1, "a look with nothing new since the last one")
        idle.noteActivity()
        idle.noteActivity()
        idle.look()
        #expect(count() == 1, "once per quiet spell, a poller's leases notwithstanding")
        for _ in 0..<3 {
            work()
            idle.look()
        }
        #expect(count() == 1, "work between every two looks")
        idle.look()
        #expect(count() == 2)
    }
}
