import HealthwheelCore

extension Trainer {
    /// The one rule for what only an admin may do (manage trainers, themes, packs and the company's settings,
    /// rescore a client): a use case checks it, and the HTTP door asks it before reading a body it would refuse.
    public func requireAdmin(to action: String) throws(ServiceError) {
        guard role == .admin else { throw ServiceError.forbidden(detail: "only an admin can \(action)") }
    }
}
