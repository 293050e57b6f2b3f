import API
import HealthwheelCore

extension Error {
    /// The fields a refusal names, which a form shows beside each one (the API's problem for it, so both doors
    /// name the same fields); empty for refusals about no field, which become pages of their own.
    var formErrors: [FieldError] {
        (self as? any ProblemConvertible)?.problem.errors ?? []
    }
}
