/// One problem with one input field, e.g. `email`: "is not a valid email address".
public struct FieldError: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The field's name as the client sent it; nested fields are joined with dots (`height.unit`).
    public var field: String
    public var message: String

    public init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}

/// Input that breaks the domain's rules. Carries every problem found, not just the first, so a client can fix
/// them all at once.
public struct ValidationError: Error, Sendable, Equatable {
    public var errors: [FieldError]

    public init(_ errors: [FieldError]) {
        self.errors = errors
    }

    public init(_ field: String, _ message: String) {
        self.errors = [FieldError(field, message)]
    }
}

/// Collects field errors while validating several fields, then throws them together.
public struct FieldErrorCollector: Sendable {
    public private(set) var errors: [FieldError] = []

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

    public mutating func add(_ field: String, _ message: String) {
        errors.append(FieldError(field, message))
    }

    public func throwIfAny() throws(ValidationError) {
        if !errors.isEmpty { throw ValidationError(errors) }
    }
}
