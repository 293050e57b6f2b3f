/// One problem with one input field, e.g. `email`: "is not a valid email address".
public struct FieldError: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The field's name as the client sent it; nested fields are joined with dots (`height.unit`).
    public var field: String
    /// What is wrong, as a phrase that follows the field's name: "must be at most 200 characters".
    public var message: String

    /// A problem with `field` (dotted path as sent); `message` reads after it, lower-case, without a full stop.
    public init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    /// `field: message`, as logs and command-line errors show it.
    public var description: String { "\(field): \(message)" }
}

/// Input that breaks the domain's rules. Carries every problem found, not just the first, so a client can fix
/// them all at once.
public struct ValidationError: Error, Sendable, Equatable {
    /// Every problem found, in the order the checks ran; never empty when thrown.
    public var errors: [FieldError]

    /// Carries every problem a validation collected (see `FieldErrorCollector`).
    public init(_ errors: [FieldError]) {
        self.errors = errors
    }

    /// Carries one problem.
    public init(_ field: String, _ message: String) {
        self.errors = [FieldError(field, message)]
    }
}

/// Collects field errors while validating several fields, then throws them together.
public struct FieldErrorCollector: Sendable {
    /// What `check` and `add` collected so far, in order.
    public private(set) var errors: [FieldError] = []

    /// An empty collector; use one per validation, then `throwIfAny()`.
    public init() {}

    /// Runs `validate`; if it throws a `ValidationError`, keeps its errors and returns nil.
    public mutating func check<T>(_ validate: () throws(ValidationError) -> T) -> T? {
        do {
            return try validate()
        } catch {
            errors.append(contentsOf: error.errors)
            return nil
        }
    }

    /// Records a problem found without throwing (a cross-field rule, a missing required field).
    public mutating func add(_ field: String, _ message: String) {
        errors.append(FieldError(field, message))
    }

    /// Throws a `ValidationError` with everything collected, if anything was; returns when all was well.
    public func throwIfAny() throws(ValidationError) {
        if !errors.isEmpty { throw ValidationError(errors) }
    }
}
