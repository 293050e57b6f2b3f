import Foundation
import HealthwheelCore

/// A delivery as the API shows it; absent times and errors are `null`, so every delivery has the same keys.
struct DeliveryBody: Encodable {
    let delivery: Delivery

    enum CodingKeys: String, CodingKey {
        case id, clientId, trainerId, status, attempts, lastError, to, cc, subject, createdAt, updatedAt, nextAttemptAt, sentAt
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(delivery.id, forKey: .id)
        try container.encode(delivery.clientId, forKey: .clientId)
        try container.encode(delivery.trainerId, forKey: .trainerId)
        try container.encode(delivery.status, forKey: .status)
        try container.encode(delivery.attempts, forKey: .attempts)
        try container.encode(delivery.lastError, forKey: .lastError)
        try container.encode(delivery.to, forKey: .to)
        try container.encode(delivery.cc, forKey: .cc)
        try container.encode(delivery.subject, forKey: .subject)
        try container.encode(delivery.createdAt, forKey: .createdAt)
        try container.encode(delivery.updatedAt, forKey: .updatedAt)
        try container.encode(delivery.status == .queued ? delivery.nextAttemptAt : nil, forKey: .nextAttemptAt)
        try container.encode(delivery.sentAt, forKey: .sentAt)
    }
}

/// `POST /v1/clients/{id}/report/email`'s body. `to` and `cc` take one address or a list.
struct EmailReportRequest: StrictJSONBody {
    static let nullableKeys: Set<String>? = []
    var to: [String]?
    var cc: [String]
    var message: String?
    /// `{from, to}`; any other key is refused by `periodQuery()`.
    var period: [String: String]?
    var lang: String?
    var units: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case to, cc, message, period, lang, units
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        to = try Self.addresses(container, .to)
        cc = try Self.addresses(container, .cc) ?? []
        message = try container.decodeIfPresent(String.self, forKey: .message)
        period = try container.decodeIfPresent([String: String].self, forKey: .period)
        lang = try container.decodeIfPresent(String.self, forKey: .lang)
        units = try container.decodeIfPresent(String.self, forKey: .units)
    }

    private static func addresses(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> [String]? {
        if let one = try? container.decodeIfPresent(String.self, forKey: key) { return [one] }
        return try container.decodeIfPresent([String].self, forKey: key)
    }

    /// The period asked for, its fields named `period.from` and `period.to` in errors.
    func periodQuery() throws -> PeriodQuery {
        let unknown = (period ?? [:]).keys.filter { $0 != "from" && $0 != "to" }.sorted()
        if !unknown.isEmpty { throw Problem.invalid(unknown.map { FieldError("period.\($0)", "is not a field of a period") }) }
        return try PeriodQuery(from: period?["from"], to: period?["to"]) { "period.\($0)" }
    }
}
