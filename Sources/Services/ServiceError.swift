import HealthwheelCore

/// Why a use case refused, in the domain's terms. Each door tells its caller in its own way: the API maps these
/// to problem documents in one place, the CLI prints them.
public enum ServiceError: Error, Equatable, Sendable {
    /// Nothing of this kind (`"client"`, `"result"`…) with this id in the caller's company; another company's
    /// id is refused exactly like a missing one.
    case notFound(String)
    /// Body fields name something the caller's company does not have (`assignedTrainerId`, `exerciseId`, a
    /// theme's category): a 404 naming each field, as for an id in the path.
    case unknownReference([FieldError])
    /// The record is there but the part asked for is not (a client's photo): a 404 of its own kind, so a client
    /// tells it from an unknown id.
    case absent(slug: String, detail: String)
    /// The caller's role or relation to the thing does not allow this.
    case forbidden(slug: String = "forbidden", detail: String, errors: [FieldError] = [])
    /// The thing's state does not allow this now (locked, changed meanwhile, taken).
    case conflict(slug: String, detail: String, errors: [FieldError] = [])
    /// What the request refers to is no longer served (a changes feed's cursor from a history the store no
    /// longer has): starting again is the way on.
    case gone(slug: String, detail: String, errors: [FieldError] = [])
    /// Input that breaks the rules, every problem at once.
    case invalid([FieldError])
    /// An allowance is used up for now; asking again after `retryAfter` seconds can succeed.
    case limited(retryAfter: Int, detail: String)
    /// A file of a type this use case does not take, or whose bytes are not the type it was declared as.
    case unsupportedType(detail: String)
    /// A body over its limit (`limit` bytes), refused as soon as it passed it.
    case tooLarge(limit: Int, detail: String)
    /// The company's storage allowance is used up: deleting media frees it.
    case storageFull(detail: String)

    /// A conflict about one field, which the single error names with the same words.
    public static func conflict(slug: String, _ detail: String, field: String) -> ServiceError {
        .conflict(slug: slug, detail: detail, errors: [FieldError(field, detail)])
    }

    /// Values that do not fit the fields of the exercise the server holds (`ResultValues.mismatch`), or nothing.
    public static func requireFitting(
        _ values: Patch<[String: MeasurementInput]>,
        of exercise: Exercise,
        partial: Bool,
        path: String = "values"
    ) throws(ServiceError) {
        guard case .set(let sent) = values else { return }
        let mismatch = ResultValues.mismatch(sent.keys, for: exercise, partial: partial, path: path)
        if !mismatch.isEmpty {
            throw .conflict(slug: "values-mismatch", detail: "the values do not fit the fields of \(exercise.id)", errors: mismatch)
        }
    }

    /// One field naming something the company does not have; `message` follows the field's name.
    public static func unknownReference(field: String, message: String) -> ServiceError {
        .unknownReference([FieldError(field, message)])
    }

    /// One problem with one field (`"questionnaireId"`, `"is not a questionnaire of this server"`): a 422 naming it.
    public static func invalid(_ field: String, _ message: String) -> ServiceError {
        .invalid([FieldError(field, message)])
    }
}
