import Foundation
import HealthwheelCore
import Testing

/// Recording and changing a result: what is checked, what is kept, and who a re-score is for.
@Suite struct ResultEditTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z
    static let benchPress = ExerciseRulesTests.benchPress

    static func result(values: [String: Double] = ["load": 80, "reps": 5]) -> AssessmentResult {
        AssessmentResult(
            clientId: UUID(),
            companyId: UUID(),
            exerciseOwner: "*",
            exerciseId: "bench-press",
            categoryId: "strength",
            packVersion: 1,
            trainerId: UUID(),
            values: values,
            observations: "felt easy",
            recordedAt: now.addingTimeInterval(-86_400),
            createdAt: now.addingTimeInterval(-86_400)
        )
    }

    static func edit(_ json: String) throws -> ResultEdit {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(ResultEdit.self, from: Data(json.utf8))
    }

    static let born = CalendarDate(year: 1990, month: 6, day: 1)

    @Test func valuesNotSentKeepTheirStoredValue() throws {
        var result = Self.result()
        try Self.edit(#"{"values": {"reps": 7}}"#).apply(to: &result, exercise: Self.benchPress, now: Self.now)
        #expect(result.values == ["load": 80, "reps": 7])
        #expect(result.observations == "felt easy")
    }

    @Test func everyProblemIsReportedAndNothingIsApplied() throws {
        var result = Self.result()
        let before = result
        let tooLong = String(repeating: "x", count: ResultEdit.maxObservationsLength + 1)
        let edit = try Self.edit(
            #"{"values": {"load": {"value": 1, "unit": "furlong"}}, "observations": "\#(tooLong)", "recordedAt": "2027-01-15T09:00:00Z"}"#
        )
        #expect(
            throws: ValidationError([
                FieldError("values.load.unit", "must be one of: kg, g, lb, st"),
                FieldError("observations", "must be at most 10000 characters"),
                FieldError("recordedAt", "is in the future"),
            ])
        ) {
            try edit.apply(to: &result, exercise: Self.benchPress, now: Self.now)
        }
        #expect(result == before)
    }

    @Test func aClockFewMinutesAheadIsAcceptedButNotBeforeBirth() throws {
        var result = Self.result()
        try Self.edit(#"{"recordedAt": "2027-01-15T08:04:00Z"}"#).apply(to: &result, exercise: Self.benchPress, now: Self.now)
        #expect(result.recordedAt == Self.now.addingTimeInterval(240))
        let early = try Self.edit(#"{"recordedAt": "1990-05-31T12:00:00Z"}"#)
        try early.apply(to: &result, exercise: Self.benchPress, now: Self.now)
        #expect(early.before(birthDate: Self.born, in: result) == FieldError("recordedAt", "is before the client's birth date (1990-06-01)"))
        #expect(early.before(birthDate: CalendarDate("1990-05-31"), in: result) == nil)
        #expect(try Self.edit(#"{"observations": "x"}"#).before(birthDate: Self.born, in: result) == nil, "only a new recordedAt is judged")
    }

    @Test func nullClearsObservationsButNotValuesOrDate() throws {
        var result = Self.result()
        try Self.edit(#"{"observations": null}"#).apply(to: &result, exercise: Self.benchPress, now: Self.now)
        #expect(result.observations == nil)
        #expect(throws: ValidationError([FieldError("values", "must not be null"), FieldError("recordedAt", "must not be null")])) {
            try Self.edit(#"{"values": null, "recordedAt": null}"#).apply(to: &result, exercise: Self.benchPress, now: Self.now)
        }
    }

    @Test func storedValuesOfFieldsTheExerciseNoLongerHasAreNotCarriedOver() throws {
        var result = Self.result(values: ["load": 80, "reps": 5, "tempo": 3])
        try Self.edit(#"{"values": {"load": 85}}"#).apply(to: &result, exercise: Self.benchPress, now: Self.now)
        #expect(result.values == ["load": 85, "reps": 5])
    }

    @Test func aSignedFieldTakesANegativeValueAndAnUnsignedOneDoesNot() throws {
        let reach = Exercise.Field(key: "reach", label: "Reach", quantity: .length, unit: "cm", signed: true)
        var exercise = Self.benchPress
        exercise.fields = [reach]
        exercise.primaryField = "reach"
        let gap = try ExerciseRulesTests.measurement(#"{"value": -16.5, "unit": "cm"}"#)
        #expect(try ResultValues.parse(["reach": gap], for: exercise) == ["reach": -0.165])
        exercise.fields = [Exercise.Field(key: "reach", label: "Reach", quantity: .length, unit: "cm")]
        #expect(throws: ValidationError("values.reach", "must be a positive number")) { try ResultValues.parse(["reach": gap], for: exercise) }
        let feetAndInches = try ExerciseRulesTests.measurement(#"{"value": -1, "unit": "ft", "inches": 3}"#)
        exercise.fields = [reach]
        #expect(throws: ValidationError("values.reach.inches", "cannot go with a negative value")) {
            try ResultValues.parse(["reach": feetAndInches], for: exercise)
        }
    }

    @Test func aRescoreKeepsTheMeasurementsOfThenAndFillsOnlyWhatWasMissing() throws {
        var client = Client(companyId: UUID(), createdAt: Self.now)
        client.sex = .female
        client.birthDate = Self.born
        client.height = 1.70
        client.mass = 64
        let stored = Subject(sex: .female, age: 35, height: nil, mass: 61)
        let subject = try Subject.rescoring(stored, client: client, on: Self.now).get()
        #expect(subject == Subject(sex: .female, age: 36, height: 1.70, mass: 61))
        #expect(try Subject.rescoring(nil, client: client, on: Self.now).get() == Subject(sex: .female, age: 36, height: 1.70, mass: 64))
        client.sex = nil
        #expect(throws: SubjectMissing.self) { try Subject.rescoring(nil, client: client, on: Self.now).get() }
    }
}

@Suite struct CompanySettingsTests {
    @Test func anEditAppliesWithinRangesOrChangesNothing() throws {
        var settings = CompanySettings()
        try CompanySettings.Edit(correctionWindowSeconds: 120).apply(to: &settings)
        #expect(settings == CompanySettings(correctionWindowSeconds: 120, wheelFlagBelow: 4))
        #expect(
            throws: ValidationError([
                FieldError("correctionWindowSeconds", "must be a whole number of seconds from 0 to 3600"),
                FieldError("wheelFlagBelow", "must be from 0 to 10"),
            ])
        ) {
            try CompanySettings.Edit(correctionWindowSeconds: -1, wheelFlagBelow: 10.5).apply(to: &settings)
        }
        #expect(throws: ValidationError.self) { try CompanySettings.Edit(correctionWindowSeconds: 30, wheelFlagBelow: .nan).apply(to: &settings) }
        #expect(settings.correctionWindowSeconds == 120)
    }
}
