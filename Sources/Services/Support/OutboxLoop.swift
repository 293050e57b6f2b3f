import Logging
import Synchronization

/// The loop an outbox's sender runs (email, webhooks). A bell rings when work is accepted or a lane frees, and a
/// tick rings it too, so retries fall due on time; each ring claims what is due for the free lanes and starts an
/// attempt per claim as a child task, on a lane of its own: a stop waits for the attempts in flight, and a slow
/// attempt holds its lane only while the others keep claiming.
final class OutboxLoop<Lane: Sendable>: Sendable {
    /// The lanes not in use; only the loop takes them, finished attempts give them back.
    private let freeLanes: Mutex<[Lane]>
    private let tick: Duration
    private let logger: Logger
    /// What the log calls the outbox (`email outbox`).
    private let name: String
    private let wakeups: AsyncStream<Void>
    private let bell: AsyncStream<Void>.Continuation

    init(lanes: [Lane], tick: Duration, logger: Logger, name: String) {
        freeLanes = Mutex(lanes)
        self.tick = tick
        self.logger = logger
        self.name = name
        (wakeups, bell) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks the loop to look for due work now.
    func wake() {
        bell.yield()
    }

    /// Runs until the task is cancelled. At each ring: `prepare` (what turns new events into work), then `claim`
    /// with the number of free lanes, again while it finds work and lanes are free; `attempt` runs each claim on a
    /// lane (its own errors are its own to log: the claim stays leased and is taken again later). A claim that
    /// throws is logged and tried again at the next ring.
    func run<Work: Sendable>(
        prepare: () async -> Void = {},
        claim: (_ free: Int) async throws -> [Work],
        attempt: @escaping @Sendable (Work, Lane) async -> Void
    ) async {
        let ticker = Task { [bell, tick] in
            while !Task.isCancelled {
                try? await Task.sleep(for: tick)
                bell.yield()
            }
        }
        defer { ticker.cancel() }
        await withDiscardingTaskGroup { group in
            await withTaskCancellationHandler {
                bell.yield()
                for await _ in wakeups {
                    await prepare()
                    await startDue(in: &group, claim: claim, attempt: attempt)
                }
            } onCancel: {
                bell.finish()
            }
        }
    }

    private func startDue<Work: Sendable>(
        in group: inout DiscardingTaskGroup,
        claim: (Int) async throws -> [Work],
        attempt: @escaping @Sendable (Work, Lane) async -> Void
    ) async {
        do {
            while !Task.isCancelled {
                let free = freeLanes.withLock { $0.count }
                guard free > 0 else { return }
                let claimed = try await claim(free)
                if claimed.isEmpty { return }
                for work in claimed {
                    let lane = freeLanes.withLock { $0.removeLast() }
                    group.addTask {
                        await attempt(work, lane)
                        self.freeLanes.withLock { $0.append(lane) }
                        self.bell.yield()
                    }
                }
            }
        } catch {
            // The store refused: nothing was lost, and the next ring tries again.
            logger.error("\(name): \(error)")
        }
    }
}
