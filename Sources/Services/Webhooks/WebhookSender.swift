import Credentials
import Foundation
import HealthwheelCore
import Logging
import StoreContract
import Webhooks

/// Delivers webhooks in the background. Each tick (or wake) it turns new audit lines into queued deliveries
/// (`WebhookRepository.fanOut`: one node at a time), claims what is due for its free lanes (a few per company, so
/// one company's slow receiver cannot hold every lane), and posts each on its lane's thread: signed per Standard
/// Webhooks with every secret the endpoint signs with, never following a redirect, pinned to the addresses the
/// policy allowed. A 2xx is `delivered`; a 410 turns the endpoint off; anything else is tried again per
/// `WebhookRetryPolicy` (honouring `Retry-After`) until its tenth attempt fails.
public final class WebhookSender: Sendable {
    let webhooks: any WebhookRepository
    let poster: WebhookPoster
    let settings: WebhookSettings
    let policy = WebhookRetryPolicy()
    let clock: any WallClock
    let logger: Logger
    /// Claims due deliveries for its lanes, each a thread of its own.
    private let loop: OutboxLoop<DispatchQueue>

    public init(webhooks: any WebhookRepository, settings: WebhookSettings, clock: any WallClock, logger: Logger) {
        self.webhooks = webhooks
        self.poster = WebhookPoster(settings: settings.poster)
        self.settings = settings
        self.clock = clock
        self.logger = logger
        let lanes = (0..<max(settings.lanes, 1)).map { DispatchQueue(label: "healthwheel.webhooks.\($0)") }
        loop = OutboxLoop(lanes: lanes, tick: settings.tick, logger: logger, name: "webhook outbox")
    }

    /// Asks the sender to look for events and due deliveries now.
    public func wake() {
        loop.wake()
    }

    /// Delivers until the task is cancelled. Call once per sender.
    public func run() async {
        let (webhooks, clock, settings) = (self.webhooks, self.clock, self.settings)
        await loop.run {
            await fanOut()
        } claim: { free in
            guard let due = try await webhooks.nextDue(), due <= clock.now else { return [] }
            return try await webhooks.claimDue(at: clock.now, limit: free, perCompany: settings.perCompany, lease: settings.claimLease)
        } attempt: { (claim: ClaimedWebhookDelivery, lane: DispatchQueue) in
            do {
                try await self.attempt(claim, on: lane)
            } catch {
                // Not stored: the delivery stays `sending` and is claimed again when its lease runs out.
                self.logger.error("webhook outbox: \(error)", metadata: ["webhook.delivery": "\(claim.delivery.id)"])
            }
        }
    }

    /// Queues deliveries for every event line written since the last look.
    func fanOut() async {
        do {
            while !Task.isCancelled {
                let (_, more) = try await webhooks.fanOut(at: clock.now, lines: 2_000)
                if !more { return }
            }
        } catch {
            logger.error("webhook outbox: \(error)")
        }
    }

    /// The headers of one attempt: the message id, the time, the signatures, the JSON type.
    static func headers(for delivery: WebhookDelivery, secrets: [[UInt8]], at now: Date) -> [(name: String, value: String)] {
        let timestamp = Int64(now.timeIntervalSince1970)
        let signature = WebhookSignature.header(
            id: delivery.messageId,
            timestamp: timestamp,
            body: delivery.payload,
            secrets: secrets.map(WebhookSecret.init(key:))
        )
        return [
            ("Content-Type", "application/json"), ("User-Agent", "Healthwheel-Webhooks/1"), ("webhook-id", delivery.messageId),
            ("webhook-timestamp", String(timestamp)), ("webhook-signature", signature),
        ]
    }

    private func attempt(_ claim: ClaimedWebhookDelivery, on lane: DispatchQueue) async throws {
        let delivery = claim.delivery
        // The wall clock, not the injected one: receivers hold the timestamp to their own clocks (five minutes).
        let headers = Self.headers(for: delivery, secrets: claim.secrets, at: Date())
        let poster = self.poster
        let outcome = await withCheckedContinuation { continuation in
            lane.async { continuation.resume(returning: poster.post(delivery.payload, to: claim.url, headers: headers)) }
        }
        let now = clock.now
        let metadata: Logger.Metadata = ["webhook.delivery": "\(delivery.id)", "attempt": "\(delivery.attempts)"]
        let stored: WebhookAttemptOutcome
        switch outcome {
        case .delivered(let status):
            stored = WebhookAttemptOutcome(id: delivery.id, status: .delivered, httpStatus: status, error: nil, nextAttemptAt: nil)
        case .refused(let reason):
            // The address is one the server may not reach: no attempt is ever sent there.
            stored = WebhookAttemptOutcome(id: delivery.id, status: .failed, httpStatus: nil, error: "not sent: \(reason)", nextAttemptAt: nil)
            logger.warning("webhook refused: \(reason)", metadata: metadata)
        case .failed(410, _, _):
            let reason = "the receiver answered 410 Gone"
            stored = WebhookAttemptOutcome(
                id: delivery.id,
                status: .failed,
                httpStatus: 410,
                error: reason,
                nextAttemptAt: nil,
                disablingEndpoint: reason
            )
            logger.notice("webhook endpoint turned off: \(reason)", metadata: metadata)
        case .failed(let status, let retryAfter, let message):
            if let wait = policy.wait(afterFailedAttempts: delivery.attempts, spread: Double.random(in: 0..<1), retryAfter: retryAfter) {
                stored = WebhookAttemptOutcome(
                    id: delivery.id,
                    status: .queued,
                    httpStatus: status,
                    error: message,
                    nextAttemptAt: now.addingTimeInterval(wait)
                )
            } else {
                stored = WebhookAttemptOutcome(
                    id: delivery.id,
                    status: .failed,
                    httpStatus: status,
                    error: "gave up after \(delivery.attempts) attempts: \(message)",
                    nextAttemptAt: nil
                )
            }
        }
        try await webhooks.finish(stored, at: now)
    }
}
