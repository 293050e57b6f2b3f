import Foundation
import HealthwheelCore
import Services

/// One category of the wheel: the mean of its exercises' latest scores, flagged below the company's threshold.
struct SliceBody: Encodable {
    var categoryId: String
    var name: String
    var colour: String
    var score: Double?
    var flagged: Bool
    /// The lowest-scored exercise: what holds the slice back.
    var weakest: Weakest?
    var exercises: [ExerciseBody]

    init(_ slice: HealthWheel.Slice, display: ClientWheels.Display) {
        categoryId = slice.categoryId
        name = slice.name
        colour = slice.colour
        score = slice.score
        flagged = slice.flagged
        weakest = slice.weakest.map { Weakest(exerciseId: $0.exerciseId, name: $0.name, score: $0.score) }
        exercises = slice.exercises.map {
            ExerciseBody(exerciseId: $0.exerciseId, name: $0.name, score: $0.score, latest: LatestBody($0, display: display))
        }
    }

    struct Weakest: Encodable {
        var exerciseId: String
        var name: String
        var score: Double?
    }

    struct ExerciseBody: Encodable {
        var exerciseId: String
        var name: String
        var score: Double?
        var latest: LatestBody?
    }

    /// The exercise's newest values, with `?units=imperial` also in inches, pounds or miles.
    struct LatestBody: Encodable {
        var values: ByKey<Double>
        var display: ByKey<ImperialDisplay.Value>?
        var recordedAt: Date

        init?(_ exercise: HealthWheel.ExerciseScore, display: ClientWheels.Display) {
            guard let latest = exercise.latest else { return nil }
            values = ByKey(latest.values)
            self.display = display(exercise).map(ByKey.init)
            recordedAt = latest.recordedAt
        }

        enum CodingKeys: String, CodingKey {
            case values, display, recordedAt
        }

        // Written by hand: `display` is there only when asked for.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(values, forKey: .values)
            if let display { try container.encode(display, forKey: .display) }
            try container.encode(recordedAt, forKey: .recordedAt)
        }
    }
}
