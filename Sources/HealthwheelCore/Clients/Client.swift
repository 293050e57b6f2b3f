import Foundation

/// Biological sex, as the scoring norms split by it; a script sees it as `"male"` or `"female"`.
public enum Sex: String, Codable, Sendable, CaseIterable {
    case male
    case female
}

/// A trainer's client. Height and mass are SI (metres, kilograms).
public struct Client: Codable, Sendable, Equatable {
    /// A client's photo (JPEG or PNG) may be at most this large, uploaded or imported from a vCard.
    public static let maxPhotoBytes = 2 << 20

    /// Time-ordered (made from `createdAt`), so a big roster's inserts stay at the end of the index.
    public var id: UUID
    /// The company whose trainers see the client; every read is scoped to it, and another company's id answers 404.
    public var companyId: UUID
    /// Trimmed, 1–200 characters, no control characters; a client has a given or a family name, or both.
    public var givenName: String?
    /// Trimmed, 1–200 characters, no control characters; nil when only the given name is known.
    public var familyName: String?
    /// Lower-cased so lookups ignore case; checked plainly (one `@`, a dotted domain). Report emails go here.
    public var email: String?
    /// As people write it: digits with spaces, `-`, `.`, parentheses and a leading `+`; 3–20 digits.
    public var phone: String?
    /// Needed to score (a script sees the age at the result's date); not in the future, at most 130 years back.
    public var birthDate: CalendarDate?
    /// Needed to score: the norms differ by sex. Nil until recorded.
    public var sex: Sex?
    /// Metres, 0.3–2.75; scripts that need it (BMI) fail without it.
    public var height: Double?
    /// Kilograms, 1–500; scripts that need it (BMI, bench press ratio) fail without it.
    public var mass: Double?
    /// What the client is working towards; always editable, shown at a glance.
    public var goal: String?
    /// The trainer's own notes.
    public var notes: String?
    /// The trainer responsible for the client: they (or an admin) may delete the client. Nil when unassigned.
    public var assignedTrainerId: UUID?
    /// The vCard UID the client was imported with, so a re-import updates instead of duplicating.
    public var vcardUID: String?
    /// When the client was created, on the server's clock.
    public var createdAt: Date
    /// When a field last changed; an edit that changes nothing leaves it.
    public var updatedAt: Date

    /// A client with no details yet; a `ClientEdit` fills them in. `id` nil makes a time-ordered id from `createdAt`.
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

    /// The value sent, if one was.
    public var value: Value? {
        if case .set(let value) = self { value } else { nil }
    }
}

extension KeyedDecodingContainer {
    /// Reads a field as a `Patch`: absent is `.unchanged`, `null` is `.clear`, anything else must decode as `T`.
    public func decodePatch<T: Decodable & Sendable & Equatable>(_ type: T.Type, forKey key: Key) throws -> Patch<T> {
        guard contains(key) else { return .unchanged }
        if try decodeNil(forKey: key) { return .clear }
        return .set(try decode(T.self, forKey: key))
    }
}
