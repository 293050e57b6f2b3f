import Foundation
import Testing

@testable import HealthwheelCore

/// The FHIR mapping's own rules, without a server: what an Observation holds for each shape of exercise, how a
/// screening's answers are typed, and the ids made for resources that have none of their own.
@Suite struct FHIRMappingTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let company = UUID()
    let trainer = UUID()

    func result(_ exerciseId: String, _ values: [String: Double], score: Double? = 6, height: Double? = 1.8, revision: Int = 1) -> AssessmentResult {
        var result = AssessmentResult(
            clientId: UUID(),
            companyId: company,
            exerciseOwner: "*",
            exerciseId: exerciseId,
            categoryId: "c",
            packVersion: 1,
            trainerId: trainer,
            values: values,
            observations: nil,
            recordedAt: now,
            createdAt: now
        )
        result.state.score = score
        result.state.scoreError = score == nil ? "height is missing" : nil
        result.state.subject = Subject(sex: .male, age: 40, height: height, mass: 80)
        result.revision = revision
        return result
    }

    func exercise(_ id: String, loinc: String?, fields: [Exercise.Field]) -> Exercise {
        Exercise(
            id: id,
            name: id,
            description: "d",
            fields: fields,
            primaryField: fields[0].key,
            conversionAlgorithm: "return 5",
            steps: [],
            considerations: nil,
            source: "s",
            loinc: loinc,
            examples: []
        )
    }

    func observation(_ result: AssessmentResult, _ exercise: Exercise?) -> JSONValue {
        FHIR.observation(
            .init(result: result, exercise: exercise, media: []),
            patient: FHIR.reference(UUID()),
            performer: FHIR.reference(trainer),
            flagBelow: 5
        )
    }

    @Test func aSingleValueIsTheObservationsOwnInTheUnitTheExerciseShows() {
        let waist = exercise("waist", loinc: "8280-0", fields: [.init(key: "waist", label: "Waist", quantity: .length, unit: "cm")])
        let mapped = observation(result("waist", ["waist": 0.85]), waist)
        #expect(mapped["valueQuantity"] == ["value": 85, "unit": "cm", "system": "http://unitsofmeasure.org", "code": "cm"])
        #expect(mapped["status"] == "final")
        #expect(mapped["category"]?.array?.first?["coding"]?.array?.first?["code"] == "exam", "a LOINC code outside the vital signs")
        #expect(mapped["component"]?.array?.count == 1, "the score alone")
    }

    @Test func aPanelsValuesAreCodedComponentsAndABMIIsWorkedOut() {
        let panel = exercise(
            "bp",
            loinc: "85354-9",
            fields: [
                .init(key: "systolic", label: "Systolic", quantity: .pressure, unit: "mmHg", loinc: "8480-6"),
                .init(key: "diastolic", label: "Diastolic", quantity: .pressure, unit: "mmHg", loinc: "8462-4"),
            ]
        )
        let mapped = observation(result("bp", ["systolic": 120, "diastolic": 80], revision: 2), panel)
        #expect(mapped["valueQuantity"] == nil)
        #expect(mapped["status"] == "amended")
        let components = mapped["component"]?.array ?? []
        #expect(components.map { $0["code"]?["coding"]?.array?.first?["code"] } == ["8480-6", "8462-4", "score"])
        #expect(components[0]["valueQuantity"]?["code"] == "mm[Hg]")
        #expect(mapped["category"]?.array?.first?["coding"]?.array?.first?["code"] == "vital-signs")

        let bmi = exercise("bmi", loinc: "39156-5", fields: [.init(key: "mass", label: "Mass", quantity: .mass, unit: "kg", loinc: "29463-7")])
        let worked = observation(result("bmi", ["mass": 81]), bmi)
        #expect(worked["valueQuantity"]?["value"] == 25, "81 kg at 1.80 m")
        #expect(worked["valueQuantity"]?["code"] == "kg/m2")
        let withoutHeight = observation(result("bmi", ["mass": 81], height: nil), bmi)
        #expect(withoutHeight["valueQuantity"] == nil, "no height, no BMI; the weight stays a component")
        #expect(withoutHeight["component"]?.array?.first?["valueQuantity"]?["value"] == 81)
    }

    @Test func anUnscoredResultSaysWhyAndAnExerciseNoLongerKnownKeepsItsValues() {
        let push = exercise("push-ups", loinc: nil, fields: [.init(key: "count", label: "Push-ups", quantity: .count, unit: "count")])
        let unscored = observation(result("push-ups", ["count": 20], score: nil), push)
        #expect(unscored["valueQuantity"]?["code"] == "{count}")
        #expect(unscored["category"]?.array?.first?["coding"]?.array?.first?["code"] == "activity")
        let score = unscored["component"]?.array?.last
        #expect(score?["dataAbsentReason"]?["text"] == "height is missing")
        #expect(unscored["interpretation"] == nil)

        let orphan = observation(result("gone", ["a": 1.5, "b": 2]), nil)
        #expect(orphan["code"]?["coding"]?.array?.map { $0["code"] } == ["gone"])
        #expect(orphan["component"]?.array?.compactMap { $0["valueQuantity"]?["value"] } == [1.5, 2, 6])
    }

    @Test func answersAreTypedByTheQuestionnaireAndOthersKeptAsText() throws {
        let questionnaire = try JSONDecoder().decode(
            Questionnaire.self,
            from: Data(
                #"""
                {"id": "intake", "version": 2, "title": "Intake", "flags": [], "sections": [{"key": "s", "title": "S", "fields": [
                  {"key": "smoker", "title": "Smoker?", "type": "boolean"},
                  {"key": "level", "title": "Level", "type": "choice", "options": [{"value": "light", "title": "Light"}]},
                  {"key": "height", "title": "Height", "type": "measurement", "quantity": "length"},
                  {"key": "sports", "title": "Sports", "type": "multiChoice", "options": [{"value": "run", "title": "Run"}, {"value": "swim", "title": "Swim"}]}
                ]}]}
                """#.utf8
            )
        )
        var screening = Screening(
            clientId: UUID(),
            questionnaire: questionnaire,
            answers: ["smoker": false, "level": "light", "height": 1.75, "sports": ["run", "swim"], "retired": "a key no longer asked"],
            createdAt: now,
            createdBy: trainer
        )
        screening.status = .amended
        let mapped = FHIR.response(screening, questionnaire: questionnaire, patient: FHIR.reference(UUID()), author: nil)
        #expect(mapped["status"] == "amended")
        #expect(mapped["questionnaire"] == "urn:healthwheel:questionnaire:intake|2")
        let groups = mapped["item"]?.array ?? []
        let answers = Dictionary(
            uniqueKeysWithValues: (groups.first?["item"]?.array ?? []).map { ($0["linkId"]?.string ?? "", $0["answer"]?.array ?? []) }
        )
        #expect(answers["smoker"] == [["valueBoolean": false]])
        #expect(answers["level"]?.first?["valueCoding"]?["display"] == "Light")
        #expect(answers["height"]?.first?["valueQuantity"]?["code"] == "m")
        #expect(answers["sports"]?.count == 2)
        #expect(groups.last?["linkId"] == "retired", "an answer the questionnaire no longer asks is kept")
        #expect(groups.last?["answer"]?.array?.first?["valueString"] == "a key no longer asked")
    }

    @Test func madeIdsAreStableDistinctAndStillVersionSevenUUIDs() {
        let id = UUID.timeOrdered(at: now)
        #expect(id.derived(0) == id.derived(0))
        #expect(Set((0..<300).map { id.derived($0) }).count == 300)
        #expect(!(0..<300).contains { id.derived($0) == id })
        let bytes = id.derived(257).uuid
        #expect(bytes.6 >> 4 == id.uuid.6 >> 4 && bytes.8 >> 6 == id.uuid.8 >> 6)
    }
}
