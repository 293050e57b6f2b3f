import Foundation
import HealthwheelCore

/// A result as the API shows it. Values are in stored units (SI); `score` is null with a `scoreError` when the
/// script gave none. Empty fields are sent as `null` rather than left out, so an app can rely on every key.
struct ResultBody: JSONObjectBody {
    var result: AssessmentResult
    /// Only on a POST's answer: whether it amended the trainer's recent result instead of adding one.
    var amended: Bool?
    /// Only with `?units=imperial`: the values an imperial reader converts (lengths, masses, distances).
    var display: [String: ImperialDisplay.Value]?

    var jsonFields: [(key: String, value: JSONField)] {
        var fields: [(key: String, value: JSONField)] = [
            ("id", .uuid(result.id)),
            ("clientId", .uuid(result.clientId)),
            ("exerciseId", .string(result.exerciseId)),
            ("categoryId", .string(result.categoryId)),
            ("trainerId", .uuid(result.trainerId)),
        ]
        fields += result.state.jsonFields(display: display)
        fields += [
            ("createdAt", .date(result.createdAt)),
            ("updatedAt", .date(result.updatedAt)),
            ("revision", .int(result.revision)),
        ]
        if let amended { fields.append(("amended", .bool(amended))) }
        return fields
    }
}

extension ScoredState {
    /// What a script was given and what it gave: the part a result shares with each earlier state of it.
    /// `display` is there only when asked for (`?units=imperial`).
    func jsonFields(display: [String: ImperialDisplay.Value]?) -> [(key: String, value: JSONField)] {
        var fields: [(key: String, value: JSONField)] = [
            ("packVersion", .int(packVersion)),
            ("values", .numbers(values)),
        ]
        if let display { fields.append(("display", .encodable(ByKey(display)))) }
        fields += [
            ("observations", .string(observations)),
            ("subject", .object(subject.map(SubjectBody.init))),
            ("score", .double(score)),
            ("scoreError", .string(scoreError)),
            ("recordedAt", .date(recordedAt)),
        ]
        return fields
    }
}

/// The client as a script saw them, in a result.
struct SubjectBody: JSONObjectBody {
    var subject: Subject

    var jsonFields: [(key: String, value: JSONField)] {
        [
            ("sex", .string(subject.sex.rawValue)),
            ("age", .int(subject.age)),
            ("height", .double(subject.height)),
            ("mass", .double(subject.mass)),
        ]
    }
}
