import Foundation
import HealthwheelCore
import Hummingbird
import Store

/// A client as the API shows it: stored fields, computed age, screening overview, and (with `?units=imperial`)
/// display values. Every key is always present (`null` when unknown), so client apps see one stable shape.
struct ClientBody: Encodable {
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

    enum CodingKeys: String, CodingKey {
        case id, companyId, givenName, familyName, email, phone, birthDate, age, sex, height, mass, goal, notes
        case assignedTrainerId, hasPhoto, screeningStatus, flags, rescreenDue, lastScreenedAt, createdAt, updatedAt, display
    }

    struct Display: Encodable {
        var height: ImperialDisplay.Height?
        var mass: ImperialDisplay.Mass?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(height, forKey: .height)
            try container.encode(mass, forKey: .mass)
        }

        enum CodingKeys: String, CodingKey {
            case height, mass
        }
    }

    func encode(to encoder: any Encoder) throws {
        let client = record.client
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(client.id, forKey: .id)
        try container.encode(client.companyId, forKey: .companyId)
        try container.encode(client.givenName, forKey: .givenName)
        try container.encode(client.familyName, forKey: .familyName)
        try container.encode(client.email, forKey: .email)
        try container.encode(client.phone, forKey: .phone)
        try container.encode(client.birthDate, forKey: .birthDate)
        try container.encode(age, forKey: .age)
        try container.encode(client.sex, forKey: .sex)
        try container.encode(client.height, forKey: .height)
        try container.encode(client.mass, forKey: .mass)
        try container.encode(client.goal, forKey: .goal)
        try container.encode(client.notes, forKey: .notes)
        try container.encode(client.assignedTrainerId, forKey: .assignedTrainerId)
        try container.encode(record.hasPhoto, forKey: .hasPhoto)
        try container.encode(overview.screeningStatus, forKey: .screeningStatus)
        try container.encode(overview.flags, forKey: .flags)
        try container.encode(overview.rescreenDue, forKey: .rescreenDue)
        try container.encode(overview.lastScreenedAt, forKey: .lastScreenedAt)
        try container.encode(client.createdAt, forKey: .createdAt)
        try container.encode(client.updatedAt, forKey: .updatedAt)
        if imperial {
            let display = Display(
                height: client.height.map { ImperialDisplay.height(metres: $0) },
                mass: client.mass.map { ImperialDisplay.mass(kilograms: $0) }
            )
            try container.encode(display, forKey: .display)
        }
    }
}

extension ClientEdit: StrictJSONBody {}

/// `?units=metric` (default) or `?units=imperial`.
func wantsImperialUnits(_ request: Request) throws -> Bool {
    switch request.uri.queryParameters["units"].map(String.init) {
    case nil, "metric": return false
    case "imperial": return true
    default: throw Problem.invalid("units", "must be metric or imperial")
    }
}
