import Foundation
import HealthwheelCore
import StoreContract

/// A client as a list of clients shows them (the web console's roster): names, contact, age, trainer, photo and
/// screening facts. Kept by the in-memory directory beside the API's rendering, in a few dozen bytes.
public struct ClientSummary: Sendable, Equatable {
    public var id: UUID
    public var givenName: String?
    public var familyName: String?
    public var email: String?
    public var phone: String?
    public var birthDate: CalendarDate?
    public var assignedTrainerId: UUID?
    public var hasPhoto: Bool
    public var screening: ScreeningOverview.Facts

    public init(_ record: ClientRecord) {
        let client = record.client
        id = client.id
        givenName = client.givenName
        familyName = client.familyName
        email = client.email
        phone = client.phone
        birthDate = client.birthDate
        assignedTrainerId = client.assignedTrainerId
        hasPhoto = record.hasPhoto
        screening = record.screening
    }

    /// "Given Family", whichever of them is set.
    public var fullName: String {
        [givenName, familyName].compactMap { $0 }.joined(separator: " ")
    }

    /// Whole years at `now` (UTC), or nil without a birth date.
    public func age(at now: Date) -> Int? {
        birthDate.map { $0.years(until: CalendarDate(now)) }
    }
}

extension ClientSummary {
    /// The summary as bytes (`ByteWriter`), read back by `init(bytes:)` exactly.
    var bytes: [UInt8] {
        var writer = ByteWriter()
        writer.write(id.uuidString)
        for text in [givenName, familyName, email, phone, birthDate?.description, assignedTrainerId?.uuidString] {
            writer.write(text != nil)
            if let text { writer.write(text) }
        }
        writer.write(hasPhoto)
        writer.write(screening.hasDraft)
        writer.write(screening.latestCompletedAt?.timeIntervalSince1970)
        writer.write(screening.latestCompletedFlags.count)
        for flag in screening.latestCompletedFlags { writer.write(flag) }
        return writer.bytes
    }

    init(bytes: some Collection<UInt8>) {
        var reader = ByteReader(Array(bytes))
        id = UUID(uuidString: reader.string()) ?? UUID()
        func text() -> String? { reader.bool() ? reader.string() : nil }
        givenName = text()
        familyName = text()
        email = text()
        phone = text()
        birthDate = text().flatMap { CalendarDate($0) }
        assignedTrainerId = text().flatMap(UUID.init(uuidString:))
        hasPhoto = reader.bool()
        let hasDraft = reader.bool()
        let completed = reader.optionalDouble().map(Date.init(timeIntervalSince1970:))
        let flags = (0..<reader.int()).map { _ in reader.string() }
        screening = ScreeningOverview.Facts(latestCompletedAt: completed, latestCompletedFlags: flags, hasDraft: hasDraft)
    }
}
