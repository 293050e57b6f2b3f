import Foundation
import TestSupport
import Testing

@testable import HealthwheelCore

@Suite struct PackTranslationTests {
    static func pack(translations: [String: PackTranslation]? = nil) -> ExercisePack {
        ExercisePack(
            id: "endurance",
            name: "Endurance",
            colour: "#6a4c93",
            order: 5,
            version: 2,
            exercises: [
                Exercise(
                    id: "push-ups",
                    name: "Push-ups",
                    description: "Consecutive push-ups.",
                    fields: [Exercise.Field(key: "count", label: "Push-ups", quantity: .count, unit: "count", unitLabel: "push-ups")],
                    primaryField: "count",
                    conversionAlgorithm: "return value / 4",
                    steps: [Exercise.Step(text: "Start in plank.", image: "images/p.svg"), Exercise.Step(text: "Lower the chest.", image: nil)],
                    considerations: "Not with a shoulder injury.",
                    source: "CSEP 2003. Fitness categories.",
                    loinc: nil,
                    examples: [Exercise.Example(client: Subject(sex: .male, age: 30, height: nil, mass: nil), values: ["count": 20], score: 5)]
                )
            ],
            translations: translations
        )
    }

    static let spanish = PackTranslation(
        name: "Resistencia",
        exercises: [
            "push-ups": ExerciseTranslation(
                name: "Flexiones",
                description: "Flexiones seguidas.",
                fields: ["count": FieldTranslation(label: "Flexiones", unitLabel: "flexiones")],
                steps: ["Empiece en plancha.", "Baje el pecho."],
                considerations: "No con una lesión de hombro.",
                source: "CSEP 2003. Categorías de condición física."
            )
        ]
    )

    @Test func aLocalizedPackHasTheLanguagesTextsAndScoresAlike() throws {
        let pack = Self.pack(translations: ["es": Self.spanish])
        let spanish = pack.localized(to: "es")
        let exercise = try #require(spanish.exercises.first)
        #expect(spanish.name == "Resistencia" && exercise.name == "Flexiones" && exercise.description == "Flexiones seguidas.")
        #expect(exercise.fields[0].label == "Flexiones" && exercise.fields[0].unitLabel == "flexiones")
        #expect(
            exercise.steps == [Exercise.Step(text: "Empiece en plancha.", image: "images/p.svg"), Exercise.Step(text: "Baje el pecho.", image: nil)]
        )
        #expect(exercise.considerations == "No con una lesión de hombro." && exercise.source.hasPrefix("CSEP 2003. Categorías"))
        // What scores is untouched.
        #expect(exercise.conversionAlgorithm == pack.exercises[0].conversionAlgorithm && exercise.examples == pack.exercises[0].examples)
        #expect(exercise.fields[0].key == "count" && exercise.fields[0].unit == "count" && exercise.primaryField == "count")
        #expect(pack.localized(to: "en") == pack && pack.localized(to: "fr") == pack, "English, and languages without a translation")
    }

    @Test func aTextATranslationLeavesOutIsEnglishAndIsNamedAsMissing() throws {
        var partial = Self.spanish
        partial.exercises?["push-ups"]?.description = nil
        partial.exercises?["push-ups"]?.steps = nil
        partial.exercises?["push-ups"]?.fields = ["count": FieldTranslation(label: "Flexiones", unitLabel: nil)]
        let pack = Self.pack(translations: ["es": partial])
        let exercise = try #require(pack.localized(to: "es").exercises.first)
        #expect(exercise.name == "Flexiones" && exercise.description == "Consecutive push-ups." && exercise.steps[0].text == "Start in plank.")
        #expect(exercise.fields[0].unitLabel == "push-ups")
        #expect(
            pack.missingTexts(in: "es") == [
                "exercises.push-ups.description", "exercises.push-ups.steps", "exercises.push-ups.fields.count.unitLabel",
            ]
        )
        #expect(Self.pack().missingTexts(in: "es") == ["name", "exercises.push-ups"])
    }

    @Test func aBrokenTranslationIsNamedPathByPath() {
        var wrong = Self.spanish
        wrong.name = "  "
        wrong.exercises?["push-ups"]?.steps = ["Solo un paso."]
        wrong.exercises?["push-ups"]?.fields = ["reps": FieldTranslation(label: "Repeticiones", unitLabel: nil)]
        wrong.exercises?["sit-ups"] = ExerciseTranslation(
            name: "Abdominales",
            description: nil,
            fields: nil,
            steps: nil,
            considerations: nil,
            source: nil
        )
        let pack = Self.pack(translations: ["es": wrong, "en": Self.spanish, "Spanish": Self.spanish])
        #expect(
            ExercisePackCheck.problems(in: pack).map(\.field) == [
                "translations.Spanish", "translations.en", "translations.es.name", "translations.es.exercises.push-ups.steps",
                "translations.es.exercises.push-ups.fields.reps", "translations.es.exercises.sit-ups",
            ]
        )
        #expect(ExercisePackCheck.problems(in: Self.pack(translations: ["es": Self.spanish, "pt-BR": Self.spanish])).isEmpty)
    }

    @Test func unknownKeysInsideATranslationAreNamed() throws {
        let document = try JSONDecoder().decode(
            JSONValue.self,
            from: Data(
                #"{"id":"x","translations":{"es":{"nombre":"X","exercises":{"push-ups":{"name":"F","fields":{"count":{"lable":"F"}}}}}}}"#.utf8
            )
        )
        #expect(
            ExercisePackCheck.unknownKeys(in: document).map(\.field) == [
                "translations.es.nombre", "translations.es.exercises.push-ups.fields.count.lable",
            ]
        )
    }

    /// Every text of every shipped pack is in Spanish: a new exercise or step without its translation is named here.
    @Test func theShippedPacksHaveEveryTextInSpanish() throws {
        let folder = RepositoryRoot.url.appendingPathComponent("Exercises")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count == 5)
        for file in files {
            let pack = try JSONDecoder().decode(ExercisePack.self, from: Data(contentsOf: folder.appendingPathComponent(file)))
            #expect(pack.missingTexts(in: "es") == [], "\(file)")
            #expect(ExercisePackCheck.problems(in: pack).isEmpty, "\(file)")
            let spanish = pack.localized(to: "es")
            #expect(spanish.name != pack.name || pack.name == "Cardiovascular", "\(file)")
            #expect(zip(spanish.exercises, pack.exercises).allSatisfy { $0.name != $1.name }, "\(file): every exercise has a Spanish name")
            for exercise in pack.exercises where exercise.fields.contains(where: { $0.quantity == .count }) {
                #expect(exercise.fields.filter { $0.quantity == .count }.allSatisfy { $0.unitLabel != nil }, "\(exercise.id): a count names its unit")
            }
        }
    }

    /// A citation names a published source, never an internal document.
    @Test func shippedCitationsNameNoInternalDocument() throws {
        let folder = RepositoryRoot.url.appendingPathComponent("Exercises")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".json") {
            let pack = try JSONDecoder().decode(ExercisePack.self, from: Data(contentsOf: folder.appendingPathComponent(file)))
            for exercise in pack.exercises {
                for text in [exercise.source, pack.localized(to: "es").exercises.first { $0.id == exercise.id }!.source] {
                    #expect(
                        !text.lowercased().contains("seed") && !text.contains("Healthwheel") && !text.lowercased().contains("the club"),
                        "\(exercise.id)"
                    )
                }
            }
        }
    }
}
