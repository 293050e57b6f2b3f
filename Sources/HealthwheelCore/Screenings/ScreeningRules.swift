import Foundation

/// The rules of filling in, completing and amending a screening. Pure: the caller loads and saves.
public enum ScreeningRules {
    /// Why a change was refused.
    public enum Refusal: Error, Equatable, Sendable {
        /// Answers that break the form's rules (HTTP 422).
        case invalid([FieldError])
        /// Answers that are locked because the screening is completed (HTTP 409).
        case locked([String])
        /// Answers to questions not asked given the screening's answers, stored or sent (`cigarettesPerDay` while
        /// `smoker` is no): a conflict with the screening as it stands (HTTP 409).
        case notAsked([FieldError])
    }

    /// The result of applying answer changes.
    public struct Outcome: Sendable, Equatable {
        /// The screening with the changes applied: answers, `updatedAt`, and for a locked one `amended` and fresh flags.
        public var screening: Screening
        /// Kept for completed screenings only (a draft's changes are not history yet).
        public var revisions: [AnswerRevision]
        /// Answers (normalised) of fields that mirror a client field, to copy onto the client.
        public var mirrored: [Questionnaire.MirroredField: JSONValue]
    }

    /// Applies `changes` (`null` clears an answer) to `screening`, or refuses all of them.
    public static func apply(
        _ changes: [String: JSONValue],
        to screening: Screening,
        questionnaire: Questionnaire,
        by trainer: UUID?,
        at now: Date
    ) throws(Refusal) -> Outcome {
        let fields = Dictionary(questionnaire.allFields.map { ($0.field.key, $0) }, uniquingKeysWith: { first, _ in first })
        let unknown = changes.keys.filter { fields[$0] == nil }.sorted()
        if !unknown.isEmpty { throw .invalid(unknown.map { FieldError($0, "is not a question of \(questionnaire.id)") }) }

        if screening.isLocked {
            let locked = changes.keys.filter { key in
                fields[key]?.editableAfterCompletion == false
                    && normalisedOrRaw(changes[key]!, fields[key]!.field) != screening.answers[key, default: .null]
            }.sorted()
            if !locked.isEmpty { throw .locked(locked) }
        }

        var problems = FieldErrorCollector()
        var normalised: [String: JSONValue] = [:]
        for (key, value) in changes {
            if let clean = problems.check({ () throws(ValidationError) in try normalise(value, for: fields[key]!.field) }) {
                normalised[key] = clean
            }
        }
        var answers = screening.answers
        for (key, value) in normalised {
            if value == .null { answers.removeValue(forKey: key) } else { answers[key] = value }
        }
        do {
            try problems.throwIfAny()
        } catch {
            throw .invalid(error.errors)
        }
        let notAsked = normalised.sorted(by: { $0.key < $1.key }).compactMap { key, value -> FieldError? in
            guard value != .null, let condition = fields[key]!.field.enableWhen, !condition.matches(answers) else { return nil }
            return FieldError(key, "is only asked when \(condition.summary)")
        }
        if !notAsked.isEmpty { throw .notAsked(notAsked) }

        var updated = screening
        updated.answers = answers
        var revisions: [AnswerRevision] = []
        for key in normalised.keys.sorted() {
            let old = screening.answers[key, default: .null]
            let new = answers[key, default: .null]
            if old != new && screening.isLocked {
                revisions.append(AnswerRevision(field: key, oldValue: old, newValue: new, changedBy: trainer, changedAt: now))
            }
        }
        let changed = normalised.keys.contains { screening.answers[$0, default: .null] != answers[$0, default: .null] }
        if changed {
            updated.updatedAt = now
            if screening.isLocked {
                updated.status = .amended
                updated.flags = flags(for: answers, in: questionnaire)
            }
        }
        var mirrored: [Questionnaire.MirroredField: JSONValue] = [:]
        for (key, value) in normalised where screening.answers[key, default: .null] != value {
            if let mirror = fields[key]!.field.mirrors { mirrored[mirror] = value }
        }
        return Outcome(screening: updated, revisions: revisions, mirrored: mirrored)
    }

    /// Completes and locks a draft, or lists the required questions still unanswered.
    public static func complete(
        _ screening: Screening,
        questionnaire: Questionnaire,
        by trainer: UUID?,
        at now: Date
    ) throws(ValidationError) -> Screening {
        let missing = questionnaire.allFields.map(\.field).filter { field in
            field.required == true && isEnabled(field, answers: screening.answers) && screening.answers[field.key] == nil
        }
        if !missing.isEmpty { throw ValidationError(missing.map { FieldError($0.key, "is required to complete the screening") }) }
        var completed = screening
        completed.status = .completed
        completed.completedAt = now
        completed.completedBy = trainer
        completed.updatedAt = now
        completed.flags = flags(for: screening.answers, in: questionnaire)
        return completed
    }

    /// The flags the form's rules raise for `answers`, counting only questions that are asked.
    public static func flags(for answers: [String: JSONValue], in questionnaire: Questionnaire) -> [String] {
        let asked = answers.filter { key, _ in questionnaire.field(key).map { isEnabled($0, answers: answers) } ?? false }
        return questionnaire.flags.filter { rule in rule.when.contains { $0.matches(asked) } }.map(\.flag).uniqued()
    }

    /// Whether `field` is asked given `answers`: always without `enableWhen`, else while its condition matches.
    public static func isEnabled(_ field: Questionnaire.Field, answers: [String: JSONValue]) -> Bool {
        field.enableWhen?.matches(answers) ?? true
    }

