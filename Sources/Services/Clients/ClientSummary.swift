import Foundation
import HealthwheelCore
import Store

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
    /// The summary as bytes: each text after its length (LEB128; 0 is absent), the optional ids and dates after a
    /// presence byte. Read back by `init(bytes:)` exactly.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(96)
        withUnsafeBytes(of: id.uuid) { out.append(contentsOf: $0) }
        for text in [givenName, familyName, email, phone] { Self.append(text, to: &out) }
        Self.append(birthDate?.description, to: &out)
        Self.append(assignedTrainerId?.uuidString, to: &out)
        out.append((hasPhoto ? 1 : 0) | (screening.hasDraft ? 2 : 0))
        Self.append(screening.latestCompletedAt.map { String($0.timeIntervalSince1970) }, to: &out)
        Self.append(screening.latestCompletedFlags.isEmpty ? nil : screening.latestCompletedFlags.joined(separator: "\u{1F}"), to: &out)
        return out
    }

    init(bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        var position = 16
        id = bytes.withUnsafeBytes { raw in UUID(uuid: raw.loadUnaligned(as: uuid_t.self)) }
        func text() -> String? {
            var length = 0
            var shift = 0
            while true {
                let byte = bytes[position]
                position += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            guard length > 0 else { return nil }
            defer { position += length - 1 }
            return String(decoding: bytes[position..<position + length - 1], as: UTF8.self)
        }
        givenName = text()
        familyName = text()
        email = text()
        phone = text()
        birthDate = text().flatMap { CalendarDate($0) }
        assignedTrainerId = text().flatMap(UUID.init(uuidString:))
        let bits = bytes[position]
        position += 1
        hasPhoto = bits & 1 != 0
        let completed = text().flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        let flags = text().map { $0.split(separator: "\u{1F}").map(String.init) } ?? []
        screening = ScreeningOverview.Facts(latestCompletedAt: completed, latestCompletedFlags: flags, hasDraft: bits & 2 != 0)
    }

    /// A text as its length plus one (0: absent), then its bytes.
    private static func append(_ text: String?, to out: inout [UInt8]) {
        guard let text else {
            out.append(0)
            return
        }
        var rest = text.utf8.count + 1
        while rest >= 0x80 {
            out.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
        out.append(contentsOf: text.utf8)
    }
}
