import Foundation
import HealthwheelCore

/// Who is calling: the trainer a session belongs to, and their company.
public struct Principal: Sendable, Equatable {
    /// The trainer the bearer token was issued to, as stored now (a changed role counts at once).
    public var trainer: Trainer
    /// The trainer's company: every read and write of the request is scoped to it.
    public var company: Company
    /// How current each cache is, as this read learnt it: handed whole to the use cases a request calls.
    public var freshness: Freshness
    /// When the session was opened and when it ends (as stored when it was read).
    public var session: DateInterval

    public init(
        trainer: Trainer,
        company: Company,
        freshness: Freshness = .unknown,
        session: DateInterval = DateInterval(start: .distantPast, end: .distantFuture)
    ) {
        self.trainer = trainer
        self.company = company
        self.freshness = freshness
        self.session = session
    }
}

/// What the session's read learnt about one client of the principal's company (see `Freshness.namedClient`).
public struct ClientStamps: Sendable, Equatable {
    public var client: UUID
    /// Nil when the client is not the company's.
    public var wheel: WheelStamp?

    public init(client: UUID, wheel: WheelStamp?) {
        self.client = client
        self.wheel = wheel
    }
}
