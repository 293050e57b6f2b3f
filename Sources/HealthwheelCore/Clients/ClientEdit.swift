import Foundation

/// The editable fields of a client as a client app sends them (create or change). Absent fields stay as they are,
/// `null` clears one, and every value is checked before anything is applied.
public struct ClientEdit: Decodable, Sendable, Equatable {
    public var givenName: Patch<String> = .unchanged
    public var familyName: Patch<String> = .unchanged
    public var email: Patch<String> = .unchanged
    public var phone: Patch<String> = .unchanged
    public var birthDate: Patch<String> = .unchanged
    public var sex: Patch<String> = .unchanged
    public var height: Patch<MeasurementInput> = .unchanged
    public var mass: Patch<MeasurementInput> = .unchanged
    public var goal: Patch<String> = .unchanged
    public var notes: Patch<String> = .unchanged
    public var assignedTrainerId: Patch<UUID> = .unchanged

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case givenName, familyName, email, phone, birthDate, sex, height, mass, goal, notes, assignedTrainerId
    }

    public init() {}

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
    public static let massRange = 1.0...500.0
    public static let maxGoalLength = 2_000
    public static let maxNotesLength = 20_000

    /// Checks every field and applies them all to `client`, or throws every problem found and changes nothing.
    /// `today` bounds the birth date.
    public func apply(to client: inout Client, today: CalendarDate) throws(ValidationError) {
        var problems = FieldErrorCollector()
        var result = client
        func text(_ patch: Patch<String>, _ field: String, maxLength: Int, rule: ((String) throws(ValidationError) -> String)? = nil) -> String?? {
            switch patch {
            case .unchanged: return .none
            case .clear: return .some(nil)
            case .set(let raw):
                let trimmed = raw.trimmingWhiteSpace()
                if trimmed.isEmpty { return .some(nil) }
                if trimmed.count > maxLength {
                    problems.add(field, "must be at most \(maxLength) characters")
                    return .none
                }
                guard let rule else { return .some(trimmed) }
                return problems.check { () throws(ValidationError) in try rule(trimmed) }.map { .some($0) } ?? .none
            }
        }
        if let value = text(
            givenName,
            "givenName",
            maxLength: InputRules.maxNameLength,
            rule: { v throws(ValidationError) in try InputRules.name(v, field: "givenName") }
        ) {
            result.givenName = value
        }
        if let value = text(
            familyName,
            "familyName",
            maxLength: InputRules.maxNameLength,
            rule: { v throws(ValidationError) in try InputRules.name(v, field: "familyName") }
        ) {
            result.familyName = value
        }
        if let value = text(email, "email", maxLength: InputRules.maxEmailLength, rule: { v throws(ValidationError) in try InputRules.email(v) }) {
            result.email = value
        }
        if let value = text(phone, "phone", maxLength: 40, rule: { v throws(ValidationError) in try InputRules.phone(v) }) {
            result.phone = value
        }
        if let value = text(goal, "goal", maxLength: Self.maxGoalLength) { result.goal = value }
        if let value = text(notes, "notes", maxLength: Self.maxNotesLength) { result.notes = value }

        switch birthDate {
        case .unchanged: break
        case .clear: result.birthDate = nil
        case .set(let raw):
            if let date = CalendarDate(raw), date <= today, today.year - date.year <= 130 {
                result.birthDate = date
            } else if CalendarDate(raw) == nil {
                problems.add("birthDate", "must be a date as YYYY-MM-DD")
            } else {
                problems.add("birthDate", "must be in the past 130 years")
            }
        }
        switch sex {
        case .unchanged: break
        case .clear: result.sex = nil
        case .set(let raw):
            if let value = Sex(rawValue: raw) {
                result.sex = value
            } else {
                problems.add("sex", "must be one of: \(Sex.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        switch height {
        case .unchanged: break
        case .clear: result.height = nil
        case .set(let input):
            if let metres = problems.check({ () throws(ValidationError) in
                try input.siValue(of: .length, field: "height", range: Self.heightRange)
            }) {
                result.height = metres
            }
        }
        switch mass {
        case .unchanged: break
        case .clear: result.mass = nil
        case .set(let input):
            if let kilograms = problems.check({ () throws(ValidationError) in
                try input.siValue(of: .mass, field: "mass", range: Self.massRange)
            }) {
                result.mass = kilograms
            }
        }
        switch assignedTrainerId {
        case .unchanged: break
        case .clear: result.assignedTrainerId = nil
        case .set(let id): result.assignedTrainerId = id
        }
        if result.givenName == nil && result.familyName == nil {
            problems.add(givenName == .unchanged ? "familyName" : "givenName", "a client needs a given name or a family name")
        }
        try problems.throwIfAny()
        client = result
    }
}
