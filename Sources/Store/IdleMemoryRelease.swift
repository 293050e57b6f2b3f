import Dispatch
import Synchronization
import Workers

/// Hands freed memory back to the system once the store has been idle for a while: glibc keeps what a burst of work
/// freed (a vCard import's cards, a report's drawing on its threads) in its heaps, resident, until trimmed.
///
/// The embedded file's writer does this when its writes stop (`GroupCommitWriter`); a PostgreSQL node has no such
/// thread, so its database notes each lease (`noteActivity`) and this looks every `interval`: the first look that
/// finds the node quiet since the one before (at most `background` leases: the node's own pollers, such as the
/// mail outbox's, take about one a second) releases once, and nothing more until work has come and gone again.
/// A server that served 100,000 clients on PostgreSQL after a bench's imports and reports held 223 MB; the same on
/// the embedded file, trimmed when idle, 169 MB.
final class IdleMemoryRelease: Sendable {
    private struct Looks {
        var lastSeen = 0
        var released = true
    }

    private let activity = Atomic<Int>(0)
    private let looks = Mutex(Looks())
    private let release: @Sendable () -> Void
    private let background: Int
    private let ticking = Mutex<Task<Void, Never>?>(nil)

    /// Looks every `interval` (nil: only when `look` is called, as tests do); `release` hands the memory back.
    init(
        every interval: Duration?,
        background: Int = 20,
        release: @escaping @Sendable () -> Void = { ProcessMemory.returnFreedPages() }
    ) {
        self.release = release
        self.background = background
        guard let interval else { return }
        let task = Task.detached(priority: .background) { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                // A trim walks every heap under its locks: off Swift's threads.
                guard let self else { return }
                DispatchQueue.global(qos: .background).async { self.look() }
            }
        }
        ticking.withLock { $0 = task }
    }

    /// Work was done (a connection leased).
    func noteActivity() {
        activity.add(1, ordering: .relaxed)
    }

    /// Releases if the node was quiet since the last look, once per quiet spell.
    func look() {
        let seen = activity.load(ordering: .relaxed)
        let releasing = looks.withLock { looks -> Bool in
            defer { looks.lastSeen = seen }
            if seen - looks.lastSeen > background {
                looks.released = false
                return false
            }
            guard !looks.released else { return false }
            looks.released = true
            return true
        }
        if releasing { release() }
    }

    func stop() {
        ticking.withLock { $0?.cancel() }
    }
}
