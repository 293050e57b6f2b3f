import Foundation

/// A trainer an admin adds, as sent: checked whole, so every problem is reported at once.
public struct NewTrainer: Sendable, Equatable {
    public var email: String
    public var name: String
    public var role: String
    public var password: String

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
