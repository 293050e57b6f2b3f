/// A screening form, defined in JSON (`Questionnaires/*.json`): sections of typed fields, follow-up questions that
/// appear only for certain answers, fields that stay editable after completion, and rules that raise flags.
public struct Questionnaire: Codable, Sendable, Equatable {
    /// Letters, digits, `-` or `_` (`screening`): what a trainer starts a screening from, and what screenings keep.
    public var id: String
    /// 1 or more; each screening keeps the version it was started from.
    public var version: Int
    /// Shown at the top of the form (`Pre-exercise screening`).
    public var title: String
    /// What the form is for and when it is used, for trainers; nil when the file has none.
    public var description: String?
    /// The form's parts in order; at least one.
    public var sections: [Section]
    /// The rules that raise flags on completion and on every amendment; may be empty.
    public var flags: [FlagRule]

    /// A titled group of fields, such as personal details or medical history.
    public struct Section: Codable, Sendable, Equatable {
        /// Unique in the questionnaire; names the section, not the answers (those use the field keys).
        public var key: String
        /// Shown as the section's heading.
        public var title: String
        /// Guidance shown under the heading; nil when there is none.
        public var help: String?
        /// Every field of the section stays editable after completion (personal details).
        public var editableAfterCompletion: Bool?
        /// The section's questions in order.
        public var fields: [Field]
    }

    /// One question of the form. Answers are stored by `key`, normalised by `type`.
    public struct Field: Codable, Sendable, Equatable {
        /// Letters, digits, `-` or `_`, unique across the whole questionnaire: the key of the answer.
        public var key: String
        /// The question as trainers read it; must not be empty.
        public var title: String
        /// What kind of answer is accepted, and how it is stored.
        public var type: FieldType
        /// True when completion waits for an answer (only while the field is enabled); nil or false means optional.
        public var required: Bool?
        /// Guidance shown with the question; nil when there is none.
        public var help: String?
        /// Shown (and so answerable and required) only while another answer matches.
        public var enableWhen: Condition?
        /// Overrides the section's `editableAfterCompletion` for this field; nil follows the section (false if neither says).
        public var editableAfterCompletion: Bool?
        /// `number`: a display unit such as "hours per week"; `measurement`: what is measured.
        public var unit: String?
        /// `measurement` only: length or mass, which decides the units accepted; answers are stored in metres or kilograms.
        public var quantity: Quantity?
        /// `number` and `measurement` (in stored units): the smallest answer accepted; nil means no lower bound.
        public var minimum: Double?
        /// `number` and `measurement` (in stored units): the largest answer accepted; nil means no upper bound.
        public var maximum: Double?
        /// `choice` and `multiChoice`.
        public var options: [Option]?
        /// `text`: the longest answer accepted (default 2000).
        public var maxLength: Int?
        /// The client field this answer also sets (and is pre-filled from).
        public var mirrors: MirroredField?
    }

    /// The answer types a field may have. Text is trimmed (blank clears it); a date is `YYYY-MM-DD`; a choice is one of the
    /// option values; a multi-choice a list of them without repeats; a measurement a number in SI or `{"value", "unit"}`.
    public enum FieldType: String, Codable, Sendable, CaseIterable {
        case text, number, boolean, choice, multiChoice, date, measurement
    }

    /// One answer a choice field offers.
    public struct Option: Codable, Sendable, Equatable {
        /// What is stored as the answer (`female`); unique within the field.
        public var value: String
        /// What trainers see (`Female`).
        public var title: String
    }

    /// Matches when the answer to `key` equals `equals`, is one of `anyOf`, or (multiChoice) contains `contains`.
    public struct Condition: Codable, Sendable, Equatable {
        /// The key of the field whose answer is tested; that field must exist in the questionnaire.
        public var key: String
        /// Matches an answer equal to this; exactly one of `equals`, `anyOf` and `contains` is set.
        public var equals: JSONValue?
        /// Matches an answer equal to any of these.
        public var anyOf: [JSONValue]?
        /// Matches a multi-choice answer that includes this value.
        public var contains: JSONValue?
    }

    /// Raises `flag` when any of `when` matches.
    public struct FlagRule: Codable, Sendable, Equatable {
        /// The flag's id (`medical-clearance`): what screenings and client overviews list.
        public var flag: String
        /// What the flag means, for trainers (`Get medical clearance before vigorous exercise`).
        public var title: String
        /// The conditions, any one of which raises the flag; at least one. Only answers of enabled fields count.
        public var when: [Condition]
    }

    /// The client detail a field copies its answer to (and is prefilled from). Each may be mirrored by one field only,
    /// of the matching type: text for names, contact and goal, a date, a choice of male/female, a length or a mass.
    public enum MirroredField: String, Codable, Sendable, CaseIterable {
        case givenName, familyName, email, phone, birthDate, sex, height, mass, goal
    }

    /// Every field in form order, with whether it stays editable after completion.
    public var allFields: [(field: Field, editableAfterCompletion: Bool)] {
        sections.flatMap { section in
            section.fields.map { ($0, $0.editableAfterCompletion ?? section.editableAfterCompletion ?? false) }
        }
    }

    /// The field with `key` in any section, or nil when the questionnaire has none by that key.
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
