import Foundation
import HealthwheelCore
import Services
import TestSupport
import Testing

@testable import Console

/// The console's form reading, without a server.
@Suite struct ConsoleFormTests {
    @Test func aUrlencodedFormKeepsEveryValueInOrder() {
        let form = FormFields(urlEncoded: Array("a=1&b=x+y&c=%C3%A9%2B&a=2&empty=&bare&bad=%zz%4".utf8))
        #expect(form["a"] == "1" && form.all("a") == ["1", "2"])
        #expect(form["b"] == "x y" && form["c"] == "é+")
        #expect(form["empty"] == "" && form["bare"] == "" && form.text("empty") == nil)
        #expect(form["bad"] == "%zz%4", "bad escapes are kept as sent")
    }

    @Test func onlyAPathOnThisServerIsAPlaceToReturnTo() {
        for good in ["/clients", "/clients?q=a%20b", "/admin/audit?action=client.created"] { #expect(SafePath(good)?.path == good) }
        for bad in ["//evil.example", "https://evil.example", "/\\evil.example", "clients", "/a b", "/\u{0}", ""] {
            #expect(SafePath(bad) == nil, "\(bad)")
        }
    }

    @Test func measurementsShowInTheCompanysUnitsAndReadBackAsTyped() throws {
        let imperialLength = MeasurementFields(quantity: .length, units: .imperial)
        #expect(imperialLength.texts(1.7512) == ["5", "8.9"])
        #expect(imperialLength.texts(1.8288) == ["6", "0"], "12 inches are a foot")
        let input = try #require(try imperialLength.input(["5", "11"], field: "height"))
        #expect(input.value == 5 && input.unit == "ft" && input.part?.value == 11)
        #expect(try imperialLength.input([" ", ""], field: "height") == nil)
        #expect(throws: ValidationError.self) { try imperialLength.input(["five", ""], field: "height") }
        #expect(MeasurementFields(quantity: .length, units: .metric).texts(1.7512) == ["175.1"])
        #expect(MeasurementFields(quantity: .mass, units: .imperial).texts(70.123) == ["154.6"])
        #expect(try MeasurementFields(quantity: .mass, units: .metric).input(["70,5"], field: "mass")?.value == 70.5, "a decimal comma reads")
    }

    @Test func aScreeningFormSendsOnlyTheAnswersThatChanged() throws {
        let questionnaire = try #require(
            try QuestionnaireCatalog.load(from: RepositoryRoot.url.appendingPathComponent("Questionnaires"))["screening"]
        )
        let form = ScreeningForm(questionnaire: questionnaire, units: .imperial)
        let stored: [String: JSONValue] = [
            "height": .number(1.7512), "givenName": .string("Ana"), "smoker": .bool(false), "activities": .array([.string("running")]),
        ]
        var posted = FormFields()
        for (field, _) in questionnaire.allFields {
            for (name, text) in zip(form.inputNames(field), form.texts(stored[field.key], field)) where field.type != .multiChoice {
                posted.append(name, text)
            }
        }
        posted.append("activities", "running")
        #expect(try form.changes(posted, answers: stored) { _ in true }.isEmpty, "a form sent back as shown changes nothing")

        var changed = FormFields()
        for pair in posted.pairs where pair.name != "smoker" && pair.name != "heightIn" { changed.append(pair.name, pair.value) }
        changed.append("smoker", "yes")
        changed.append("heightIn", "9")
        changed.append("activities", "cycling")
        let changes = try form.changes(changed, answers: stored) { _ in true }
        #expect(changes["smoker"] == .bool(true))
        #expect(changes["height"] == .object(["value": .number(5), "unit": .string("ft"), "inches": .number(9)]))
        #expect(changes["activities"] == .array([.string("running"), .string("cycling")]))
        #expect(changes.count == 3)
        // A field shown locked is never sent, whatever the form holds.
        #expect(try form.changes(changed, answers: stored) { $0.key != "smoker" }["smoker"] == nil)
        var unreadable = FormFields()
        unreadable.append("weeklyWorkHours", "many")
        #expect(throws: ValidationError.self) { try form.changes(unreadable, answers: [:]) { $0.key == "weeklyWorkHours" } }
    }
}
