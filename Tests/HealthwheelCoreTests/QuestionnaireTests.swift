import Foundation
import HealthwheelCore
import Testing

/// The screening questionnaire shipped in `Questionnaires/screening.json`, read from this checkout.
enum ShippedQuestionnaire {
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Questionnaires/screening.json")

    static func load() throws -> Questionnaire {
        try JSONDecoder().decode(Questionnaire.self, from: Data(contentsOf: url))
    }
}

/// `QuestionnaireCheck`: a broken form definition is caught when it is loaded, with the place inside the file.
@Suite struct QuestionnaireTests {
    static func decode(_ json: String) throws -> Questionnaire {
        try JSONDecoder().decode(Questionnaire.self, from: Data(json.utf8))
    }

    /// A small valid form; `fields` and `flags` replace its defaults to break it in one place.
    static func form(fields: String? = nil, flags: String? = nil) throws -> Questionnaire {
        let defaultFields = """
            {"key": "smoker", "title": "Do you smoke?", "type": "boolean", "required": true},
            {"key": "cigarettes", "title": "How many a day?", "type": "number", "enableWhen": {"key": "smoker", "equals": true}},
            {"key": "level", "title": "Activity", "type": "choice", "options": [{"value": "low", "title": "Low"}, {"value": "high", "title": "High"}]}
            """
        let defaultFlags = #"{"flag": "smoker", "title": "Smoker", "when": [{"key": "smoker", "equals": true}]}"#
        return try decode(
            """
            {"id": "mini", "version": 1, "title": "Mini",
             "sections": [{"key": "main", "title": "Main", "fields": [\(fields ?? defaultFields)]}],
             "flags": [\(flags ?? defaultFlags)]}
            """
        )
    }

    static func expectProblem(_ problems: [String], at path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(problems.contains { $0.hasPrefix(path) }, "\(problems) names \(path)", sourceLocation: sourceLocation)
    }

    @Test func theShippedScreeningHasNoProblems() throws {
        let questionnaire = try ShippedQuestionnaire.load()
        #expect(questionnaire.id == "screening")
        #expect(QuestionnaireCheck.problems(in: questionnaire) == [])
    }

