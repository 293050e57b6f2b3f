import HealthwheelCore

/// An earlier state of a result, with who replaced it, when and why.
struct RevisionBody: JSONObjectBody {
    var revision: AssessmentResult.Revision
    var display: [String: ImperialDisplay.Value]?

    var jsonFields: [(key: String, value: JSONField)] {
        [("revision", .int(revision.revision))]
            + revision.state.jsonFields(display: display)
            + [
                ("replacedAt", .date(revision.replacedAt)),
                ("replacedBy", .uuid(revision.replacedBy)),
                ("reason", .string(revision.reason.rawValue)),
            ]
    }
}
