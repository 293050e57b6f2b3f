import Foundation
import HealthwheelCore
import Logging
import Mail
import Reports
import Store

/// Delivers the outbox in the background: each due delivery is claimed (`sending`), handed to the transport on
/// the mail thread, then marked `sent`, `failed` (a permanent refusal, or the last attempt) or queued again
/// after the retry policy's wait. It wakes when a delivery is accepted and once a tick, so retries fall due on
/// time; whatever was queued or interrupted when the server stopped is delivered after it starts again.
public final class MailSender: Sendable {
    let deliveries: any DeliveryRepository
    let transport: any MailTransport
    let policy: DeliveryRetryPolicy
    let clock: any WallClock
    let tick: Duration
    let logger: Logger
    private let wakeups: AsyncStream<Void>
    private let bell: AsyncStream<Void>.Continuation

    /// SMTP conversations block: they run one at a time on this thread, never on Swift concurrency's pool.
    private static let mailThread = DispatchQueue(label: "healthwheel.mail")

    /// A sender over the outbox, delivering by `settings.route` with the default retry policy; `serve` runs it.
    public convenience init(deliveries: any DeliveryRepository, settings: MailSettings, clock: any WallClock, logger: Logger) {
        self.init(deliveries: deliveries, transport: settings.transport, tick: settings.tick, clock: clock, logger: logger)
    }

    init(
        deliveries: any DeliveryRepository,
        transport: any MailTransport,
        policy: DeliveryRetryPolicy = DeliveryRetryPolicy(),
        tick: Duration,
        clock: any WallClock,
        logger: Logger
    ) {
        self.deliveries = deliveries
        self.transport = transport
        self.policy = policy
        self.tick = tick
        self.clock = clock
        self.logger = logger
        (wakeups, bell) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks the sender to look for due mail now.
    public func wake() {
        bell.yield()
    }

    /// Delivers until the task is cancelled. Call once per sender.
    public func run() async {
        do {
            let interrupted = try await deliveries.requeueInterrupted(at: clock.now)
            if interrupted > 0 { logger.notice("queued again \(interrupted) email(s) interrupted by a stop") }
        } catch {
            logger.error("could not queue interrupted email again: \(error)")
        }
        let ticker = Task { [bell, tick] in
            while !Task.isCancelled {
                try? await Task.sleep(for: tick)
                bell.yield()
            }
        }
        defer { ticker.cancel() }
        await withTaskCancellationHandler {
            bell.yield()
            for await _ in wakeups { await deliverDue() }
        } onCancel: {
            bell.finish()
        }
    }

    /// Delivers every delivery that is due, one after another.
    func deliverDue() async {
        do {
            while !Task.isCancelled {
                guard let due = try await deliveries.nextDue(), due <= clock.now else { return }
                guard let (delivery, message) = try await deliveries.claimDue(at: clock.now) else { return }
                try await attempt(delivery, message)
            }
        } catch {
            // The store refused: nothing was lost, and the next tick tries again.
            logger.error("email outbox: \(error)")
        }
    }

    private func attempt(_ delivery: Delivery, _ message: [UInt8]) async throws {
        let transport = self.transport
        let outcome: DeliveryFailure? = await withCheckedContinuation { continuation in
            Self.mailThread.async {
                do throws(DeliveryFailure) {
                    try transport.deliver(message, id: delivery.id, to: delivery.recipients)
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(returning: error)
                }
            }
        }
        let now = clock.now
        let metadata: Logger.Metadata = ["delivery.id": "\(delivery.id)", "attempt": "\(delivery.attempts)"]
        switch outcome {
        case nil:
            try await deliveries.finish(delivery.id, status: .sent, error: nil, nextAttemptAt: nil, at: now)
            logger.info("email sent", metadata: metadata)
        case .permanent(let reason)?:
            try await deliveries.finish(delivery.id, status: .failed, error: reason, nextAttemptAt: nil, at: now)
            logger.warning("email refused for good: \(reason)", metadata: metadata)
        case .temporary(let reason)?:
            if let wait = policy.wait(afterFailedAttempts: delivery.attempts) {
                try await deliveries.finish(delivery.id, status: .queued, error: reason, nextAttemptAt: now.addingTimeInterval(wait), at: now)
                logger.notice("email not sent, trying again in \(Int(wait)) s: \(reason)", metadata: metadata)
            } else {
                let error = "gave up after \(delivery.attempts) attempts: \(reason)"
                try await deliveries.finish(delivery.id, status: .failed, error: error, nextAttemptAt: nil, at: now)
                logger.warning("email \(error)", metadata: metadata)
            }
        }
    }
}
