import Foundation
import Testing

@testable import Reports

@Suite struct ReportStringsTests {
    @Test(arguments: ReportStrings.languages)
    func everyLanguageHasEveryKeyEnglishHas(_ language: String) throws {
        #expect(try ReportStrings.missingKeys(in: language) == [])
    }

    @Test func argumentsAreFilledIn() throws {
        let spanish = try ReportStrings(language: "es")
        #expect(spanish.text("report.preparedFor", ["name": "Mere Ngata"]) == "Preparado para Mere Ngata")
        #expect(try ReportStrings(language: "en").text("exercise.up", ["delta": "1.5"]) == "up 1.5")
    }

    @Test func whatPeopleTypedIsKeptAsTypedEvenWithBraces() {
        let strings = ReportStrings(language: "en", strings: [:], english: ["k": "{name} on {date} {unknown} {open"])
        #expect(strings.text("k", ["name": "Ana {date}", "date": "1 May"]) == "Ana {date} on 1 May {unknown} {open")
    }

    @Test func aKeyALanguageLacksFallsBackToEnglish() {
        let strings = ReportStrings(
            language: "es",
            strings: ["report.title": "Informe"],
            english: ["report.title": "Report", "wheel.title": "Health wheel"]
        )
        #expect(strings.text("report.title") == "Informe")
        #expect(strings.text("wheel.title") == "Health wheel")
    }

    @Test func anUnknownLanguageIsEnglishAndAnUnknownKeyShowsItself() throws {
        let strings = try ReportStrings(language: "xx")
        #expect(strings.language == "en" && strings.text("report.title") == "Progress report")
        #expect(strings.text("no.such.key") == "no.such.key")
    }
}
