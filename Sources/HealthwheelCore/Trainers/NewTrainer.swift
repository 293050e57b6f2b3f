import Foundation

/// A trainer an admin adds, as sent: checked whole, so every problem is reported at once.
public struct NewTrainer: Sendable, Equatable {
    /// The login: lower-cased and checked plainly; unique within its company (the store refuses a second there).
    public var email: String
    /// Trimmed, 1–200 characters: shown in the app and as the reply-to name of report emails.
    public var name: String
    /// `admin` or `trainer`, as sent; `trainer(in:at:)` refuses anything else.
    public var role: String
    /// 12–256 characters, no other rule; hashed by the caller, never kept in a `Trainer`.
    public var password: String

    /// The input as sent; nothing is checked until `trainer(in:at:)`.
    public init(email: String, name: String, role: String, password: String) {
        self.email = email
        self.name = name
        self.role = role
        self.password = password
    }

    /// The trainer to create in `company`, or every problem with the input (the password is checked, not kept).
    public func trainer(in company: UUID, at now: Date) throws(ValidationError) -> Trainer {
        var problems = FieldErrorCollector()
        let email = problems.check { () throws(ValidationError) in try InputRules.email(self.email) }
        let name = problems.check { () throws(ValidationError) in try InputRules.name(self.name) }
        let role = problems.check { () throws(ValidationError) in try InputRules.role(self.role) }
        problems.check { () throws(ValidationError) in try InputRules.newPassword(password) }
        try problems.throwIfAny()  // from here on every checked value is present
        return Trainer(companyId: company, email: email!, name: name!, role: role!, createdAt: now, updatedAt: now)
    }
}
