import HealthwheelCore
import Store

/// The one place that decides whether a client may have assessment results recorded: only after a completed
/// screening. Step 3's results routes call this and nothing else.
enum ScreeningGate {
    static func requireCompletedScreening(_ record: ClientRecord) throws {
        guard record.screening.latestCompletedAt != nil else { throw Problem.screeningRequired }
    }
}

extension Problem {
    static let screeningRequired = Problem(
        .conflict,
        slug: "screening-required",
        detail: "this client has no completed screening yet: complete one before recording assessments"
    )
}
