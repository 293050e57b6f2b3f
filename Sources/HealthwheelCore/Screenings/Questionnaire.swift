/// A screening form, defined in JSON (`Questionnaires/*.json`): sections of typed fields, follow-up questions that
/// appear only for certain answers, fields that stay editable after completion, and rules that raise flags.
public struct Questionnaire: Codable, Sendable, Equatable {
    public var id: String
    public var version: Int
    public var title: String
    public var description: String?
    public var sections: [Section]
    public var flags: [FlagRule]

    public struct Section: Codable, Sendable, Equatable {
        public var key: String
        public var title: String
        public var help: String?
        /// Every field of the section stays editable after completion (personal details).
        public var editableAfterCompletion: Bool?
        public var fields: [Field]
    }

    public struct Field: Codable, Sendable, Equatable {
        public var key: String
        public var title: String
        public var type: FieldType
        public var required: Bool?
        public var help: String?
        /// Shown (and so answerable and required) only while another answer matches.
        public var enableWhen: Condition?
        public var editableAfterCompletion: Bool?
        /// `number`: a display unit such as "hours per week"; `measurement`: what is measured.
        public var unit: String?
        public var quantity: Quantity?
        public var minimum: Double?
        public var maximum: Double?
        /// `choice` and `multiChoice`.
        public var options: [Option]?
        /// `text`: the longest answer accepted (default 2000).
        public var maxLength: Int?
        /// The client field this answer also sets (and is pre-filled from).
        public var mirrors: MirroredField?
    }

    public enum FieldType: String, Codable, Sendable, CaseIterable {
        case text, number, boolean, choice, multiChoice, date, measurement
    }

    public struct Option: Codable, Sendable, Equatable {
        public var value: String
        public var title: String
    }

    /// Matches when the answer to `key` equals `equals`, is one of `anyOf`, or (multiChoice) contains `contains`.
    public struct Condition: Codable, Sendable, Equatable {
        public var key: String
        public var equals: JSONValue?
        public var anyOf: [JSONValue]?
        public var contains: JSONValue?
    }

    /// Raises `flag` when any of `when` matches.
    public struct FlagRule: Codable, Sendable, Equatable {
        public var flag: String
        public var title: String
        public var when: [Condition]
    }

    public enum MirroredField: String, Codable, Sendable, CaseIterable {
        case givenName, familyName, email, phone, birthDate, sex, height, mass, goal
    }

    /// Every field in form order, with whether it stays editable after completion.
    public var allFields: [(field: Field, editableAfterCompletion: Bool)] {
        sections.flatMap { section in
            section.fields.map { ($0, $0.editableAfterCompletion ?? section.editableAfterCompletion ?? false) }
        }
    }

    public func field(_ key: String) -> Field? {
        for section in sections {
            if let field = section.fields.first(where: { $0.key == key }) { return field }
        }
        return nil
    }
}

extension Questionnaire.Condition {
    /// Whether `answers` satisfy this condition. An unanswered question matches nothing.
    public func matches(_ answers: [String: JSONValue]) -> Bool {
        guard let answer = answers[key], answer != .null else { return false }
        if let equals, answer == equals { return true }
        if let anyOf, anyOf.contains(answer) { return true }
        if let contains, answer.array?.contains(contains) == true { return true }
        return false
    }

    /// "heartCondition is true", for messages.
    var summary: String {
        if let equals { return "\(key) is \(equals.text)" }
        if let anyOf { return "\(key) is one of \(anyOf.map(\.text).joined(separator: ", "))" }
        if let contains { return "\(key) includes \(contains.text)" }
        return key
    }
}

extension JSONValue {
    /// A short human rendering for messages.
    var text: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "yes" : "no"
        case .number(let value): short(value)
        case .string(let value): value
        case .array(let values): values.map(\.text).joined(separator: ", ")
        case .object: "{…}"
        }
    }
}
