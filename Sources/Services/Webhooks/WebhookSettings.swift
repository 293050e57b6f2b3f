import HealthwheelCore
import Webhooks

/// How the server delivers webhooks: where deliveries may go (the address policy, with the operator's allowed
/// ranges) and how many are sent at once.
public struct WebhookSettings: Sendable {
    /// The address policy and trusted certificates the poster uses.
    public var poster = WebhookPosterSettings()
    /// Deliveries in flight at once, each on a thread of its own (libcurl blocks).
    public var lanes = 8
    /// Deliveries of one company in flight at once: a company whose receiver is slow (15 s a timeout) holds at
    /// most these lanes, and the others keep delivering for everyone else.
    public var perCompany = 2
    /// How often the outbox looks for new events in the audit trail and for retries that fell due.
    public var tick: Duration = .seconds(1)
    /// How long a claimed delivery stays its claimer's: well past an attempt's 15 s, so no other node sends it twice.
    public var claimLease: Double = 60

    public init() {}
}
