import HealthwheelCore
import StoreContract

/// The one place that decides whether a client may have assessment results recorded: only after a completed
/// screening. Recording a result calls this and nothing else.
enum ScreeningGate {
    static func requireCompletedScreening(_ record: ClientRecord) throws(ServiceError) {
        guard record.screening.latestCompletedAt != nil else {
            throw .conflict(
                slug: "screening-required",
                detail: "this client has no completed screening yet: complete one before recording assessments"
            )
        }
    }
}
