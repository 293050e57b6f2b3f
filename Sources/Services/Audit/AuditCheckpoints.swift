import Foundation
import HealthwheelCore
import NIOPosix
import StoreContract
import Synchronization

/// Keeps the audit trail's head outside the database while the server runs: every few minutes, when the head
/// has moved, a line kept outside the database (`AuditHeadKeeping`: the checkpoint file) and the same in the log, so rows later cut
/// off the trail's end are named by `healthwheel audit verify`. On PostgreSQL each node keeps its own.
public final class AuditCheckpoints: Sendable {
    let trail: AuditTrail
    let file: any AuditHeadKeeping
    let clock: any WallClock
    let log: @Sendable (String) -> Void
    private let written = Mutex<AuditHead?>(nil)

    /// How often the server looks at the head.
    public static let interval: Duration = .seconds(300)

    /// Checkpoints of `trail`'s head in `file`; `log` is given each line written.
    public init(trail: AuditTrail, file: any AuditHeadKeeping, clock: any WallClock = SystemClock(), log: @escaping @Sendable (String) -> Void) {
        self.trail = trail
        self.file = file
        self.clock = clock
        self.log = log
    }

    /// Writes a checkpoint when the head moved since the newest one in the file; returns the head written, or nil
    /// when there was nothing new. The file is read, written and synced on NIO's thread pool.
    @discardableResult
    public func checkpoint() async throws -> AuditHead? {
        guard let head = try await trail.head() else { return nil }
        let (file, now) = (self.file, clock.now)
        var last = written.withLock { $0 }
        if last == nil {
            // The newest line the file holds, once per process (a restart on an unmoved head writes nothing).
            last = try await NIOThreadPool.singleton.runIfActive { try? file.newestHead() }
            written.withLock { $0 = last }
        }
        guard last != head else { return nil }
        try await NIOThreadPool.singleton.runIfActive { try file.append(head, at: now) }
        written.withLock { $0 = head }
        log("audit checkpoint: \(file.line(for: head, at: now))")
        return head
    }

    /// Checkpoints every `interval` until the task is cancelled, then once more; a failure is logged, not thrown.
    public func run(every interval: Duration = AuditCheckpoints.interval) async {
        while !Task.isCancelled {
            await checkpointLogging()
            try? await Task.sleep(for: interval)
        }
        await checkpointLogging()
    }

    private func checkpointLogging() async {
        do {
            try await checkpoint()
        } catch {
            log("audit checkpoint failed: \(error)")
        }
    }
}
