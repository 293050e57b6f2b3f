import Foundation

/// One emailed report on its way: accepted into the outbox with its whole message, then delivered by the
/// background sender, tried again after temporary failures, until it is sent or has failed for good.
public struct Delivery: Sendable, Equatable, Identifiable {
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Waiting for its (next) attempt.
        case queued
        /// An attempt is under way.
        case sending
        case sent
        /// Refused for good (a 5xx reply), or every attempt failed.
        case failed
    }

    public var id: UUID
    public var companyId: UUID
    public var clientId: UUID
    /// Who asked for it.
    public var trainerId: UUID
    public var to: [String]
    public var cc: [String]
    public var subject: String
    public var status: Status
    /// Attempts made so far.
    public var attempts: Int
    public var lastError: String?
    public var createdAt: Date
    public var updatedAt: Date
    /// When the next attempt is due, while queued.
    public var nextAttemptAt: Date?
    public var sentAt: Date?

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
    public var maxAttempts = 8
    /// Waits after failed attempts 1…7, in minutes: 1 · (360)^(k/6), rounded.
    public var waits: [TimeInterval] = [1, 3, 7, 19, 51, 135, 360].map { $0 * 60 }

    public init() {}

    /// The wait before the next attempt after `attempts` failed ones; nil when no attempt is left.
    public func wait(afterFailedAttempts attempts: Int) -> TimeInterval? {
        guard attempts >= 1, attempts < maxAttempts else { return nil }
        return waits[min(attempts, waits.count) - 1]
    }
}
