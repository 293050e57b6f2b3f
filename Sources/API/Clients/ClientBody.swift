import Foundation
import HealthwheelCore
import Hummingbird
import Services
import StoreContract

/// A client as the API shows it: stored fields, computed age, screening overview, and (with `?units=imperial`)
/// display values. Every key is always present (`null` when unknown), so client apps see one stable shape.
struct ClientBody: JSONObjectBody {
    let record: ClientRecord
    let overview: ScreeningOverview
    let age: Int?
    let imperial: Bool

    init(_ record: ClientRecord, now: Date, imperial: Bool) {
        self.record = record
        self.overview = ScreeningOverview(record.screening, now: now)
        self.age = record.client.age(on: now)
        self.imperial = imperial
    }

    var jsonFields: [(key: String, value: JSONField)] {
        let client = record.client
        var fields: [(key: String, value: JSONField)] = [
            ("id", .uuid(client.id)),
            ("companyId", .uuid(client.companyId)),
            ("givenName", .string(client.givenName)),
            ("familyName", .string(client.familyName)),
            ("email", .string(client.email)),
            ("phone", .string(client.phone)),
            ("birthDate", .string(client.birthDate?.description)),
            ("age", .int(age)),
            ("sex", .string(client.sex?.rawValue)),
            ("height", .double(client.height)),
            ("mass", .double(client.mass)),
            ("goal", .string(client.goal)),
            ("notes", .string(client.notes)),
            ("assignedTrainerId", .uuid(client.assignedTrainerId)),
            ("hasPhoto", .bool(record.hasPhoto)),
            ("screeningStatus", .string(overview.screeningStatus.rawValue)),
            ("flags", .strings(overview.flags)),
            ("rescreenDue", .bool(overview.rescreenDue)),
            ("lastScreenedAt", .date(overview.lastScreenedAt)),
            ("createdAt", .date(client.createdAt)),
            ("updatedAt", .date(client.updatedAt)),
        ]
        if imperial {
            let display = Display(
                height: client.height.map { ImperialDisplay.height(metres: $0) },
                mass: client.mass.map { ImperialDisplay.mass(kilograms: $0) }
            )
            fields.append(("display", .encodable(display)))
        }
        return fields
    }

    struct Display: JSONObjectBody {
        var height: ImperialDisplay.Height?
        var mass: ImperialDisplay.Mass?

        var jsonFields: [(key: String, value: JSONField)] {
            [("height", .encodable(height)), ("mass", .encodable(mass))]
        }
    }
}
