import API
import HealthwheelCore

extension Error {
    /// The fields a refusal names, which a form shows beside each one (the API's problem for it, so both doors
    /// name the same fields); empty for refusals about no field, which become pages of their own.
    var formErrors: [FieldError] {
        (self as? any ProblemConvertible)?.problem.errors ?? []
    }
}

extension [FieldError] {
    /// The messages by field, two for one field joined: what a form shows beside each input. `answers.smoker`
    /// (a screening answer, as the API names it) is shown beside `smoker`.
    var byField: [String: String] {
        var byField: [String: String] = [:]
        for error in self {
            let field = error.field.hasPrefix("answers.") ? String(error.field.dropFirst("answers.".count)) : error.field
            byField[field] = byField[field].map { $0 + "; " + error.message } ?? error.message
        }
        return byField
    }
}
