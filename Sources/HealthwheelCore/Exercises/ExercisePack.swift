import Foundation

/// One category of exercises, as a pack file (`Exercises/*.json`) or an admin's upload defines it. A pack is
/// versioned as a whole: importing a higher version replaces what trainers see, while earlier versions stay
/// stored so every score can be reproduced with the script that made it.
public struct ExercisePack: Codable, Sendable, Equatable {
    /// The category's id (`cardiovascular`).
    public var id: String
    /// The category's name on the wheel, in reports and in the app (`Cardiovascular`); must not be blank.
    public var name: String
    /// `#rrggbb`: the category's slice on the wheel.
    public var colour: String
    /// Where the category's slice goes on the wheel (lower first); packs without one follow, by name.
    public var order: Int?
    /// 1 or more; an import replaces what trainers see only when it is higher than the stored version.
    public var version: Int
    /// At least one; ids are unique in the pack and across every pack the same companies see.
    public var exercises: [Exercise]
    /// The pack's texts in other languages, by language code (`es`); the pack's own texts are English.
    public var translations: [String: PackTranslation]?

    /// Every key the pack format knows at this level: `ExercisePackCheck.unknownKeys(in:)` refuses any other.
    public static let keys: Set<String> = ["id", "name", "colour", "order", "version", "exercises", "translations"]

    /// Builds a pack in code (tests, the demo); `ExercisePackCheck.problems(in:)` says whether it is valid.
    public init(
        id: String,
        name: String,
        colour: String,
        order: Int?,
        version: Int,
        exercises: [Exercise],
        translations: [String: PackTranslation]? = nil
    ) {
        self.id = id
        self.name = name
        self.colour = colour
        self.order = order
        self.version = version
        self.exercises = exercises
        self.translations = translations
    }
}

/// One assessment in a pack: what to record (`fields`), how to do it (`steps`) and how a result scores.
public struct Exercise: Codable, Sendable, Equatable {
    /// Kebab-case (`push-ups`), 1–64 characters; results name their exercise by it, so it must not change.
    public var id: String
    /// Shown to trainers and in reports (`Push-ups`); must not be blank.
    public var name: String
    /// What the exercise measures and why, for trainers; must not be blank.
    public var description: String
    /// What a result records, at least one; keys are unique and reach the script in `values`.
    public var fields: [Field]
    /// The field the script sees as `value`, and the one a chart shows.
    public var primaryField: String
    /// Lua 5.4 text returning a score from 0 to 10 (docs/ARCHITECTURE.md §6).
    public var conversionAlgorithm: String
    /// Instructions for the trainer, in order; may be empty.
    public var steps: [Step]
    /// Safety, contraindications and measurement pitfalls; nil when the pack has none.
    public var considerations: String?
    /// The published norms the script follows.
    public var source: String
    /// The LOINC code of the observation, only when the author is sure of it; nil otherwise.
    public var loinc: String?
    /// Inputs with the score the script must give for them: checked on every import.
    public var examples: [Example]

    /// Builds an exercise in code (tests, the demo); nothing is checked here.
    public init(
        id: String,
        name: String,
        description: String,
        fields: [Field],
        primaryField: String,
        conversionAlgorithm: String,
        steps: [Step],
        considerations: String?,
        source: String,
        loinc: String?,
        examples: [Example]
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.fields = fields
        self.primaryField = primaryField
        self.conversionAlgorithm = conversionAlgorithm
        self.steps = steps
        self.considerations = considerations
        self.source = source
        self.loinc = loinc
        self.examples = examples
    }

    /// One value a result records, e.g. the number of push-ups or a time.
    public struct Field: Codable, Sendable, Equatable {
        /// A letter then letters or digits, at most 40 (`reps`, `systolic`): the key in `values` and in the script.
        public var key: String
        /// What apps ask the trainer for (`Heart rate`); must not be blank.
        public var label: String
        /// What the value measures; decides the units accepted, the stored unit and the plausible range.
        public var quantity: Quantity
        /// The unit apps show and ask in by default; values are stored and scored in the quantity's stored unit.
        public var unit: String
        /// True when values below zero mean something: reach tests record a gap between the fingers as negative.
        public var signed: Bool?
        /// What follows a value where a unit's symbol says nothing: counts ("14 stands", "5 push-ups").
        public var unitLabel: String?
        /// The LOINC code of this value alone, where it differs from the exercise's (a blood pressure panel's
        /// systolic 8480-6 and diastolic 8462-4, the body weight 29463-7 a BMI is worked out from): FHIR
        /// exports give each such value its own coded component.
        public var loinc: String?

        /// Every key the format knows for a field: `ExercisePackCheck.unknownKeys(in:)` refuses any other.
        public static let keys: Set<String> = ["key", "label", "quantity", "unit", "signed", "unitLabel", "loinc"]

