import Foundation
import HealthwheelCore
import StoreContract

/// The one place that decides whether a client may have assessment results recorded: only after a completed
/// screening. Recording a result calls this and nothing else.
enum ScreeningGate {
    /// With `takenAt` (a result an app recorded offline), the screening must have been completed by then, as the
    /// gate would have held when the result was taken.
    static func requireCompletedScreening(_ record: ClientRecord, at takenAt: Date? = nil) throws(ServiceError) {
        guard let completed = record.screening.latestCompletedAt else {
            throw .conflict(
                slug: "screening-required",
                detail: "this client has no completed screening yet: complete one before recording assessments"
            )
        }
        if let takenAt, completed > takenAt {
            throw .conflict(
                slug: "screening-required",
                detail: "this client's screening was completed after takenAt: a result taken before it is not recorded",
                errors: [FieldError("takenAt", "is before the client's screening was completed")]
            )
        }
    }
}