    @Test func theShippedScreeningHasNoUnknownKeys() throws {
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: ShippedQuestionnaire.url))
        #expect(QuestionnaireCheck.unknownKeys(in: document) == [])
    }

    @Test func aMisspelledKeyAtAnyLevelIsNamedWithItsPath() throws {
        let json = """
            {"id": "mini", "version": 1, "title": "Mini", "subtitle": "x",
             "sections": [{"key": "main", "title": "Main", "editable": true, "fields": [
                {"key": "smoker", "title": "Smoke?", "type": "boolean", "requried": true,
                 "enableWhen": {"key": "level", "equal": "high"}},
                {"key": "level", "title": "Level", "type": "choice", "options": [{"value": "low", "title": "Low", "label": "x"}]}]}],
             "flags": [{"flag": "smoker", "title": "Smoker", "when": [{"key": "smoker", "equals": true, "not": true}]}]}
            """
        let problems = QuestionnaireCheck.unknownKeys(in: try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)))
        #expect(
            problems == [
                "subtitle: is not a field of a questionnaire",
                "flags[0].when[0].not: is not a field of a questionnaire",
                "sections[0].editable: is not a field of a questionnaire",
                "sections[0].fields[0].requried: is not a field of a questionnaire",
                "sections[0].fields[0].enableWhen.equal: is not a field of a questionnaire",
                "sections[0].fields[1].options[0].label: is not a field of a questionnaire",
            ]
        )
    }

    @Test func everyKeyTheFormatEncodesIsAKnownKey() throws {
        // Every optional property set, so that its key is encoded: a property added without its key would fail here.
        let json = """
            {"id": "full", "version": 1, "title": "Full", "description": "d",
             "sections": [{"key": "s", "title": "S", "help": "h", "editableAfterCompletion": true, "fields": [
                {"key": "a", "title": "A", "type": "measurement", "required": true, "help": "h", "editableAfterCompletion": true,
                 "unit": "cm", "quantity": "length", "minimum": 1, "maximum": 2, "maxLength": 3, "mirrors": "height",
                 "options": [{"value": "v", "title": "V"}],
                 "enableWhen": {"key": "a", "equals": 1, "anyOf": [1], "contains": 1}}]}],
             "flags": [{"flag": "f", "title": "F", "when": [{"key": "a", "equals": 1}]}]}
            """
        let encoded = try JSONEncoder().encode(try Self.decode(json))
        let document = try JSONDecoder().decode(JSONValue.self, from: encoded)
        #expect(QuestionnaireCheck.unknownKeys(in: document) == [])
        #expect(document == (try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))), "every key survived the round trip")
    }

    @Test func theShippedScreeningMirrorsEveryClientDetail() throws {
        let mirrored = Set(try ShippedQuestionnaire.load().allFields.compactMap(\.field.mirrors))
        #expect(mirrored == Set(Questionnaire.MirroredField.allCases))
    }

    @Test func theShippedScreeningKeepsPersonalDetailsAndGoalEditable() throws {
        let questionnaire = try ShippedQuestionnaire.load()
        let editable = Set(questionnaire.allFields.filter(\.editableAfterCompletion).map(\.field.key))
        #expect(editable.isSuperset(of: ["givenName", "familyName", "sex", "birthDate", "height", "mass", "goal", "email", "mobilePhone"]))
        #expect(!editable.contains("heartCondition"))
        #expect(!editable.contains("smoker"))
    }

    @Test func theSmallValidFormHasNoProblems() throws {
        #expect(QuestionnaireCheck.problems(in: try Self.form()) == [])
    }

    @Test func aDuplicateFieldKeyIsAProblem() throws {
        let form = try Self.form(
            fields: """
                {"key": "smoker", "title": "Do you smoke?", "type": "boolean"},
                {"key": "smoker", "title": "Again?", "type": "boolean"}
                """
        )
        let problems = QuestionnaireCheck.problems(in: form)
        Self.expectProblem(problems, at: "sections[0].fields[1].key")
        #expect(problems.count == 1)
    }

    @Test func aDuplicateSectionKeyIsAProblem() throws {
        let form = try Self.decode(
            """
            {"id": "mini", "version": 1, "title": "Mini", "flags": [],
             "sections": [{"key": "main", "title": "A", "fields": [{"key": "a", "title": "A", "type": "boolean"}]},
                          {"key": "main", "title": "B", "fields": [{"key": "b", "title": "B", "type": "boolean"}]}]}
            """
        )
        Self.expectProblem(QuestionnaireCheck.problems(in: form), at: "sections[1].key")
    }

    @Test func enableWhenOnAnUnknownKeyIsAProblem() throws {
        let form = try Self.form(
            fields: """
                {"key": "smoker", "title": "Do you smoke?", "type": "boolean"},
                {"key": "cigarettes", "title": "How many?", "type": "number", "enableWhen": {"key": "smokes", "equals": true}}
                """
        )
        let problems = QuestionnaireCheck.problems(in: form)
        Self.expectProblem(problems, at: "sections[0].fields[1].enableWhen.key")
        #expect(problems.count == 1)
    }

    @Test func aFieldCannotDependOnItself() throws {
        let form = try Self.form(
            fields: #"{"key": "smoker", "title": "Do you smoke?", "type": "boolean", "enableWhen": {"key": "smoker", "equals": true}}"#
        )
        Self.expectProblem(QuestionnaireCheck.problems(in: form), at: "sections[0].fields[0].enableWhen")
    }

    @Test func aConditionNeedsExactlyOneTest() throws {
        let form = try Self.form(
            fields: """
                {"key": "smoker", "title": "Do you smoke?", "type": "boolean"},
                {"key": "cigarettes", "title": "How many?", "type": "number",
                 "enableWhen": {"key": "smoker", "equals": true, "anyOf": [true]}}
                """
        )
        Self.expectProblem(QuestionnaireCheck.problems(in: form), at: "sections[0].fields[1].enableWhen")
    }

    @Test func aChoiceWithoutOptionsIsAProblem() throws {
        let form = try Self.form(
            fields: """
                {"key": "smoker", "title": "Do you smoke?", "type": "boolean"},
                {"key": "level", "title": "Activity", "type": "choice"}
                """
        )
        let problems = QuestionnaireCheck.problems(in: form)
        Self.expectProblem(problems, at: "sections[0].fields[1].options")
        #expect(problems.count == 1)
    }

    @Test func aMultiChoiceWithEmptyOptionsIsAProblem() throws {
        let form = try Self.form(
            fields: """
                {"key": "smoker", "title": "Do you smoke?", "type": "boolean"},
                {"key": "sports", "title": "Sports", "type": "multiChoice", "options": []}
                """
        )
        Self.expectProblem(QuestionnaireCheck.problems(in: form), at: "sections[0].fields[1].options")
    }

    @Test func repeatedOptionValuesAreAProblem() throws {
        let form = try Self.form(
            fields: """
                {"key": "smoker", "title": "Do you smoke?", "type": "boolean"},
                {"key": "level", "title": "Activity", "type": "choice",
                 "options": [{"value": "low", "title": "Low"}, {"value": "low", "title": "Lower"}]}
                """
        )
        Self.expectProblem(QuestionnaireCheck.problems(in: form), at: "sections[0].fields[1].options")
    }

    @Test func aFieldMirroringSexMustOfferMaleAndFemale() throws {
        let form = try Self.form(
            fields: """
                {"key": "smoker", "title": "Do you smoke?", "type": "boolean"},
                {"key": "sex", "title": "Sex", "type": "choice", "mirrors": "sex",
                 "options": [{"value": "m", "title": "M"}, {"value": "f", "title": "F"}]}
                """
        )
        let problems = QuestionnaireCheck.problems(in: form)
        Self.expectProblem(problems, at: "sections[0].fields[1].options")
        #expect(problems.count == 1)
    }

    @Test func aMirrorNeedsTheMatchingFieldType() throws {
        let form = try Self.form(
            fields: """
                {"key": "smoker", "title": "Do you smoke?", "type": "boolean"},
                {"key": "born", "title": "Born", "type": "text", "mirrors": "birthDate"}
                """
        )
        Self.expectProblem(QuestionnaireCheck.problems(in: form), at: "sections[0].fields[1].mirrors")
    }

    @Test func aHeightMirrorMustMeasureLength() throws {
        let form = try Self.form(
            fields: """
                {"key": "smoker", "title": "Do you smoke?", "type": "boolean"},
                {"key": "height", "title": "Height", "type": "measurement", "quantity": "mass", "mirrors": "height"}
                """
        )
        Self.expectProblem(QuestionnaireCheck.problems(in: form), at: "sections[0].fields[1].quantity")
    }

    @Test func twoFieldsMirroringTheSameClientDetailAreAProblem() throws {
        let form = try Self.form(
            fields: """
                {"key": "smoker", "title": "Do you smoke?", "type": "boolean"},
                {"key": "goal", "title": "Goal", "type": "text", "mirrors": "goal"},
                {"key": "aim", "title": "Aim", "type": "text", "mirrors": "goal"}
                """
        )
        Self.expectProblem(QuestionnaireCheck.problems(in: form), at: "sections[0].fields[2].mirrors")
    }

    @Test func aMeasurementNeedsAQuantity() throws {
        let form = try Self.form(
            fields: """
                {"key": "smoker", "title": "Do you smoke?", "type": "boolean"},
                {"key": "waist", "title": "Waist", "type": "measurement"}
                """
        )
        Self.expectProblem(QuestionnaireCheck.problems(in: form), at: "sections[0].fields[1].quantity")
    }

    @Test func optionsOnANonChoiceFieldAreAProblem() throws {
        let form = try Self.form(
            fields: #"{"key": "smoker", "title": "Do you smoke?", "type": "boolean", "options": [{"value": "y", "title": "Y"}]}"#
        )
        Self.expectProblem(QuestionnaireCheck.problems(in: form), at: "sections[0].fields[0].options")
    }

    @Test func aMinimumAboveTheMaximumIsAProblem() throws {
        let form = try Self.form(
            fields: #"{"key": "smoker", "title": "Hours", "type": "number", "minimum": 10, "maximum": 5}"#,
            flags: #"{"flag": "smoker", "title": "S", "when": [{"key": "smoker", "equals": 1}]}"#
        )
        Self.expectProblem(QuestionnaireCheck.problems(in: form), at: "sections[0].fields[0].minimum")
    }

    @Test func aFlagRuleOnAnUnknownKeyIsAProblem() throws {
        let form = try Self.form(flags: #"{"flag": "smoker", "title": "Smoker", "when": [{"key": "smoking", "equals": true}]}"#)
        let problems = QuestionnaireCheck.problems(in: form)
        Self.expectProblem(problems, at: "flags[0].when[0].key")
        #expect(problems.count == 1)
    }

    @Test func aFlagRuleWithoutConditionsIsAProblem() throws {
        let form = try Self.form(flags: #"{"flag": "smoker", "title": "Smoker", "when": []}"#)
        Self.expectProblem(QuestionnaireCheck.problems(in: form), at: "flags[0].when")
    }

    @Test func identifiersAreLettersDigitsDashesAndUnderscores() throws {
        let form = try Self.form(
            fields: #"{"key": "do you smoke", "title": "Do you smoke?", "type": "boolean"}"#,
            flags: #"{"flag": "smoker!", "title": "Smoker", "when": [{"key": "do you smoke", "equals": true}]}"#
        )
        let problems = QuestionnaireCheck.problems(in: form)
        Self.expectProblem(problems, at: "sections[0].fields[0].key")
        Self.expectProblem(problems, at: "flags[0].flag")
    }

    @Test func anUnknownFieldTypeFailsToDecode() {
        #expect(throws: DecodingError.self) {
            try Self.form(fields: #"{"key": "smoker", "title": "Do you smoke?", "type": "slider"}"#)
        }
    }

    @Test func conditionsMatchEqualsAnyOfAndContains() throws {
        let condition = { (json: String) in try JSONDecoder().decode(Questionnaire.Condition.self, from: Data(json.utf8)) }
        let answers: [String: JSONValue] = ["smoker": .bool(true), "level": .string("high"), "sports": .array([.string("run")])]
        #expect(try condition(#"{"key": "smoker", "equals": true}"#).matches(answers))
        #expect(!(try condition(#"{"key": "smoker", "equals": false}"#).matches(answers)))
        #expect(try condition(#"{"key": "level", "anyOf": ["mid", "high"]}"#).matches(answers))
        #expect(try condition(#"{"key": "sports", "contains": "run"}"#).matches(answers))
        #expect(!(try condition(#"{"key": "sports", "contains": "swim"}"#).matches(answers)))
        #expect(!(try condition(#"{"key": "unanswered", "equals": null}"#).matches(answers)))
    }
}
