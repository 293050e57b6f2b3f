import Foundation

/// An HTTPS address a company's admin registered to hear some of its events (`WebhookEvent.Kind`), signed with a
/// secret only the admin and the server know (the secret is never part of this value).
public struct WebhookEndpoint: Sendable, Equatable {
    public var id: UUID
    public var companyId: UUID
    public var url: String
    /// The events it hears, in `WebhookEvent.Kind`'s order, each once.
    public var events: [WebhookEvent.Kind]
    public var enabled: Bool
    /// Why the server turned it off (its receiver answered 410 Gone); nil when an admin did, or while it is on.
    public var disabledReason: String?
    /// Until when the secret before the last rotation also signs; nil when one secret signs.
    public var previousSecretUntil: Date?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: UUID = UUID(),
        companyId: UUID,
        url: String,
        events: [WebhookEvent.Kind],
        enabled: Bool = true,
        disabledReason: String? = nil,
        previousSecretUntil: Date? = nil,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.id = id
        self.companyId = companyId
        self.url = url
        self.events = WebhookEvent.Kind.allCases.filter(events.contains)
        self.enabled = enabled
        self.disabledReason = disabledReason
        self.previousSecretUntil = previousSecretUntil
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The longest URL an endpoint may have.
    public static let maxURLLength = 2_000
    /// How long the previous secret keeps signing after a rotation: a day to move the receiver to the new one.
    public static let rotationOverlap: TimeInterval = 86_400
    /// Endpoints a company may have.
    public static let maxPerCompany = 20
}

/// One event on its way to one endpoint: queued, being sent (claimed under a lease), delivered, or failed for good.
public struct WebhookDelivery: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable {
        case queued, sending, delivered, failed
    }

    public var id: UUID
    public var endpointId: UUID
    public var companyId: UUID
    public var event: WebhookEvent.Kind
    /// The body as sent (`WebhookEvent.payload`).
    public var payload: [UInt8]
    public var status: Status
    public var attempts: Int
    public var nextAttemptAt: Date?
    /// The last attempt's HTTP status; nil before any answer.
    public var lastStatus: Int?
    public var lastError: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var deliveredAt: Date?

    public init(
        id: UUID,
        endpointId: UUID,
        companyId: UUID,
        event: WebhookEvent.Kind,
        payload: [UInt8],
        status: Status,
        attempts: Int,
        nextAttemptAt: Date?,
        lastStatus: Int?,
        lastError: String?,
        createdAt: Date,
        updatedAt: Date,
        deliveredAt: Date?
    ) {
        self.id = id
        self.endpointId = endpointId
        self.companyId = companyId
        self.event = event
        self.payload = payload
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deliveredAt = deliveredAt
    }

    /// The `webhook-id` header: the same for every attempt and replay, so a receiver can drop a repeat.
    public var messageId: String { "msg_" + id.uuidString.replacingOccurrences(of: "-", with: "").lowercased() }
}
