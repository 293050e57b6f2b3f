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

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ResultKeys.self)
        try container.encode(result.id, forKey: .id)
        try container.encode(result.clientId, forKey: .clientId)
        try container.encode(result.exerciseId, forKey: .exerciseId)
        try container.encode(result.categoryId, forKey: .categoryId)
        try container.encode(result.trainerId, forKey: .trainerId)
        try container.encodeScoredState(
            packVersion: result.packVersion,
            values: result.values,
            display: display,
            observations: result.observations,
            subject: result.subject,
            score: result.score,
            scoreError: result.scoreError,
            recordedAt: result.recordedAt
        )
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

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ResultKeys.self)
        try container.encode(revision.revision, forKey: .revision)
        try container.encodeScoredState(
            packVersion: revision.packVersion,
            values: revision.values,
            display: display,
            observations: revision.observations,
            subject: revision.subject,
            score: revision.score,
            scoreError: revision.scoreError,
            recordedAt: revision.recordedAt
        )
        try container.encode(revision.replacedAt, forKey: .replacedAt)
        try container.encode(revision.replacedBy, forKey: .replacedBy)
        try container.encode(revision.reason.rawValue, forKey: .reason)
    }
}

/// The keys of a result and of its revisions: one list, so the fields they share are written alike.
enum ResultKeys: String, CodingKey {
    case id, clientId, exerciseId, categoryId, trainerId, packVersion, values, display, observations, subject, score, scoreError
    case recordedAt, createdAt, updatedAt, revision, amended, replacedAt, replacedBy, reason
}

extension KeyedEncodingContainer<ResultKeys> {
    /// What a script was given and what it gave: the part a result shares with each earlier state of it.
    mutating func encodeScoredState(
        packVersion: Int,
        values: [String: Double],
        display: [String: ImperialDisplay.Value]?,
        observations: String?,
        subject: Subject?,
        score: Double?,
        scoreError: String?,
        recordedAt: Date
    ) throws {
        try encode(packVersion, forKey: .packVersion)
        try encode(ByKey(values), forKey: .values)
        try encodeIfPresent(display.map(ByKey.init), forKey: .display)
        try encode(observations, forKey: .observations)
        try encode(subject.map(SubjectBody.init), forKey: .subject)
        try encode(score, forKey: .score)
        try encode(scoreError, forKey: .scoreError)
        try encode(recordedAt, forKey: .recordedAt)
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
