import Foundation

/// One emailed report on its way: accepted into the outbox with its whole message, then delivered by the
/// background sender, tried again after temporary failures, until it is sent or has failed for good.
public struct Delivery: Sendable, Equatable, Identifiable {
    /// Where a delivery stands: queued → sending → sent, or back to queued after a temporary failure, or failed.
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Waiting for its (next) attempt.
        case queued
        /// An attempt is under way.
        case sending
        case sent
        /// Refused for good (a 5xx reply), or every attempt failed.
        case failed
    }

    /// Random; the message's `Message-ID` is this id at the sender's domain, so a reply or bounce names it.
    public var id: UUID
    /// The company whose daily email allowance it counts against; every read is scoped to it.
    public var companyId: UUID
    /// The client whose report it carries.
    public var clientId: UUID
    /// Who asked for it.
    public var trainerId: UUID
    /// Lower-cased; those a trainer names are plain ASCII. The client's email when the trainer named none. 1–10 with `cc`.
    public var to: [String]
    /// Lower-cased plain ASCII addresses copied in; may be empty.
    public var cc: [String]
    /// The message's subject as composed (in the report's language), kept so lists need not open the message.
    public var subject: String
    /// Moved only by the background sender (`MailSender`); a `sending` one found at start-up is queued again.
    public var status: Status
    /// Attempts made so far.
    public var attempts: Int
    /// The transport's last complaint (or "gave up after N attempts: …"); nil once sent, and before any failure.
    public var lastError: String?
    /// When the trainer asked for it: what the company's 24-hour allowance counts.
    public var createdAt: Date
    /// When its status last changed.
    public var updatedAt: Date
    /// When the next attempt is due, while queued.
    public var nextAttemptAt: Date?
    /// When the mail server accepted it; nil until then.
    public var sentAt: Date?

    /// A delivery as accepted: queued, no attempt yet, due at `nextAttemptAt` (now, for a new one).
    public init(
        id: UUID = UUID(),
        companyId: UUID,
        clientId: UUID,
        trainerId: UUID,
        to: [String],
        cc: [String],
        subject: String,
        status: Status = .queued,
        attempts: Int = 0,
        lastError: String? = nil,
        createdAt: Date,
        updatedAt: Date,
        nextAttemptAt: Date?,
        sentAt: Date? = nil
    ) {
        self.id = id
        self.companyId = companyId
        self.clientId = clientId
        self.trainerId = trainerId
        self.to = to
        self.cc = cc
        self.subject = subject
        self.status = status
        self.attempts = attempts
        self.lastError = lastError
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.nextAttemptAt = nextAttemptAt
        self.sentAt = sentAt
    }

    /// Every address the message goes to: the SMTP envelope's recipients.
    public var recipients: [String] { to + cc }
}

/// When to try a delivery again: at most 8 attempts, waiting 1 minute after the first failure and growing
/// geometrically to 6 hours before the last, so a mail server that is down for an afternoon still gets the mail.
public struct DeliveryRetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included; after the last temporary failure the delivery is `failed`.
    public var maxAttempts = 8
    /// Waits after failed attempts 1…7, in minutes: 1 · (360)^(k/6), rounded.
    public var waits: [TimeInterval] = [1, 3, 7, 19, 51, 135, 360].map { $0 * 60 }
    /// Seconds a sender's claim on a delivery lasts (one minute), renewed every third of it while the attempt
    /// lasts: when a node dies mid-send, another sends the delivery once its last renewal has run out.
    public var claimLease: TimeInterval = 60

    /// The policy the sender uses: 8 attempts over about 10 hours.
    public init() {}

    /// The wait before the next attempt after `attempts` failed ones; nil when no attempt is left.
    public func wait(afterFailedAttempts attempts: Int) -> TimeInterval? {
        guard attempts >= 1, attempts < maxAttempts else { return nil }
        return waits[min(attempts, waits.count) - 1]
    }
}
