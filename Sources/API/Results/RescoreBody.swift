import Foundation
import HealthwheelCore
import Services

/// The answer to a rescore: how many results were checked, each change with its score before and after, and
/// each result left alone with why.
struct RescoreBody: Encodable {
    var checked: Int
    var changed: [Change]
    var unchanged: Int
    var skipped: [Skip]

    init(_ report: RescoreReport) {
        checked = report.checked
        changed = report.changed.map {
            Change(resultId: $0.before.id, exerciseId: $0.before.exerciseId, before: State($0.before), after: State($0.after))
        }
        unchanged = report.unchanged
        skipped = report.skipped.map { Skip(resultId: $0.result.id, exerciseId: $0.result.exerciseId, reason: $0.reason) }
    }

    struct Change: Encodable {
        var resultId: UUID
        var exerciseId: String
        var before: State
        var after: State
    }

    struct State: Encodable {
        var packVersion: Int
        var score: Double?
        var scoreError: String?

        init(_ result: AssessmentResult) {
            packVersion = result.packVersion
            score = result.score
            scoreError = result.scoreError
        }
    }

    struct Skip: Encodable {
        var resultId: UUID
        var exerciseId: String
        var reason: String
    }
}
