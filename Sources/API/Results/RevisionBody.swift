import HealthwheelCore

/// An earlier state of a result, with who replaced it, when and why.
struct RevisionBody: Encodable {
    var revision: AssessmentResult.Revision
    var display: [String: ImperialDisplay.Value]?

    // Written by hand: the state sits among the revision's own fields, as in `ResultBody`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ResultKeys.self)
        try container.encode(revision.revision, forKey: .revision)
        try container.encodeScoredState(revision.state, display: display)
        try container.encode(revision.replacedAt, forKey: .replacedAt)
        try container.encode(revision.replacedBy, forKey: .replacedBy)
        try container.encode(revision.reason.rawValue, forKey: .reason)
    }
}
