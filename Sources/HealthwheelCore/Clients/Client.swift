import Foundation

public enum Sex: String, Codable, Sendable, CaseIterable {
    case male
    case female
}

/// A trainer's client. Height and mass are SI (metres, kilograms).
public struct Client: Codable, Sendable, Equatable {
    /// A client's photo (JPEG or PNG) may be at most this large, uploaded or imported from a vCard.
    public static let maxPhotoBytes = 2 << 20

    public var id: UUID
    public var companyId: UUID
    public var givenName: String?
    public var familyName: String?
    public var email: String?
    public var phone: String?
    public var birthDate: CalendarDate?
    public var sex: Sex?
    public var height: Double?
    public var mass: Double?
    /// What the client is working towards; always editable, shown at a glance.
    public var goal: String?
    /// The trainer's own notes.
    public var notes: String?
    public var assignedTrainerId: UUID?
    /// The vCard UID the client was imported with, so a re-import updates instead of duplicating.
    public var vcardUID: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID? = nil, companyId: UUID, createdAt: Date) {
        self.id = id ?? .timeOrdered(at: createdAt)
        self.companyId = companyId
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    /// Age in whole years on the day of `date` (UTC), if the birth date is known.
    public func age(on date: Date) -> Int? {
        birthDate.map { $0.years(until: CalendarDate(date)) }
    }

    /// "Given Family", or whichever part exists.
    public var fullName: String {
        [givenName, familyName].compactMap { $0 }.joined(separator: " ")
    }
}

/// A change to one field: leave it, clear it, or set it. JSON: absent, `null`, or a value.
public enum Patch<Value: Sendable & Equatable>: Sendable, Equatable {
    case unchanged
    case clear
    case set(Value)
}

extension KeyedDecodingContainer {
    /// Reads a field as a `Patch`: absent is `.unchanged`, `null` is `.clear`, anything else must decode as `T`.
    public func decodePatch<T: Decodable & Sendable & Equatable>(_ type: T.Type, forKey key: Key) throws -> Patch<T> {
        guard contains(key) else { return .unchanged }
        if try decodeNil(forKey: key) { return .clear }
        return .set(try decode(T.self, forKey: key))
    }
}
