import Foundation
import HealthwheelCore
import StoreContract

/// Records an app creates offline under ids of its own, sent when the device is back: the same id and body again
/// is the same record (answered as created, marked a replay), the same id with something else is `id-taken`
/// (the door shows the record as the server holds it, for the app to adopt), and the id of a record deleted or
/// erased meanwhile is `record-removed` (410: the app drops its copy). Nothing compares stored request bodies:
/// a record matches a body when applying the body to it changes nothing, so a retry matches until someone
/// changes the record, and then the app is shown what changed.
public enum AppChosenIds {
    /// What creating under an app's id came to.
    public enum Outcome<Record: Sendable>: Sendable {
        case created(Record)
        /// The record was there already, as this body makes it: a retry.
        case replayed(Record)

        public var record: Record {
            switch self {
            case .created(let record), .replayed(let record): record
            }
        }
    }

    /// `kind` (`client`, `result`, `screening`) holds other values under this id, or the id is another's.
    public static func taken(_ kind: String) -> ServiceError {
        .conflict(
            slug: "id-taken",
            detail: "this id names a \(kind) that holds something else: adopt the server's (current) or send a new id",
            errors: [FieldError("id", "names a \(kind) that holds something else")]
        )
    }

    /// The `kind` with this id was deleted or erased since the app made it.
    public static func removed(_ kind: String) -> ServiceError {
        .gone(
            slug: "record-removed",
            detail: "the \(kind) with this id was deleted: drop it from the app",
            errors: [FieldError("id", "names a \(kind) that was deleted")]
        )
    }

    /// How long an app may hold what it did offline before sending it: a month.
    public static let longestOffline: TimeInterval = 30 * 86_400

    /// A moment an app reports for something it did offline (`takenAt`, `completedAt`): within the last month,
    /// and not ahead of the server's clock but for a tablet's skew.
    static func requireDeviceTime(_ date: Date, field: String, now: Date) throws(ServiceError) {
        if date > now.addingTimeInterval(ResultEdit.clockSkew) { throw .invalid(field, "is in the future") }
        if date < now.addingTimeInterval(-longestOffline) { throw .invalid(field, "is more than 30 days ago") }
    }

    /// The client named in a path, for a record made under them: `notFound` as always, or `record-removed` when
    /// they were deleted or erased meanwhile.
    static func requireClient(
        _ id: UUID,
        in company: UUID,
        audit: any AuditRepository,
        find: () async throws -> ClientRecord
    ) async throws -> ClientRecord {
        do {
            return try await find()
        } catch ServiceError.notFound("client") {
            if try await audit.wasRemoved(.client, id, client: id, in: company) {
                throw ServiceError.gone(
                    slug: "client-removed",
                    detail: "this client was deleted: drop their records from the app",
                    errors: [FieldError("clientId", "names a client that was deleted")]
                )
            }
            throw ServiceError.notFound("client")
        }
    }
}
