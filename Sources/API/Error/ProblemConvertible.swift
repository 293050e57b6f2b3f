import HTTPTypes
import HealthwheelCore
import Services

/// An error from deeper layers that knows which problem it is for a client. The conformances below are the one
/// place where the domain's and the use cases' refusals become HTTP statuses, slugs and field names.
public protocol ProblemConvertible: Error {
    var problem: Problem { get }
}

extension ServiceError: ProblemConvertible {
    public var problem: Problem {
        switch self {
        case .notFound(let what): .notFound(what)
        case .absent(let slug, let detail): Problem(.notFound, slug: slug, detail: detail)
        case .unknownReference(let errors):
            Problem(
                .notFound,
                slug: "reference-not-found",
                detail: errors.map { "\($0.field) \($0.message)" }.joined(separator: "; "),
                errors: errors
            )
        case .forbidden(let slug, let detail, let errors): Problem(.forbidden, slug: slug, detail: detail, errors: errors)
        case .conflict(let slug, let detail, let errors): Problem(.conflict, slug: slug, detail: detail, errors: errors)
        case .gone(let slug, let detail, let errors): Problem(.gone, slug: slug, detail: detail, errors: errors)
        case .invalid(let errors): .invalid(errors)
        case .limited(let seconds, let detail): .tooManyRequests(detail, retryAfter: seconds)
        case .unsupportedType(let detail): Problem(.unsupportedMediaType, slug: "unsupported-media-type", detail: detail)
        case .tooLarge(_, let detail): Problem(.contentTooLarge, slug: "too-large", detail: detail)
        case .storageFull(let detail):
            Problem(HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), slug: "storage-full", detail: detail)
        }
    }
}

extension Sessions.Refusal: ProblemConvertible {
    public var problem: Problem {
        switch self {
        case .rateLimited(let seconds):
            return .tooManyRequests("too many failed logins; try again in \(seconds) s", retryAfter: seconds)
        case .wrongCredentials:
            return Problem(.unauthorized, slug: "login-failed", detail: "the email or the password is not correct")
        case .companyRequired(let companies):
            let detail = "this email and password open an account in \(companies.count) companies: log in again with one's companyId"
            var problem = Problem(.conflict, slug: "company-required", detail: detail, errors: [FieldError("companyId", "is required: \(detail)")])
            problem.members["companies"] = .array(
                companies.map { .object(["id": .string($0.id.uppercaseHyphenated), "name": .string($0.name)]) }
            )
            return problem
        }
    }
}

extension ValidationError: ProblemConvertible {
    public var problem: Problem { .invalid(errors) }
}

extension TrainerRules.Refusal: ProblemConvertible {
    public var problem: Problem {
        switch self {
        case .forbidden(let reason): .forbidden(reason)
        case .lastAdmin: .conflict(slug: "last-admin", "a company must keep at least one admin", field: "role")
        case .ownAccount: .conflict(slug: "own-account", "an admin cannot delete their own account; another admin can")
        }
    }
}

extension ScreeningRules.Refusal: ProblemConvertible {
    /// Answers are named as the client sent them, under `answers`.
    public var problem: Problem {
        switch self {
        case .invalid(let errors):
            .invalid(errors.map { FieldError("answers.\($0.field)", $0.message) })
        case .locked(let keys):
            Problem(
                .conflict,
                slug: "screening-locked",
                detail: "the screening is completed: \(keys.joined(separator: ", ")) can no longer change",
                errors: keys.map { FieldError("answers.\($0)", "is locked since the screening was completed") }
            )
        case .notAsked(let errors):
            Problem(
                .conflict,
                slug: "answer-not-asked",
                detail: "the screening's answers do not ask \(errors.map(\.field).joined(separator: ", "))",
                errors: errors.map { FieldError("answers.\($0.field)", $0.message) }
            )
        }
    }
}
