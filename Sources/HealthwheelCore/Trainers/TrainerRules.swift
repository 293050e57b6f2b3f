/// Who may change a trainer's role or remove a trainer. Pure rules; the caller supplies the facts.
public enum TrainerRules {
    /// Why a change to a trainer is refused; thrown through Services, and answered by the API as 403 or 409.
    public enum Refusal: Error, Equatable, Sendable {
        /// The actor's role does not allow this (HTTP 403).
        case forbidden(String)
        /// The change would leave the company without an admin (HTTP 409).
        case lastAdmin
        /// An admin asked to delete their own account, which would end the session that asked (HTTP 409):
        /// another admin removes an admin.
        case ownAccount
    }

    /// May `actor` change `target`'s role to `newRole`? `adminCount` is the company's current number of admins.
    public static func checkRoleChange(actor: Trainer, target: Trainer, to newRole: Role, adminCount: Int) throws(Refusal) {
        if newRole == target.role { return }
        guard actor.role == .admin else { throw .forbidden("only an admin can change a role") }
        if target.role == .admin && adminCount <= 1 { throw .lastAdmin }
    }

    /// May `actor` delete `target`?
    public static func checkRemoval(actor: Trainer, target: Trainer, adminCount: Int) throws(Refusal) {
        guard actor.role == .admin else { throw .forbidden("only an admin can delete a trainer") }
        if actor.id == target.id { throw .ownAccount }
        if target.role == .admin && adminCount <= 1 { throw .lastAdmin }
    }

    /// May `actor` see or edit `target`'s profile (name, email, password)? Admins manage everyone in their
    /// company; a trainer manages only themself.
    public static func checkProfileAccess(actor: Trainer, target: Trainer) throws(Refusal) {
        if actor.role != .admin && actor.id != target.id { throw .forbidden("only an admin can manage other trainers") }
    }
}