        /// Builds a field in code; `unit` must be one of `quantity.units` for the pack to pass its check.
        public init(
            key: String,
            label: String,
            quantity: Quantity,
            unit: String,
            signed: Bool? = nil,
            unitLabel: String? = nil,
            loinc: String? = nil
        ) {
            self.key = key
            self.label = label
            self.quantity = quantity
            self.unit = unit
            self.signed = signed
            self.unitLabel = unitLabel
            self.loinc = loinc
        }

        /// The values a result may have, in stored units: the quantity's plausible range, mirrored below zero
        /// for a signed field.
        public var range: ClosedRange<Double> {
            let plausible = quantity.plausibleRange
            return signed == true ? -plausible.upperBound...plausible.upperBound : plausible
        }
    }

    /// One instruction for the trainer, with an optional illustration.
    public struct Step: Codable, Sendable, Equatable {
        /// The instruction itself; must not be blank.
        public var text: String
        /// A path inside the pack folder (`images/push-ups-1.svg`).
        public var image: String?

        /// Every key the format knows for a step: `ExercisePackCheck.unknownKeys(in:)` refuses any other.
        public static let keys: Set<String> = ["text", "image"]

        /// Builds a step in code; `image` must be a safe relative path (`ExercisePackCheck.isSafeImagePath(_:)`).
        public init(text: String, image: String?) {
            self.text = text
            self.image = image
        }
    }

    /// An input with the score the script must give for it; every import runs the script on each and refuses a mismatch.
    public struct Example: Codable, Sendable, Equatable {
        /// The client the script sees (sex, age, height, mass).
        public var client: Subject
        /// Every field of the exercise by key, no more and no fewer, in stored units (SI).
        public var values: [String: Double]
        /// The score the script must return, 0 to 10.
        public var score: Double

        /// Every key the format knows for an example: `ExercisePackCheck.unknownKeys(in:)` refuses any other.
        public static let keys: Set<String> = ["client", "values", "score"]

        /// Builds an example in code (tests); `values` must name exactly the exercise's fields.
        public init(client: Subject, values: [String: Double], score: Double) {
            self.client = client
            self.values = values
            self.score = score
        }
    }

    /// Every key the format knows for an exercise: `ExercisePackCheck.unknownKeys(in:)` refuses any other.
    public static let keys: Set<String> = [
        "id", "name", "description", "fields", "primaryField", "conversionAlgorithm", "steps", "considerations", "source",
        "loinc", "examples",
    ]

    /// The field with `key`, or nil when the exercise has none by that key (an unknown key in a request).
    public func field(_ key: String) -> Field? { fields.first { $0.key == key } }
}

/// Who a score is for: what a conversion script sees of the client, as of the result's date.
public struct Subject: Codable, Sendable, Hashable {
    /// What the script sees as `sex` ("male" or "female").
    public var sex: Sex
    /// Whole years on the day of the result.
    public var age: Int
    /// Metres.
    public var height: Double?
    /// Kilograms.
    public var mass: Double?

    /// Builds a subject in code; results and examples usually get one from `of(_:on:)` or `rescoring(_:client:on:)`.
    public init(sex: Sex, age: Int, height: Double?, mass: Double?) {
        self.sex = sex
        self.age = age
        self.height = height
        self.mass = mass
    }

    /// Every key the format knows for an example's client: `ExercisePackCheck.unknownKeys(in:)` refuses any other.
    public static let keys: Set<String> = ["sex", "age", "height", "mass"]

    /// The client as of `date`; an error names what is missing for a score.
    public static func of(_ client: Client, on date: Date) -> Result<Subject, SubjectMissing> {
        guard let sex = client.sex else { return .failure(SubjectMissing(message: "the client's sex is not recorded")) }
        guard let age = client.age(on: date) else { return .failure(SubjectMissing(message: "the client's birth date is not recorded")) }
        return .success(Subject(sex: sex, age: age, height: client.height, mass: client.mass))
    }

    /// Who a stored result is re-scored for (an edit, a quick correction, a rescore). The height and mass it was
    /// scored with stay, since they were measured then; one missing then is taken from the client as recorded
    /// now, and the age follows a changed date. A result scored without a subject (sex or birth date missing
    /// then) takes the client as recorded now.
    public static func rescoring(_ stored: Subject?, client: Client, on date: Date) -> Result<Subject, SubjectMissing> {
        guard var subject = stored else { return of(client, on: date) }
        subject.age = client.age(on: date) ?? subject.age
        subject.height = subject.height ?? client.height
        subject.mass = subject.mass ?? client.mass
        return .success(subject)
    }
}

/// Why a client cannot be scored yet (no sex or no birth date); the result is kept with `score: null`.
public struct SubjectMissing: Error, Sendable, Equatable {
    /// Ends up in the result's `scoreError` after "not scored: ", e.g. "the client's sex is not recorded".
    public var message: String
}
