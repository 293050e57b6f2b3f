import API
import HealthwheelCore
import Services

/// A refusal that names fields, which a form shows beside each one: the domain's validation errors and the use
/// cases' `invalid`. Other refusals (not found, forbidden, conflicts) become pages of their own.
protocol FieldErrors: Error {
    var fieldErrors: [FieldError] { get }
}

extension ValidationError: FieldErrors {
    var fieldErrors: [FieldError] { errors }
}

extension ServiceError: FieldErrors {
    /// The fields of an `invalid` or `unknownReference` refusal; none for the others, which pages show on their own.
    var fieldErrors: [FieldError] {
        switch self {
        case .invalid(let errors), .unknownReference(let errors): errors
        default: []
        }
    }
}