    /// Answers for the fields that mirror client details, taken from the client, to start a new screening with.
    public static func prefill(from client: Client, for questionnaire: Questionnaire) -> [String: JSONValue] {
        var answers: [String: JSONValue] = [:]
        for (field, _) in questionnaire.allFields {
            guard let mirror = field.mirrors, let value = value(of: mirror, in: client) else { continue }
            answers[field.key] = value
        }
        return answers
    }

    /// The client change that mirrored answers ask for.
    public static func clientEdit(for mirrored: [Questionnaire.MirroredField: JSONValue]) -> ClientEdit {
        var edit = ClientEdit()
        func text(_ value: JSONValue) -> Patch<String> { value.string.map { .set($0) } ?? .clear }
        func measurement(_ value: JSONValue) -> Patch<MeasurementInput> { value.number.map { .set(MeasurementInput(value: $0)) } ?? .clear }
        for (mirror, value) in mirrored {
            switch mirror {
            case .givenName: edit.givenName = text(value)
            case .familyName: edit.familyName = text(value)
            case .email: edit.email = text(value)
            case .phone: edit.phone = text(value)
            case .birthDate: edit.birthDate = text(value)
            case .sex: edit.sex = text(value)
            case .goal: edit.goal = text(value)
            case .height: edit.height = measurement(value)
            case .mass: edit.mass = measurement(value)
            }
        }
        return edit
    }

    // MARK: - Answers by field type

    /// The canonical stored form of an answer, or why it does not fit the field.
    static func normalise(_ value: JSONValue, for field: Questionnaire.Field) throws(ValidationError) -> JSONValue {
        if value == .null { return .null }
        let key = field.key
        switch field.type {
        case .text:
            guard let raw = value.string else { throw ValidationError(key, "must be text") }
            let text = raw.trimmingWhiteSpace()
            let limit = field.maxLength ?? 2_000
            if raw.schemaLength > limit { throw ValidationError(key, "must be at most \(limit) characters") }
            return text.isEmpty ? .null : .string(text)
        case .number:
            guard let number = value.number, number.isFinite else { throw ValidationError(key, "must be a number") }
            try check(number, field)
            return .number(number)
        case .boolean:
            guard value.bool != nil else { throw ValidationError(key, "must be true or false") }
            return value
        case .choice:
            let options = field.options?.map(\.value) ?? []
            guard let choice = value.string, options.contains(choice) else {
                throw ValidationError(key, "must be one of: \(options.joined(separator: ", "))")
            }
            return value
        case .multiChoice:
            let options = field.options?.map(\.value) ?? []
            guard let items = value.array, items.allSatisfy({ $0.string.map(options.contains) ?? false }) else {
                throw ValidationError(key, "must be a list of: \(options.joined(separator: ", "))")
            }
            guard Set(items).count == items.count else { throw ValidationError(key, "must not repeat a choice") }
            return value
        case .date:
            guard let date = value.string.flatMap({ CalendarDate($0) }) else { throw ValidationError(key, "must be a date as YYYY-MM-DD") }
            return .string(date.description)
        case .measurement:
            let quantity = field.quantity ?? .length
            guard let input = measurementInput(value) else {
                throw ValidationError(key, "must be a number in \(quantity.units[0].name) or {\"value\", \"unit\"}")
            }
            let si = try input.siValue(of: quantity, field: key, range: 0...(field.maximum ?? 1_000_000))
            try check(si, field)
            return .number(si)
        }
    }

    private static func check(_ number: Double, _ field: Questionnaire.Field) throws(ValidationError) {
        if let minimum = field.minimum, number < minimum { throw ValidationError(field.key, "must be at least \(short(minimum))") }
        if let maximum = field.maximum, number > maximum { throw ValidationError(field.key, "must be at most \(short(maximum))") }
    }

    private static func measurementInput(_ value: JSONValue) -> MeasurementInput? {
        if let number = value.number { return MeasurementInput(value: number) }
        guard let object = value.object, let number = object["value"]?.number, let unit = object["unit"]?.string else { return nil }
        let extra = object.filter { !["value", "unit"].contains($0.key) }
        guard extra.count <= 1 else { return nil }
        if let (name, part) = extra.first {
            guard let partValue = part.number else { return nil }
            return MeasurementInput(value: number, unit: unit, part: (name, partValue))
        }
        return MeasurementInput(value: number, unit: unit)
    }

    /// The value as it would be stored, so a locked answer re-sent unchanged is not a change.
    private static func normalisedOrRaw(_ value: JSONValue, _ field: Questionnaire.Field) -> JSONValue {
        (try? normalise(value, for: field)) ?? value
    }

    private static func value(of mirror: Questionnaire.MirroredField, in client: Client) -> JSONValue? {
        switch mirror {
        case .givenName: client.givenName.map(JSONValue.string)
        case .familyName: client.familyName.map(JSONValue.string)
        case .email: client.email.map(JSONValue.string)
        case .phone: client.phone.map(JSONValue.string)
        case .birthDate: client.birthDate.map { .string($0.description) }
        case .sex: client.sex.map { .string($0.rawValue) }
        case .goal: client.goal.map(JSONValue.string)
        case .height: client.height.map(JSONValue.number)
        case .mass: client.mass.map(JSONValue.number)
        }
    }
}

extension Array where Element: Hashable {
    func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
