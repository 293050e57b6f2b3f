import Foundation

/// A change to a trainer's profile, as sent: each field absent or a new value. `check` applies the input rules,
/// `Checked.apply` the rules of who may change what (`TrainerRules`).
public struct TrainerEdit: Sendable, Equatable {
    /// A new login email, as sent; nil leaves it.
    public var email: String?
    /// A new display name, as sent; nil leaves it.
    public var name: String?
    /// `admin` or `trainer`, as sent; nil leaves it. Only an admin may change a role.
    public var role: String?
    /// A new password (12–256 characters); nil leaves it.
    public var password: String?
    /// Required when a trainer changes their own password.
    public var currentPassword: String?

    /// The input as sent; nothing is checked until `check(bySelf:)`.
    public init(email: String? = nil, name: String? = nil, role: String? = nil, password: String? = nil, currentPassword: String? = nil) {
        self.email = email
        self.name = name
        self.role = role
        self.password = password
        self.currentPassword = currentPassword
    }

    /// The edit with every field checked, or every problem at once. `bySelf`: the trainer edits their own
    /// profile, so the current password is kept for the caller to verify (an admin resetting another's password
    /// needs none). Whether it is there is the caller's question: its absence is a 403, not a malformed body.
    public func check(bySelf: Bool) throws(ValidationError) -> Checked {
        var problems = FieldErrorCollector()
        let email = email.flatMap { value in problems.check { () throws(ValidationError) in try InputRules.email(value) } }
        let name = name.flatMap { value in problems.check { () throws(ValidationError) in try InputRules.name(value) } }
        let role = role.flatMap { value in problems.check { () throws(ValidationError) in try InputRules.role(value) } }
        if let password {
            problems.check { () throws(ValidationError) in try InputRules.newPassword(password) }
        }
        if currentPassword != nil && password == nil {
            problems.add("currentPassword", "is only used together with password")
        }
        try problems.throwIfAny()
        return Checked(email: email, name: name, role: role, password: password, currentPassword: bySelf ? currentPassword : nil)
    }

    /// An edit whose fields passed the input rules.
    public struct Checked: Sendable, Equatable {
        /// Lower-cased and checked; nil leaves it.
        public var email: String?
        /// Trimmed and checked; nil leaves it.
        public var name: String?
        /// Nil leaves it; `apply` refuses a change by a non-admin or one that leaves the company without an admin.
        public var role: Role?
        /// Checked for length; the caller hashes it (it is not part of a `Trainer`). Nil leaves it.
        public var password: String?
        /// To verify before the password changes: set only when trainers change their own.
        public var currentPassword: String?

        /// Applies the edit to `trainer` on behalf of `actor`, refused by `TrainerRules` (a role change needs an
        /// admin and must leave the company one). `adminCount` is the company's number of admins now.
        /// `updatedAt` moves only when something changed, a new password included.
        public func apply(to trainer: inout Trainer, by actor: Trainer, adminCount: Int, at now: Date) throws(TrainerRules.Refusal) {
            if let role { try TrainerRules.checkRoleChange(actor: actor, target: trainer, to: role, adminCount: adminCount) }
            let before = trainer
            trainer.email = email ?? trainer.email
            trainer.name = name ?? trainer.name
            trainer.role = role ?? trainer.role
            if trainer != before || password != nil { trainer.updatedAt = now }
        }
    }
}
