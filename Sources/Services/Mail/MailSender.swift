import Foundation
import HealthwheelCore
import Logging
import Mail
import Reports
import StoreContract

/// Delivers the outbox in the background: each due delivery is claimed (`sending`), handed to a free lane (a
/// transport with a thread of its own, whose SMTP connection stays open for the next message; `connections` of
/// them send at once), then marked `sent`, `failed` (a permanent refusal, or the last attempt) or queued again
/// after the retry policy's wait. It wakes when a delivery is accepted and once a tick, so retries fall due on
/// time; whatever was queued or interrupted when the server stopped is delivered after it starts again.
public final class MailSender: Sendable {
    let deliveries: any DeliveryRepository
    /// Claims due mail for its lanes, each a transport and a thread.
    private let loop: OutboxLoop<Lane>
    let policy: DeliveryRetryPolicy
    let clock: any WallClock
    let logger: Logger

    /// A transport and the thread its blocking conversations run on, never Swift concurrency's pool.
    struct Lane: Sendable {
        let transport: any MailTransport
        let thread: DispatchQueue
    }

    /// A sender over the outbox, delivering by `settings.route` over `settings.connections` lanes with the
    /// default retry policy and `settings.claimLease`; `serve` runs it.
    public convenience init(deliveries: any DeliveryRepository, settings: MailSettings, clock: any WallClock, logger: Logger) {
        let count = min(max(settings.connections, MailSettings.connectionRange.lowerBound), MailSettings.connectionRange.upperBound)
        var policy = DeliveryRetryPolicy()
        policy.claimLease = settings.claimLease
        self.init(
            deliveries: deliveries,
            transports: (0..<count).map { _ in settings.makeTransport() },
            policy: policy,
            tick: settings.tick,
            clock: clock,
            logger: logger
        )
    }

    init(
        deliveries: any DeliveryRepository,
        transports: [any MailTransport],
        policy: DeliveryRetryPolicy = DeliveryRetryPolicy(),
        tick: Duration,
        clock: any WallClock,
        logger: Logger
    ) {
        self.deliveries = deliveries
        let lanes = transports.enumerated().map { Lane(transport: $1, thread: DispatchQueue(label: "healthwheel.mail.\($0)")) }
        loop = OutboxLoop(lanes: lanes, tick: tick, logger: logger, name: "email outbox")
        self.policy = policy
        self.clock = clock
        self.logger = logger
    }

    /// Asks the sender to look for due mail now.
    public func wake() {
        loop.wake()
    }

    /// Delivers until the task is cancelled. Call once per sender.
    public func run() async {
        do {
            let interrupted = try await deliveries.requeueInterrupted(at: clock.now)
            if interrupted.requeued > 0 {
                logger.notice(
                    "queued again \(interrupted.requeued) email(s) interrupted by a stop; \(interrupted.possiblyDelivered) of them had been handed to the mail server and may arrive twice"
                )
            }
        } catch {
            logger.error("could not queue interrupted email again: \(error)")
        }
        let (deliveries, clock, lease) = (self.deliveries, self.clock, policy.claimLease)
        await loop.run { free in
            guard let due = try await deliveries.nextDue(), due <= clock.now else { return [] }
            // As many as there are free lanes, in one transaction.
            return try await deliveries.claimDue(at: clock.now, limit: free, lease: lease)
        } attempt: { (claimed: (Delivery, [UInt8]), lane: Lane) in
            let (delivery, message) = claimed
            do {
                try await self.attempt(delivery, message, on: lane)
            } catch {
                // The outcome could not be stored: the delivery stays `sending` and is claimed again once its
                // lease runs out, so nothing is lost.
                self.logger.error("email outbox: \(error)", metadata: ["delivery.id": "\(delivery.id)"])
            }
        }
    }

    private func attempt(_ delivery: Delivery, _ message: [UInt8], on lane: Lane) async throws {
        let (deliveries, clock, logger, lease) = (self.deliveries, self.clock, self.logger, policy.claimLease)
        // The claim is renewed every third of its lease while the attempt lasts: however slow the mail server,
        // no other node takes a delivery that is being sent; once this node stops, its claims run out.
        let renewal = Task {
            while (try? await Task.sleep(for: .seconds(lease / 3))) != nil {
                do {
                    try await deliveries.extendLease(delivery.id, attempt: delivery.attempts, until: clock.now.addingTimeInterval(lease))
                } catch {
                    logger.warning("email outbox: could not renew a claim: \(error)", metadata: ["delivery.id": "\(delivery.id)"])
                }
            }
        }
        defer { renewal.cancel() }
        // On the lane's own thread, which may wait: the mark is stored before the message leaves. If it cannot
        // be stored the message goes anyway; a stop would then send it again unannounced, still at least once.
        let handingOver: @Sendable () -> Void = {
            let stored = DispatchSemaphore(value: 0)
            Task {
                do {
                    try await deliveries.markHandedOver(delivery.id, at: clock.now)
                } catch {
                    logger.error("email outbox: could not mark the hand-over: \(error)", metadata: ["delivery.id": "\(delivery.id)"])
                }
                stored.signal()
            }
            stored.wait()
        }
        let outcome: DeliveryFailure? = await withCheckedContinuation { continuation in
            lane.thread.async {
                do throws(DeliveryFailure) {
                    try lane.transport.deliver(message, id: delivery.id, to: delivery.recipients, handingOver: handingOver)
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
