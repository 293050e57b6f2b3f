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

    // Written by hand: the result's state sits among its own fields, and `amended` is only in a POST's answer.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ResultKeys.self)
        try container.encode(result.id, forKey: .id)
        try container.encode(result.clientId, forKey: .clientId)
        try container.encode(result.exerciseId, forKey: .exerciseId)
        try container.encode(result.categoryId, forKey: .categoryId)
        try container.encode(result.trainerId, forKey: .trainerId)
        try container.encodeScoredState(result.state, display: display)
        try container.encode(result.createdAt, forKey: .createdAt)
        try container.encode(result.updatedAt, forKey: .updatedAt)
        try container.encode(result.revision, forKey: .revision)
        if let amended { try container.encode(amended, forKey: .amended) }
    }
}
