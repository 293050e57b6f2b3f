import Foundation
import HealthwheelCore
import Testing

/// The pure rules behind exercises: pack checks, result values in stored units, and the wheel's roll-up.
@Suite struct ExerciseRulesTests {
    static let benchPress = Exercise(
        id: "bench-press",
        name: "Bench press",
        description: "Load and reps.",
        fields: [
            .init(key: "load", label: "Load", quantity: .mass, unit: "kg"),
            .init(key: "reps", label: "Reps", quantity: .count, unit: "count"),
        ],
        primaryField: "load",
        conversionAlgorithm: "return 5",
        steps: [.init(text: "Lift.", image: "images/bench.svg")],
        considerations: nil,
        source: "Test norms",
        loinc: nil,
        examples: [.init(client: Subject(sex: .male, age: 30, height: 1.8, mass: 80), values: ["load": 80, "reps": 5], score: 5)]
    )

    static func measurement(_ json: String) throws -> MeasurementInput {
        try JSONDecoder().decode(MeasurementInput.self, from: Data(json.utf8))
    }

    @Test func resultValuesAreConvertedToStoredUnits() throws {
        let values = try ResultValues.parse(
            ["load": try Self.measurement(#"{"value": 135, "unit": "lb"}"#), "reps": try Self.measurement("8")],
            for: Self.benchPress
        )
        #expect(values == ["load": 61.235, "reps": 8])
    }

    @Test func everyBadValueIsNamedAtOnce() throws {
        #expect(
            throws: ValidationError([
                FieldError("values.extra", "is not a field of bench-press; its fields are load, reps"),
                FieldError("values.load.unit", "must be one of: kg, g, lb, st"),
                FieldError("values.reps", "is required"),
            ])
        ) {
            try ResultValues.parse(
                ["load": try Self.measurement(#"{"value": 1, "unit": "furlong"}"#), "extra": .init(value: 1)],
                for: Self.benchPress
            )
        }
    }

    @Test func stopwatchTimesBecomeSeconds() throws {
        #expect(try Self.measurement(#"{"value": "12:30", "unit": "mm:ss"}"#) == MeasurementInput(value: 750, unit: "s"))
        #expect(try Self.measurement(#"{"value": "1:02:03.5", "unit": "h:mm:ss"}"#) == MeasurementInput(value: 3723.5, unit: "s"))
        for bad in [#"{"value": "12:75", "unit": "mm:ss"}"#, #"{"value": "1:02:03", "unit": "mm:ss"}"#, #"{"value": "12:30", "unit": "s"}"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try Self.measurement(bad) }
        }
    }

    @Test func aSoundPackHasNoProblems() {
        let pack = ExercisePack(id: "strength", name: "Strength", colour: "#aa0011", order: 1, version: 1, exercises: [Self.benchPress])
        #expect(ExercisePackCheck.problems(in: pack, imageExists: { $0 == "images/bench.svg" }).isEmpty)
    }

    @Test func packProblemsNameTheirPath() {
        var exercise = Self.benchPress
        exercise.primaryField = "weight"
        exercise.fields[1].unit = "reps"
        exercise.steps[0].image = "../secret.svg"
        exercise.examples[0].values = ["load": 80]
        let pack = ExercisePack(id: "Strength!", name: "", colour: "#AA0011", order: nil, version: 0, exercises: [exercise, exercise])
        let fields = ExercisePackCheck.problems(in: pack, imageExists: { _ in true }).map(\.field)
        #expect(
            fields == [
                "id", "name", "colour", "version",
                "exercises[0].fields[1].unit", "exercises[0].primaryField", "exercises[0].steps[0].image", "exercises[0].examples[0].values.reps",
                "exercises[1].id",
                "exercises[1].fields[1].unit", "exercises[1].primaryField", "exercises[1].steps[0].image", "exercises[1].examples[0].values.reps",
            ]
        )
    }

    @Test func unknownKeysAreFoundAtEveryLevel() throws {
        let document = try JSONDecoder().decode(
            JSONValue.self,
            from: Data(
                #"{"id": "x", "extra": 1, "exercises": [{"id": "y", "steps": [{"text": "t", "img": "a"}], "examples": [{"client": {"sex": "male", "weight": 1}}]}]}"#
                    .utf8
            )
        )
        #expect(
            ExercisePackCheck.unknownKeys(in: document).map(\.field) == [
                "extra", "exercises[0].examples[0].client.weight", "exercises[0].steps[0].img",
            ]
        )
    }

    @Test func imagePathsStayInsideThePackFolder() {
        #expect(ExercisePackCheck.isSafeImagePath("images/push-ups-1.svg"))
        for path in ["../x.svg", "/etc/x.png", "images/../../x.svg", ".git/x.png", "images//x.svg", "x.svg.exe", "x%2e.svg"] {
            #expect(!ExercisePackCheck.isSafeImagePath(path), "\(path)")
        }
    }

    @Test func aSliceIsTheMeanOfItsExercisesLatestScores() {
        let day = Date(timeIntervalSince1970: 1_800_000_000)
        let categories = [
            HealthWheel.Category(id: "cardio", name: "Cardio", colour: "#ff0000", exercises: [("rhr", "RHR"), ("bp", "BP"), ("step", "Step")]),
            HealthWheel.Category(id: "flex", name: "Flex", colour: "#00ff00", exercises: [("reach", "Reach")]),
            HealthWheel.Category(id: "str", name: "Strength", colour: "#0000ff", exercises: [("grip", "Grip")]),
        ]
        let scored = [
            "rhr": HealthWheel.Latest(score: 7, values: [:], recordedAt: day),
            "bp": HealthWheel.Latest(score: 4, values: [:], recordedAt: day),
            "grip": HealthWheel.Latest(score: 3.9, values: [:], recordedAt: day),
        ]
        let newest = scored.merging(["step": HealthWheel.Latest(score: nil, values: ["hr": 120], recordedAt: day)]) { first, _ in first }
        let slices = HealthWheel.slices(categories, scored: scored, newest: newest, flagBelow: 4)
        #expect(slices.map(\.categoryId) == ["cardio", "flex", "str"])
        #expect(slices.map(\.score) == [5.5, nil, 3.9])
        #expect(slices.map(\.flagged) == [false, false, true])
        #expect(slices[0].exercises.map(\.score) == [7, 4, nil])
        #expect(slices[0].exercises[2].latest?.values == ["hr": 120])
        #expect(slices.map { $0.weakest?.exerciseId } == ["bp", nil, "grip"])
    }

    @Test func theWeakestExerciseIsTheFirstOfTheLowestScored() {
        let day = Date(timeIntervalSince1970: 1_800_000_000)
        let category = HealthWheel.Category(id: "c", name: "C", colour: "#ff0000", exercises: [("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")])
        let scored = ["a": 6.0, "b": 2.5, "c": 2.5].mapValues { HealthWheel.Latest(score: $0, values: [:], recordedAt: day) }
        let slice = HealthWheel.slices([category], scored: scored, newest: scored, flagBelow: 4)[0]
        #expect(slice.weakest?.exerciseId == "b" && slice.weakest?.score == 2.5)
    }
}
