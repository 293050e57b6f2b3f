import Foundation
import HealthwheelCore

/// A result as the API shows it. Values are in stored units (SI); `score` is null with a `scoreError` when the
/// script gave none. Empty fields are sent as `null` rather than left out, so an app can rely on every key.
struct ResultBody: Encodable {
    var result: AssessmentResult
    /// Only on a POST's answer: whether it amended the trainer's recent result instead of adding one.
    var amended: Bool?
    /// Only with `?units=imperial`: the values an imperial reader converts (lengths, masses, distances).
    var display: [String: ImperialDisplay.Value]?

    enum CodingKeys: String, CodingKey {
        case id, clientId, exerciseId, categoryId, packVersion, trainerId, values, display, observations, subject, score, scoreError
        case recordedAt, createdAt, updatedAt, revision, amended
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(result.id, forKey: .id)
        try container.encode(result.clientId, forKey: .clientId)
        try container.encode(result.exerciseId, forKey: .exerciseId)
        try container.encode(result.categoryId, forKey: .categoryId)
        try container.encode(result.packVersion, forKey: .packVersion)
        try container.encode(result.trainerId, forKey: .trainerId)
        try container.encode(ByKey(result.values), forKey: .values)
        try container.encodeIfPresent(display.map(ByKey.init), forKey: .display)
        try container.encode(result.observations, forKey: .observations)
        try container.encode(result.subject.map(SubjectBody.init), forKey: .subject)
        try container.encode(result.score, forKey: .score)
        try container.encode(result.scoreError, forKey: .scoreError)
        try container.encode(result.recordedAt, forKey: .recordedAt)
        try container.encode(result.createdAt, forKey: .createdAt)
        try container.encode(result.updatedAt, forKey: .updatedAt)
        try container.encode(result.revision, forKey: .revision)
        try container.encodeIfPresent(amended, forKey: .amended)
    }
}

/// An earlier state of a result, with who replaced it, when and why.
struct RevisionBody: Encodable {
    var revision: AssessmentResult.Revision
    var display: [String: ImperialDisplay.Value]?

    enum CodingKeys: String, CodingKey {
        case revision, packVersion, values, display, observations, subject, score, scoreError, recordedAt, replacedAt, replacedBy, reason
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(revision.revision, forKey: .revision)
        try container.encode(revision.packVersion, forKey: .packVersion)
        try container.encode(ByKey(revision.values), forKey: .values)
        try container.encodeIfPresent(display.map(ByKey.init), forKey: .display)
        try container.encode(revision.observations, forKey: .observations)
        try container.encode(revision.subject.map(SubjectBody.init), forKey: .subject)
        try container.encode(revision.score, forKey: .score)
        try container.encode(revision.scoreError, forKey: .scoreError)
        try container.encode(revision.recordedAt, forKey: .recordedAt)
        try container.encode(revision.replacedAt, forKey: .replacedAt)
        try container.encode(revision.replacedBy, forKey: .replacedBy)
        try container.encode(revision.reason.rawValue, forKey: .reason)
    }
}

/// The client as a script saw them, with unknown height or mass as `null`.
struct SubjectBody: Encodable {
    var subject: Subject

    init(_ subject: Subject) {
        self.subject = subject
    }

    enum CodingKeys: String, CodingKey {
        case sex, age, height, mass
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(subject.sex.rawValue, forKey: .sex)
        try container.encode(subject.age, forKey: .age)
        try container.encode(subject.height, forKey: .height)
        try container.encode(subject.mass, forKey: .mass)
    }
}

/// `{"key": value}` with keys in sorted order: the same result always encodes to the same bytes.
struct ByKey<Value: Encodable>: Encodable {
    var values: [String: Value]

    init(_ values: [String: Value]) {
        self.values = values
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for key in values.keys.sorted() { try container.encode(values[key]!, forKey: Key(stringValue: key)) }
    }
}

extension ImperialDisplay {
    /// Each of `values` an imperial reader would convert, by the quantity of its field in `exercise`.
    static func values(_ values: [String: Double], of exercise: Exercise) -> [String: Value] {
        var display: [String: Value] = [:]
        for (key, stored) in values {
            if let quantity = exercise.field(key)?.quantity, let value = ImperialDisplay.value(stored, of: quantity) { display[key] = value }
        }
        return display
    }
}
