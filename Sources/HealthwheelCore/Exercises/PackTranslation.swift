/// A pack's texts in one more language: the category's name and, per exercise, what trainers and clients read.
/// A pack's own texts are English; any text a translation leaves out is shown in English (`ExercisePack.localized(to:)`).
/// Scripts, fields' quantities and units, and examples are never translated: a translation cannot change a score.
public struct PackTranslation: Codable, Sendable, Equatable {
    /// The category's name.
    public var name: String?
    /// By exercise id.
    public var exercises: [String: ExerciseTranslation]?

    /// Every key the format knows at this level.
    public static let keys: Set<String> = ["name", "exercises"]

    /// Builds a translation in code (tests).
    public init(name: String?, exercises: [String: ExerciseTranslation]?) {
        self.name = name
        self.exercises = exercises
    }
}

/// One exercise's texts in a translation.
public struct ExerciseTranslation: Codable, Sendable, Equatable {
    /// The exercise's name.
    public var name: String?
    /// What it measures and why.
    public var description: String?
    /// By field key.
    public var fields: [String: FieldTranslation]?
    /// One text per step of the exercise, in order: a translation has all of them or none.
    public var steps: [String]?
    /// Safety and measurement pitfalls.
    public var considerations: String?
    /// The citation, with only its explanatory words translated (published titles stay as published).
    public var source: String?

    /// Every key the format knows at this level.
    public static let keys: Set<String> = ["name", "description", "fields", "steps", "considerations", "source"]

    /// Builds an exercise's translation in code (tests).
    public init(
        name: String?,
        description: String?,
        fields: [String: FieldTranslation]?,
        steps: [String]?,
        considerations: String?,
        source: String?
    ) {
        self.name = name
        self.description = description
        self.fields = fields
        self.steps = steps
        self.considerations = considerations
        self.source = source
    }
}

/// A field's texts in a translation.
public struct FieldTranslation: Codable, Sendable, Equatable {
    /// What apps ask the trainer for.
    public var label: String?
    /// What follows a count ("flexiones"); only for a field that has a `unitLabel` in English.
    public var unitLabel: String?

    /// Every key the format knows at this level.
    public static let keys: Set<String> = ["label", "unitLabel"]

    /// Builds a field's translation in code (tests).
    public init(label: String?, unitLabel: String?) {
        self.label = label
        self.unitLabel = unitLabel
    }
}

extension ExercisePack {
    /// The pack with its texts in `language` where its translation has them, English elsewhere. Everything that
    /// scores (scripts, fields' keys and units, examples) is the same pack's: a localized pack scores alike.
    public func localized(to language: String) -> ExercisePack {
        guard language != "en", let translation = translations?[language] else { return self }
        var pack = self
        pack.name = translation.name ?? name
        pack.exercises = exercises.map { exercise in
            guard let text = translation.exercises?[exercise.id] else { return exercise }
            var exercise = exercise
            exercise.name = text.name ?? exercise.name
            exercise.description = text.description ?? exercise.description
            exercise.considerations = text.considerations ?? exercise.considerations
            exercise.source = text.source ?? exercise.source
            exercise.fields = exercise.fields.map { field in
                var field = field
                field.label = text.fields?[field.key]?.label ?? field.label
                field.unitLabel = text.fields?[field.key]?.unitLabel ?? field.unitLabel
                return field
            }
            if let steps = text.steps, steps.count == exercise.steps.count {
                exercise.steps = zip(exercise.steps, steps).map { Exercise.Step(text: $1, image: $0.image) }
            }
            return exercise
        }
        return pack
    }

    /// The texts English has and `language`'s translation lacks, by path (`exercises.push-ups.steps`), so a
    /// shipped pack's missing translation is named by a test as the report's strings are.
    public func missingTexts(in language: String) -> [String] {
        let translation = translations?[language]
        var missing: [String] = translation?.name == nil ? ["name"] : []
        for exercise in exercises {
            let path = "exercises.\(exercise.id)"
            guard let text = translation?.exercises?[exercise.id] else {
                missing.append(path)
                continue
            }
            let present: [(String, Bool)] = [
                ("name", text.name != nil), ("description", text.description != nil), ("steps", exercise.steps.isEmpty || text.steps != nil),
                ("considerations", exercise.considerations == nil || text.considerations != nil), ("source", text.source != nil),
            ]
            missing += present.filter { !$0.1 }.map { "\(path).\($0.0)" }
            for field in exercise.fields {
                let fieldText = text.fields?[field.key]
                if fieldText?.label == nil { missing.append("\(path).fields.\(field.key).label") }
                if field.unitLabel != nil, fieldText?.unitLabel == nil { missing.append("\(path).fields.\(field.key).unitLabel") }
            }
        }
        return missing
    }
}

extension ExercisePackCheck {
    /// Everything wrong with a pack's translations: each language a code such as `es` or `pt-BR` (not `en`, which
    /// is the pack's own), each exercise and field one of the pack's, steps as many as the exercise has, no blank text.
    static func translationProblems(in pack: ExercisePack) -> [FieldError] {
        var errors: [FieldError] = []
        for (language, translation) in (pack.translations ?? [:]).sorted(by: { $0.key < $1.key }) {
            let path = "translations.\(language)"
            func add(_ field: String, _ message: String) { errors.append(FieldError("\(path).\(field)", message)) }
            func blank(_ text: String?, _ field: String) {
                if let text, text.trimmingWhiteSpace().isEmpty { add(field, "must not be empty") }
            }
            if !isLanguage(language) || language == "en" {
                errors.append(FieldError(path, "must be a language code such as es or pt-BR other than en (the pack's own texts are English)"))
            }
            blank(translation.name, "name")
            for (id, text) in (translation.exercises ?? [:]).sorted(by: { $0.key < $1.key }) {
                let exercisePath = "exercises.\(id)"
                guard let exercise = pack.exercises.first(where: { $0.id == id }) else {
                    add(exercisePath, "is not an exercise of this pack")
                    continue
                }
                for (field, value) in [
                    ("name", text.name), ("description", text.description), ("considerations", text.considerations), ("source", text.source),
                ] {
                    blank(value, "\(exercisePath).\(field)")
                }
                if let steps = text.steps {
                    if steps.count != exercise.steps.count { add("\(exercisePath).steps", "must have \(exercise.steps.count) texts, one per step") }
                    for (index, step) in steps.enumerated() { blank(step, "\(exercisePath).steps[\(index)]") }
                }
                for (key, fieldText) in (text.fields ?? [:]).sorted(by: { $0.key < $1.key }) {
                    guard let field = exercise.field(key) else {
                        add("\(exercisePath).fields.\(key)", "is not a field of this exercise")
                        continue
                    }
                    blank(fieldText.label, "\(exercisePath).fields.\(key).label")
                    blank(fieldText.unitLabel, "\(exercisePath).fields.\(key).unitLabel")
                    if fieldText.unitLabel != nil, field.unitLabel == nil {
                        add("\(exercisePath).fields.\(key).unitLabel", "the field has no unitLabel in English to translate")
                    }
                }
            }
        }
        return errors
    }

    /// `es`, `pt-BR`: two or three lower-case letters, optionally a region.
    public static func isLanguage(_ code: String) -> Bool {
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), (2...3).contains(parts[0].count), parts[0].allSatisfy({ $0.isASCII && $0.isLowercase }) else {
            return false
        }
        return parts.count == 1 || (parts[1].count == 2 && parts[1].allSatisfy { $0.isASCII && $0.isUppercase })
    }
}
