import Foundation
import HealthwheelCore
import Testing

/// `ScreeningRules` on the shipped screening questionnaire: answers by field type, follow-up questions, completion,
/// the lock and amendments, flags, and the client details answers mirror.
@Suite struct ScreeningRulesTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let trainer = UUID()

    static func answers(_ json: String) throws -> [String: JSONValue] {
        try JSONDecoder().decode([String: JSONValue].self, from: Data(json.utf8))
    }

    static func draft(_ answers: [String: JSONValue] = [:], questionnaire: Questionnaire) -> Screening {
        Screening(clientId: UUID(), questionnaire: questionnaire, answers: answers, createdAt: start, createdBy: trainer)
    }

    /// Every required answer of a healthy client who needs no follow-up questions.
    static let complete = """
        {"givenName": "Ada", "sex": "female", "birthDate": "1985-03-14", "height": 1.7, "mass": 60,
         "heartCondition": false, "chestPain": false, "dizziness": false, "otherChronicCondition": false,
         "prescribedMedication": false, "boneJointProblem": false, "supervisedActivityOnly": false,
         "activityLevel": "light", "smoker": false, "currentInjuries": false, "goal": "Run 5 km"}
        """

    static func apply(
        _ json: String,
        to screening: Screening,
        _ questionnaire: Questionnaire,
        at date: Date = start
    ) throws -> Result<ScreeningRules.Outcome, ScreeningRules.Refusal> {
        let changes = try answers(json)
        do throws(ScreeningRules.Refusal) {
            return .success(try ScreeningRules.apply(changes, to: screening, questionnaire: questionnaire, by: trainer, at: date))
        } catch {
            return .failure(error)
        }
    }

    static func outcome(
        _ json: String,
        to screening: Screening,
        _ questionnaire: Questionnaire,
        at date: Date = start
    ) throws -> ScreeningRules.Outcome {
        try apply(json, to: screening, questionnaire, at: date).get()
    }

    /// The fields an invalid change is refused for, or nil when it was not refused as invalid.
    static func invalidFields(_ json: String, to screening: Screening, _ questionnaire: Questionnaire) throws -> [String]? {
        guard case .failure(.invalid(let errors)) = try apply(json, to: screening, questionnaire) else { return nil }
        return errors.map(\.field)
    }

    /// The keys refused as not asked given the answers (a 409), or nil when the change went through or failed otherwise.
    static func notAskedFields(_ json: String, to screening: Screening, _ questionnaire: Questionnaire) throws -> [String]? {
        guard case .failure(.notAsked(let errors)) = try apply(json, to: screening, questionnaire) else { return nil }
        return errors.map(\.field)
    }

    /// A completed screening of a healthy client.
    static func completed(_ questionnaire: Questionnaire) throws -> Screening {
        let filled = try outcome(complete, to: draft(questionnaire: questionnaire), questionnaire).screening
        return try ScreeningRules.complete(filled, questionnaire: questionnaire, by: trainer, at: start.addingTimeInterval(60))
    }

    // MARK: - Answers by field type

    @Test func anUnknownKeyIsRefused() throws {
        let form = try ShippedQuestionnaire.load()
        #expect(try Self.invalidFields(#"{"favouriteColour": "blue"}"#, to: Self.draft(questionnaire: form), form) == ["favouriteColour"])
    }

    @Test func textMustBeText() throws {
        let form = try ShippedQuestionnaire.load()
        #expect(try Self.invalidFields(#"{"occupation": 42}"#, to: Self.draft(questionnaire: form), form) == ["occupation"])
    }

    @Test func textIsTrimmedAndLimitedInLength() throws {
        let form = try ShippedQuestionnaire.load()
        let screening = Self.draft(questionnaire: form)
        #expect(try Self.outcome(#"{"occupation": "  Nurse  "}"#, to: screening, form).screening.answers["occupation"] == .string("Nurse"))
        let long = String(repeating: "x", count: 201)
        #expect(try Self.invalidFields(#"{"occupation": "\#(long)"}"#, to: screening, form) == ["occupation"])
    }

    @Test func numberMustBeANumberWithinItsBounds() throws {
        let form = try ShippedQuestionnaire.load()
        let screening = Self.draft(questionnaire: form)
        #expect(try Self.invalidFields(#"{"sleepHours": "eight"}"#, to: screening, form) == ["sleepHours"])
        #expect(try Self.invalidFields(#"{"sleepHours": 25}"#, to: screening, form) == ["sleepHours"])
        #expect(try Self.invalidFields(#"{"sleepHours": -1}"#, to: screening, form) == ["sleepHours"])
        #expect(try Self.outcome(#"{"sleepHours": 7.5}"#, to: screening, form).screening.answers["sleepHours"] == .number(7.5))
    }

    @Test func booleanMustBeTrueOrFalse() throws {
        let form = try ShippedQuestionnaire.load()
        let screening = Self.draft(questionnaire: form)
        #expect(try Self.invalidFields(#"{"smoker": "yes"}"#, to: screening, form) == ["smoker"])
        #expect(try Self.invalidFields(#"{"smoker": 1}"#, to: screening, form) == ["smoker"])
        #expect(try Self.outcome(#"{"smoker": false}"#, to: screening, form).screening.answers["smoker"] == .bool(false))
    }

    @Test func choiceMustBeOneOfTheOptions() throws {
        let form = try ShippedQuestionnaire.load()
        let screening = Self.draft(questionnaire: form)
        guard case .failure(.invalid(let errors)) = try Self.apply(#"{"activityLevel": "extreme"}"#, to: screening, form) else {
            Issue.record("an unknown option was accepted")
            return
        }
        #expect(errors.map(\.field) == ["activityLevel"])
        #expect(errors[0].message.contains("sedentary"))
        #expect(try Self.invalidFields(#"{"activityLevel": ["light"]}"#, to: screening, form) == ["activityLevel"])
    }

    @Test func multiChoiceMustBeAListOfOptionsWithoutRepeats() throws {
        let form = try ShippedQuestionnaire.load()
        let screening = Self.draft(questionnaire: form)
        #expect(try Self.invalidFields(#"{"activities": "walking"}"#, to: screening, form) == ["activities"])
        #expect(try Self.invalidFields(#"{"activities": ["walking", "flying"]}"#, to: screening, form) == ["activities"])
        #expect(try Self.invalidFields(#"{"activities": ["walking", "walking"]}"#, to: screening, form) == ["activities"])
        let accepted = try Self.outcome(#"{"activities": ["walking", "cycling"]}"#, to: screening, form)
        #expect(accepted.screening.answers["activities"] == .array([.string("walking"), .string("cycling")]))
    }

    @Test func dateMustBeACalendarDay() throws {
        let form = try ShippedQuestionnaire.load()
        let screening = Self.draft(questionnaire: form)
        #expect(try Self.invalidFields(#"{"birthDate": "14/03/1985"}"#, to: screening, form) == ["birthDate"])
        #expect(try Self.invalidFields(#"{"birthDate": "2023-02-29"}"#, to: screening, form) == ["birthDate"])
        #expect(try Self.invalidFields(#"{"birthDate": 19850314}"#, to: screening, form) == ["birthDate"])
        #expect(try Self.outcome(#"{"birthDate": "2000-02-29"}"#, to: screening, form).screening.answers["birthDate"] == .string("2000-02-29"))
    }

    @Test func measurementsAreStoredInSI() throws {
        let form = try ShippedQuestionnaire.load()
        let outcome = try Self.outcome(
            #"{"height": {"value": 5, "unit": "ft", "inches": 11}, "mass": {"value": 154, "unit": "lb"}}"#,
            to: Self.draft(questionnaire: form),
            form
        )
        #expect(outcome.screening.answers["height"] == .number(1.8034))
        #expect(outcome.screening.answers["mass"] == .number(69.8532))
    }

    @Test func measurementMustBeANumberOrAValueWithAUnit() throws {
        let form = try ShippedQuestionnaire.load()
        let screening = Self.draft(questionnaire: form)
        #expect(try Self.invalidFields(#"{"height": "tall"}"#, to: screening, form) == ["height"])
        #expect(try Self.invalidFields(#"{"height": {"value": 180}}"#, to: screening, form) == ["height"])
        #expect(try Self.invalidFields(#"{"height": {"value": 180, "unit": "furlong"}}"#, to: screening, form) == ["height.unit"])
        #expect(try Self.invalidFields(#"{"height": {"value": 170, "unit": "cm", "inches": 2}}"#, to: screening, form) == ["height.inches"])
    }

    @Test func everyBadAnswerIsNamedAndNoneIsApplied() throws {
        let form = try ShippedQuestionnaire.load()
        let fields = try #require(
            try Self.invalidFields(#"{"smoker": "no", "sleepHours": 30, "occupation": "Nurse"}"#, to: Self.draft(questionnaire: form), form)
        )
        #expect(Set(fields) == ["smoker", "sleepHours"])
    }

    @Test func nullClearsAnAnswer() throws {
        let form = try ShippedQuestionnaire.load()
        let screening = Self.draft(["occupation": .string("Nurse"), "sleepHours": .number(8)], questionnaire: form)
        let outcome = try Self.outcome(#"{"occupation": null}"#, to: screening, form)
        #expect(outcome.screening.answers["occupation"] == nil)
        #expect(outcome.screening.answers["sleepHours"] == .number(8))
    }

    // MARK: - Follow-up questions

    @Test func aFollowUpAnswerIsRefusedWhileItsQuestionIsHidden() throws {
        let form = try ShippedQuestionnaire.load()
        let screening = Self.draft(["heartCondition": .bool(false)], questionnaire: form)
        #expect(try Self.notAskedFields(#"{"heartConditionDetails": "High blood pressure"}"#, to: screening, form) == ["heartConditionDetails"])
        #expect(try Self.notAskedFields(#"{"cigarettesPerDay": 5}"#, to: Self.draft(questionnaire: form), form) == ["cigarettesPerDay"])
        // Within one body too: the condition is read from the answers as they would stand.
        #expect(
            try Self.notAskedFields(#"{"smoker": false, "cigarettesPerDay": 5}"#, to: Self.draft(questionnaire: form), form) == ["cigarettesPerDay"]
        )
        // A malformed answer is named first, as a 422, before any question's condition is judged.
        #expect(
            try Self.invalidFields(#"{"sleepHours": "late", "cigarettesPerDay": 5}"#, to: Self.draft(questionnaire: form), form) == ["sleepHours"]
        )
    }

    @Test func aFollowUpAnswerIsAcceptedWithTheAnswerThatShowsIt() throws {
        let form = try ShippedQuestionnaire.load()
        let outcome = try Self.outcome(
            #"{"heartCondition": true, "heartConditionDetails": "High blood pressure, treated"}"#,
            to: Self.draft(questionnaire: form),
            form
        )
        #expect(outcome.screening.answers["heartConditionDetails"] == .string("High blood pressure, treated"))
    }

    @Test func pregnancyIsAskedOnlyOfFemaleClients() throws {
        let form = try ShippedQuestionnaire.load()
        #expect(try Self.notAskedFields(#"{"pregnant": false}"#, to: Self.draft(["sex": .string("male")], questionnaire: form), form) == ["pregnant"])
        let female = try Self.outcome(#"{"pregnant": false}"#, to: Self.draft(["sex": .string("female")], questionnaire: form), form)
        #expect(female.screening.answers["pregnant"] == .bool(false))
    }

    // MARK: - Completing

    @Test func completingListsEveryMissingRequiredAnswer() throws {
        let form = try ShippedQuestionnaire.load()
        let screening = Self.draft(["givenName": .string("Ada"), "heartCondition": .bool(true)], questionnaire: form)
        #expect(throws: ValidationError.self) { try ScreeningRules.complete(screening, questionnaire: form, by: Self.trainer, at: Self.start) }
        do throws(ValidationError) {
            _ = try ScreeningRules.complete(screening, questionnaire: form, by: Self.trainer, at: Self.start)
        } catch {
            let fields = Set(error.errors.map(\.field))
            #expect(
                fields == [
                    "sex", "birthDate", "height", "mass", "heartConditionDetails", "chestPain", "dizziness", "otherChronicCondition",
                    "prescribedMedication", "boneJointProblem", "supervisedActivityOnly", "activityLevel", "smoker", "currentInjuries",
                ]
            )
        }
    }

    @Test func hiddenRequiredQuestionsAreNotNeededToComplete() throws {
        let form = try ShippedQuestionnaire.load()
        let filled = try Self.outcome(Self.complete, to: Self.draft(questionnaire: form), form).screening
        let completed = try ScreeningRules.complete(filled, questionnaire: form, by: Self.trainer, at: Self.start)
        #expect(completed.status == .completed)
    }

    @Test func completingLocksAndRecordsWhoAndWhen() throws {
        let form = try ShippedQuestionnaire.load()
        let filled = try Self.outcome(Self.complete, to: Self.draft(questionnaire: form), form).screening
        let at = Self.start.addingTimeInterval(600)
        let completed = try ScreeningRules.complete(filled, questionnaire: form, by: Self.trainer, at: at)
        #expect(completed.status == .completed)
        #expect(completed.isLocked)
        #expect(completed.completedAt == at)
        #expect(completed.completedBy == Self.trainer)
        #expect(completed.answers == filled.answers)
    }

    // MARK: - Lock and amendments

    @Test func aDraftChangeIsNotARevision() throws {
        let form = try ShippedQuestionnaire.load()
        let outcome = try Self.outcome(#"{"smoker": true, "goal": "Quit"}"#, to: Self.draft(questionnaire: form), form)
        #expect(outcome.revisions.isEmpty)
        #expect(outcome.screening.status == .draft)
    }

    @Test func lockedFieldEditIsRefusedAfterCompletion() throws {
        let form = try ShippedQuestionnaire.load()
        let completed = try Self.completed(form)
        let result = try Self.apply(#"{"smoker": true, "goal": "Quit"}"#, to: completed, form)
        guard case .failure(let refusal) = result else {
            Issue.record("a locked answer was changed")
            return
        }
        #expect(refusal == .locked(["smoker"]))
    }

    @Test func answeringALockedQuestionForTheFirstTimeAfterCompletionIsRefused() throws {
        let form = try ShippedQuestionnaire.load()
        let completed = try Self.completed(form)
        guard case .failure(let refusal) = try Self.apply(#"{"sleepHours": 8}"#, to: completed, form) else {
            Issue.record("an unanswered locked question was answered after completion")
            return
        }
        #expect(refusal == .locked(["sleepHours"]))
    }

    @Test func resendingALockedAnswerUnchangedIsNotAChange() throws {
        let form = try ShippedQuestionnaire.load()
        let completed = try Self.completed(form)
        let outcome = try Self.outcome(#"{"smoker": false, "activityLevel": "light", "chestPain": false}"#, to: completed, form)
        #expect(outcome.screening == completed)
        #expect(outcome.revisions.isEmpty)
        #expect(outcome.screening.status == .completed)
    }

    @Test func clearingAnUnansweredLockedQuestionIsNotAChange() throws {
        let form = try ShippedQuestionnaire.load()
        let completed = try Self.completed(form)
        let outcome = try Self.outcome(#"{"sleepHours": null}"#, to: completed, form)
        #expect(outcome.screening == completed)
        #expect(outcome.revisions.isEmpty)
    }

    @Test func anUnchangedLockedAnswerBesideAnEditableChangeIsAccepted() throws {
        let form = try ShippedQuestionnaire.load()
        let completed = try Self.completed(form)
        let outcome = try Self.outcome(#"{"smoker": false, "goal": "Swim 1 km"}"#, to: completed, form)
        #expect(outcome.screening.status == .amended)
        #expect(outcome.revisions.map(\.field) == ["goal"])
    }

    @Test func anEditableAnswerChangedAfterCompletionAmendsWithARevision() throws {
        let form = try ShippedQuestionnaire.load()
        let completed = try Self.completed(form)
        let later = Self.start.addingTimeInterval(3_600)
        let outcome = try Self.outcome(#"{"goal": "  Swim 1 km "}"#, to: completed, form, at: later)
        #expect(outcome.screening.status == .amended)
        #expect(outcome.screening.answers["goal"] == .string("Swim 1 km"))
        #expect(outcome.screening.updatedAt == later)
        #expect(outcome.screening.completedAt == completed.completedAt)
        #expect(
            outcome.revisions == [
                AnswerRevision(
                    field: "goal",
                    oldValue: .string("Run 5 km"),
                    newValue: .string("Swim 1 km"),
                    changedBy: Self.trainer,
                    changedAt: later
                )
            ]
        )
        #expect(outcome.mirrored == [.goal: .string("Swim 1 km")])
    }

    @Test func anEditableAnswerResentUnchangedDoesNotAmend() throws {
        let form = try ShippedQuestionnaire.load()
        let completed = try Self.completed(form)
        let outcome = try Self.outcome(#"{"goal": "Run 5 km", "height": {"value": 170, "unit": "cm"}}"#, to: completed, form)
        #expect(outcome.screening.status == .completed)
        #expect(outcome.revisions.isEmpty)
        #expect(outcome.mirrored.isEmpty)
    }

    @Test func clearingAnEditableAnswerAfterCompletionIsARevisionToNull() throws {
        let form = try ShippedQuestionnaire.load()
        let completed = try Self.completed(form)
        let outcome = try Self.outcome(#"{"goal": null}"#, to: completed, form)
        #expect(outcome.screening.status == .amended)
        #expect(outcome.revisions.map(\.field) == ["goal"])
        #expect(outcome.revisions.first?.newValue == .null)
        #expect(outcome.mirrored == [.goal: .null])
    }

    @Test func anAmendmentReevaluatesTheFlags() throws {
        let form = try ShippedQuestionnaire.load()
        let filled = try Self.outcome(
            #"{"pregnant": true}"#,
            to: try Self.outcome(Self.complete, to: Self.draft(questionnaire: form), form).screening,
            form
        )
        let completed = try ScreeningRules.complete(filled.screening, questionnaire: form, by: Self.trainer, at: Self.start)
        #expect(completed.flags == ["pregnancy"])
        let amended = try Self.outcome(#"{"sex": "male"}"#, to: completed, form)
        #expect(amended.screening.status == .amended)
        #expect(amended.screening.flags == [])
    }

    // MARK: - Flags

    @Test func anyReadinessYesRaisesMedicalClearance() throws {
        let form = try ShippedQuestionnaire.load()
        for key in [
            "heartCondition", "chestPain", "dizziness", "otherChronicCondition", "prescribedMedication", "boneJointProblem", "supervisedActivityOnly",
        ] {
            var answers = try Self.answers(Self.complete)
            answers[key] = .bool(true)
            #expect(ScreeningRules.flags(for: answers, in: form) == ["medical-clearance"], "\(key)")
        }
        #expect(ScreeningRules.flags(for: try Self.answers(Self.complete), in: form) == [])
    }

    @Test func severalYesAnswersRaiseMedicalClearanceOnce() throws {
        let form = try ShippedQuestionnaire.load()
        let flags = ScreeningRules.flags(for: ["heartCondition": .bool(true), "chestPain": .bool(true)], in: form)
        #expect(flags == ["medical-clearance"])
    }

    @Test func aSmokerIsFlagged() throws {
        let form = try ShippedQuestionnaire.load()
        #expect(ScreeningRules.flags(for: ["smoker": .bool(true)], in: form) == ["smoker"])
        #expect(ScreeningRules.flags(for: ["smoker": .bool(false)], in: form) == [])
    }

    @Test func aCurrentInjuryIsFlagged() throws {
        let form = try ShippedQuestionnaire.load()
        #expect(ScreeningRules.flags(for: ["currentInjuries": .bool(true)], in: form) == ["injury"])
    }

    @Test func aHiddenPregnancyAnswerForAMaleClientDoesNotFlag() throws {
        let form = try ShippedQuestionnaire.load()
        #expect(ScreeningRules.flags(for: ["sex": .string("male"), "pregnant": .bool(true)], in: form) == [])
        #expect(ScreeningRules.flags(for: ["sex": .string("female"), "pregnant": .bool(true)], in: form) == ["pregnancy"])
    }

    @Test func completionFixesTheFlags() throws {
        let form = try ShippedQuestionnaire.load()
        var answers = try Self.answers(Self.complete)
        answers["smoker"] = .bool(true)
        answers["chestPain"] = .bool(true)
        answers["chestPainDetails"] = .string("When climbing stairs")
        let completed = try ScreeningRules.complete(Self.draft(answers, questionnaire: form), questionnaire: form, by: Self.trainer, at: Self.start)
        #expect(Set(completed.flags) == ["medical-clearance", "smoker"])
    }

    // MARK: - Mirrored client details

    @Test func aNewScreeningIsPrefilledFromTheClient() throws {
        let form = try ShippedQuestionnaire.load()
        var client = Client(companyId: UUID(), createdAt: Self.start)
        client.givenName = "Ada"
        client.familyName = "Lovelace"
        client.email = "ada@example.com"
        client.phone = "021 555 1234"
        client.birthDate = CalendarDate(year: 1985, month: 3, day: 14)
        client.sex = .female
        client.height = 1.7
        client.mass = 60.5
        client.goal = "Run 5 km"
        client.notes = "Not mirrored"
        let answers = ScreeningRules.prefill(from: client, for: form)
        #expect(
            answers == [
                "givenName": .string("Ada"), "familyName": .string("Lovelace"), "email": .string("ada@example.com"),
                "mobilePhone": .string("021 555 1234"), "birthDate": .string("1985-03-14"), "sex": .string("female"),
                "height": .number(1.7), "mass": .number(60.5), "goal": .string("Run 5 km"),
            ]
        )
    }

    @Test func prefillLeavesUnknownDetailsUnanswered() throws {
        let form = try ShippedQuestionnaire.load()
        var client = Client(companyId: UUID(), createdAt: Self.start)
        client.familyName = "Curie"
        #expect(ScreeningRules.prefill(from: client, for: form) == ["familyName": .string("Curie")])
    }

    @Test func changedMirroredAnswersAreReportedNormalised() throws {
        let form = try ShippedQuestionnaire.load()
        let screening = Self.draft(["givenName": .string("Ada"), "mass": .number(60)], questionnaire: form)
        let outcome = try Self.outcome(
            #"{"mass": {"value": 154, "unit": "lb"}, "mobilePhone": " 021 555 1234 ", "givenName": "Ada", "occupation": "Nurse"}"#,
            to: screening,
            form
        )
        #expect(outcome.mirrored == [.mass: .number(69.8532), .phone: .string("021 555 1234")])
    }

    @Test func mirroredAnswersBecomeAClientEdit() throws {
        let edit = ScreeningRules.clientEdit(for: [
            .mass: .number(69.8532), .goal: .string("Swim"), .email: .null, .birthDate: .string("1985-03-14"), .sex: .string("male"),
        ])
        #expect(edit.mass == .set(MeasurementInput(value: 69.8532)))
        #expect(edit.goal == .set("Swim"))
        #expect(edit.email == .clear)
        #expect(edit.birthDate == .set("1985-03-14"))
        #expect(edit.sex == .set("male"))
        #expect(edit.givenName == .unchanged)
        #expect(edit.height == .unchanged)

        var client = Client(companyId: UUID(), createdAt: Self.start)
        client.givenName = "Ada"
        client.email = "ada@example.com"
        try edit.apply(to: &client, today: CalendarDate(year: 2027, month: 1, day: 15)!)
        #expect(client.mass == 69.8532)
        #expect(client.goal == "Swim")
        #expect(client.email == nil)
        #expect(client.sex == .male)
        #expect(client.birthDate == CalendarDate(year: 1985, month: 3, day: 14))
    }
}
