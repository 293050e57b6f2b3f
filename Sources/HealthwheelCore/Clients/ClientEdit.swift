import Foundation

/// The editable fields of a client as a client app sends them (create or change). Absent fields stay as they are,
/// `null` clears one, and every value is checked before anything is applied.
public struct ClientEdit: Decodable, Sendable, Equatable {
    /// Trimmed, 1–200 characters, no control characters; blank or `null` clears it (if a family name remains).
    public var givenName: Patch<String> = .unchanged
    /// Trimmed, 1–200 characters, no control characters; blank or `null` clears it (if a given name remains).
    public var familyName: Patch<String> = .unchanged
    /// Lower-cased and checked plainly (`InputRules.email`); blank or `null` clears it.
    public var email: Patch<String> = .unchanged
    /// Checked by `InputRules.phone`, at most 40 characters; blank or `null` clears it.
    public var phone: Patch<String> = .unchanged
    /// `YYYY-MM-DD`, not in the future, at most 130 years back.
    public var birthDate: Patch<String> = .unchanged
    /// `male` or `female`.
    public var sex: Patch<String> = .unchanged
    /// A number in metres or `{"value", "unit"}` (`cm`, `ft` with `inches`…), within `heightRange`.
    public var height: Patch<MeasurementInput> = .unchanged
    /// A number in kilograms or `{"value", "unit"}` (`lb`, `st` with `pounds`…), within `massRange`.
    public var mass: Patch<MeasurementInput> = .unchanged
    /// Trimmed, at most `maxGoalLength` characters; blank or `null` clears it.
    public var goal: Patch<String> = .unchanged
    /// Trimmed, at most `maxNotesLength` characters; blank or `null` clears it.
    public var notes: Patch<String> = .unchanged
    /// Must be a trainer of the same company (the use case checks it); `null` leaves the client unassigned.
    public var assignedTrainerId: Patch<UUID> = .unchanged

    /// The keys a client body may hold; the API's strict decoding refuses any other, naming it.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case givenName, familyName, email, phone, birthDate, sex, height, mass, goal, notes, assignedTrainerId
    }

    /// Changes nothing until fields are set: how the vCard import, the demo and screening answers build theirs.
    public init() {}

    /// Decodes each key as unchanged (absent), clear (`null`) or set, so a PATCH can tell the three apart.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        givenName = try container.decodePatch(String.self, forKey: .givenName)
        familyName = try container.decodePatch(String.self, forKey: .familyName)
        email = try container.decodePatch(String.self, forKey: .email)
        phone = try container.decodePatch(String.self, forKey: .phone)
        birthDate = try container.decodePatch(String.self, forKey: .birthDate)
        sex = try container.decodePatch(String.self, forKey: .sex)
        height = try container.decodePatch(MeasurementInput.self, forKey: .height)
        mass = try container.decodePatch(MeasurementInput.self, forKey: .mass)
        goal = try container.decodePatch(String.self, forKey: .goal)
        notes = try container.decodePatch(String.self, forKey: .notes)
        assignedTrainerId = try container.decodePatch(UUID.self, forKey: .assignedTrainerId)
    }

    /// Accepted ranges, wide enough for any person, narrow enough to catch a value in the wrong unit.
    public static let heightRange = 0.3...2.75
    /// Kilograms.
    public static let massRange = 1.0...500.0
    /// In characters, after trimming.
    public static let maxGoalLength = 2_000
    /// In characters, after trimming: room for a trainer's running notes.
    public static let maxNotesLength = 20_000

    /// Checks every field and applies them all to `client`, or throws every problem found and changes nothing.
    /// `today` bounds the birth date.
    public func apply(to client: inout Client, today: CalendarDate) throws(ValidationError) {
        var problems = FieldErrorCollector()
        var result = client
        /// Leaves, clears or sets one field; a value that fails its check is reported and left as it was.
        func update<Input, Value>(_ target: inout Value?, _ patch: Patch<Input>, _ convert: (Input) throws(ValidationError) -> Value?) {
            switch patch {
            case .unchanged: break
            case .clear: target = nil
            case .set(let input):
                if let value = problems.check({ () throws(ValidationError) in try convert(input) }) { target = value }
            }
        }
        update(&result.givenName, givenName) { raw throws(ValidationError) in
            try Self.text(raw, "givenName", maxLength: InputRules.maxNameLength) { v throws(ValidationError) in
                try InputRules.name(v, field: "givenName")
            }
        }
        update(&result.familyName, familyName) { raw throws(ValidationError) in
            try Self.text(raw, "familyName", maxLength: InputRules.maxNameLength) { v throws(ValidationError) in
                try InputRules.name(v, field: "familyName")
            }
        }
        update(&result.email, email) { raw throws(ValidationError) in
            try Self.text(raw, "email", maxLength: InputRules.maxEmailLength) { v throws(ValidationError) in try InputRules.email(v) }
        }
        update(&result.phone, phone) { raw throws(ValidationError) in
            try Self.text(raw, "phone", maxLength: 40) { v throws(ValidationError) in try InputRules.phone(v) }
        }
        update(&result.goal, goal) { raw throws(ValidationError) in try Self.text(raw, "goal", maxLength: Self.maxGoalLength) }
        update(&result.notes, notes) { raw throws(ValidationError) in try Self.text(raw, "notes", maxLength: Self.maxNotesLength) }
        update(&result.birthDate, birthDate) { raw throws(ValidationError) in try Self.birthDate(raw, today: today) }
        update(&result.sex, sex) { raw throws(ValidationError) in
            guard let sex = Sex(rawValue: raw) else {
                throw ValidationError("sex", "must be one of: \(Sex.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return sex
        }
        update(&result.height, height) { input throws(ValidationError) in try input.siValue(of: .length, field: "height", range: Self.heightRange) }
        update(&result.mass, mass) { input throws(ValidationError) in try input.siValue(of: .mass, field: "mass", range: Self.massRange) }
        update(&result.assignedTrainerId, assignedTrainerId) { $0 }
        // Refused here when the body alone leaves no name (a new client without one, or both blanked); a body that
        // blanks the one name a client has is refused by the caller as a conflict with what is stored.
        let blanking = { (patch: Patch<String>) in patch == .clear || (patch.value?.trimmingWhiteSpace().isEmpty ?? false) }
        let hadName = client.givenName != nil || client.familyName != nil
        if result.givenName == nil && result.familyName == nil && (!hadName || blanking(givenName) && blanking(familyName)) {
            problems.add(givenName == .unchanged ? "familyName" : "givenName", "a client needs a given name or a family name")
        }
        try problems.throwIfAny()
        client = result
    }

    /// Free text, trimmed; empty means "no value". `rule` checks and normalises what is left.
    private static func text(
        _ raw: String,
        _ field: String,
        maxLength: Int,
        rule: (String) throws(ValidationError) -> String = { $0 }
    ) throws(ValidationError) -> String? {
        let trimmed = raw.trimmingWhiteSpace()
        if trimmed.isEmpty { return nil }
        if raw.schemaLength > maxLength { throw ValidationError(field, "must be at most \(maxLength) characters") }
        return try rule(trimmed)
    }

    private static func birthDate(_ raw: String, today: CalendarDate) throws(ValidationError) -> CalendarDate {
        guard let date = CalendarDate(raw) else { throw ValidationError("birthDate", "must be a date as YYYY-MM-DD") }
        guard date <= today, today.year - date.year <= 130 else { throw ValidationError("birthDate", "must be in the past 130 years") }
        return date
    }
}
