import Foundation

/// One category of exercises, as a pack file (`Exercises/*.json`) or an admin's upload defines it. A pack is
/// versioned as a whole: importing a higher version replaces what trainers see, while earlier versions stay
/// stored so every score can be reproduced with the script that made it.
public struct ExercisePack: Codable, Sendable, Equatable {
    /// The category's id (`cardiovascular`).
    public var id: String
    public var name: String
    /// `#rrggbb`: the category's slice on the wheel.
    public var colour: String
    /// Where the category's slice goes on the wheel (lower first); packs without one follow, by name.
    public var order: Int?
    public var version: Int
    public var exercises: [Exercise]

    public static let keys: Set<String> = ["id", "name", "colour", "order", "version", "exercises"]

    public init(id: String, name: String, colour: String, order: Int?, version: Int, exercises: [Exercise]) {
        self.id = id
        self.name = name
        self.colour = colour
        self.order = order
        self.version = version
        self.exercises = exercises
    }
}

public struct Exercise: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var description: String
    public var fields: [Field]
    /// The field the script sees as `value`, and the one a chart shows.
    public var primaryField: String
    /// Lua 5.4 text returning a score from 0 to 10 (docs/ARCHITECTURE.md §6).
    public var conversionAlgorithm: String
    public var steps: [Step]
    public var considerations: String?
    /// The published norms the script follows.
    public var source: String
    public var loinc: String?
    /// Inputs with the score the script must give for them: checked on every import.
    public var examples: [Example]

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

    public struct Field: Codable, Sendable, Equatable {
        public var key: String
        public var label: String
        public var quantity: Quantity
        /// The unit apps show and ask in by default; values are stored and scored in the quantity's stored unit.
        public var unit: String
        /// True when values below zero mean something: reach tests record a gap between the fingers as negative.
        public var signed: Bool?

        public static let keys: Set<String> = ["key", "label", "quantity", "unit", "signed"]

        public init(key: String, label: String, quantity: Quantity, unit: String, signed: Bool? = nil) {
            self.key = key
            self.label = label
            self.quantity = quantity
            self.unit = unit
            self.signed = signed
        }

        /// The values a result may have, in stored units: the quantity's plausible range, mirrored below zero
        /// for a signed field.
        public var range: ClosedRange<Double> {
            let plausible = quantity.plausibleRange
            return signed == true ? -plausible.upperBound...plausible.upperBound : plausible
        }
    }

    public struct Step: Codable, Sendable, Equatable {
        public var text: String
        /// A path inside the pack folder (`images/push-ups-1.svg`).
        public var image: String?

        public static let keys: Set<String> = ["text", "image"]

        public init(text: String, image: String?) {
            self.text = text
            self.image = image
        }
    }

    public struct Example: Codable, Sendable, Equatable {
        public var client: Subject
        public var values: [String: Double]
        public var score: Double

        public static let keys: Set<String> = ["client", "values", "score"]

        public init(client: Subject, values: [String: Double], score: Double) {
            self.client = client
            self.values = values
            self.score = score
        }
    }

    public static let keys: Set<String> = [
        "id", "name", "description", "fields", "primaryField", "conversionAlgorithm", "steps", "considerations", "source",
        "loinc", "examples",
    ]

    public func field(_ key: String) -> Field? { fields.first { $0.key == key } }
}

/// Who a score is for: what a conversion script sees of the client, as of the result's date.
public struct Subject: Codable, Sendable, Hashable {
    public var sex: Sex
    /// Whole years on the day of the result.
    public var age: Int
    /// Metres.
    public var height: Double?
    /// Kilograms.
    public var mass: Double?

    public init(sex: Sex, age: Int, height: Double?, mass: Double?) {
        self.sex = sex
        self.age = age
        self.height = height
        self.mass = mass
    }

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

public struct SubjectMissing: Error, Sendable, Equatable {
    public var message: String
}
