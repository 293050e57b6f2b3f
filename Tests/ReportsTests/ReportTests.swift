import Foundation
import HealthwheelCore
import TestSupport
import Testing

@testable import Reports

/// A report of a client over a year: push-ups improving, a resting heart rate getting worse, flexibility never
/// measured.
enum SampleReport {
    static let january = Date(timeIntervalSince1970: 1_798_761_600)  // 2027-01-01
    static let client: Client = {
        var client = Client(companyId: UUID(), createdAt: january)
        client.givenName = "Mere"
        client.familyName = "Ngata <b>"
        client.birthDate = CalendarDate(year: 1990, month: 5, day: 2)
        client.goal = "Run 10 km by December"
        return client
    }()

    static func exercise(_ id: String, _ name: String, field: String, quantity: Quantity, unit: String) -> Exercise {
        Exercise(
            id: id,
            name: name,
            description: "",
            fields: [Exercise.Field(key: field, label: field.capitalized, quantity: quantity, unit: unit)],
            primaryField: field,
            conversionAlgorithm: "return 5",
            steps: [],
            considerations: nil,
            source: "ACSM 2021",
            loinc: nil,
            examples: []
        )
    }

    static func result(
        _ exercise: String,
        category: String,
        value: (String, Double),
        score: Double?,
        month: Int,
        note: String? = nil
    ) -> AssessmentResult {
        let day = january.addingTimeInterval(Double(month) * 30 * 86_400)
        var result = AssessmentResult(
            clientId: client.id,
            companyId: client.companyId,
            exerciseOwner: "*",
            exerciseId: exercise,
            categoryId: category,
            packVersion: 1,
            trainerId: UUID(),
            values: [value.0: value.1],
            observations: note,
            recordedAt: day,
            createdAt: day
        )
        result.state.score = score
        return result
    }

    static func input() -> ReportInput {
        let pushUps = exercise("push-ups", "Push-ups", field: "count", quantity: .count, unit: "count")
        let heart = exercise("resting-heart-rate", "Resting heart rate", field: "heartRate", quantity: .heartRate, unit: "bpm")
        let reach = exercise("sit-and-reach", "Sit and reach", field: "reach", quantity: .length, unit: "cm")
        let pushUpResults = [
            result("push-ups", category: "endurance", value: ("count", 8), score: 2, month: 0, note: "Knees down for the last three"),
            result("push-ups", category: "endurance", value: ("count", 14), score: 3.5, month: 6),
        ]
        let heartResults = [
            result("resting-heart-rate", category: "cardiovascular", value: ("heartRate", 62), score: 7, month: 1),
            result("resting-heart-rate", category: "cardiovascular", value: ("heartRate", 66), score: 6.5, month: 9),
        ]
        let latest = { (results: [AssessmentResult]) in
            HealthWheel.Latest(score: results.last!.state.score, values: results.last!.state.values, recordedAt: results.last!.state.recordedAt)
        }
        let categories = [
            HealthWheel.Category(
                id: "cardiovascular",
                name: "Cardiovascular",
                colour: "#d7263d",
                exercises: [("resting-heart-rate", "Resting heart rate")]
            ),
            HealthWheel.Category(id: "endurance", name: "Endurance", colour: "#6a4c93", exercises: [("push-ups", "Push-ups")]),
            HealthWheel.Category(id: "flexibility", name: "Flexibility", colour: "#1b998b", exercises: [("sit-and-reach", "Sit and reach")]),
        ]
        let scored = ["push-ups": latest(pushUpResults), "resting-heart-rate": latest(heartResults)]
        return ReportInput(
            companyName: "Harbour Fitness",
            theme: SampleWheel.theme,
            logo: nil,
            client: client,
            trainerName: "Ana Trainer",
            from: january,
            to: january.addingTimeInterval(364 * 86_400),
            generatedAt: january.addingTimeInterval(364 * 86_400),
            slices: HealthWheel.slices(categories, scored: scored, newest: scored, flagBelow: 4),
            exercises: [
                .init(exercise: heart, categoryId: "cardiovascular", results: heartResults.reversed().map(ResultSummary.init)),
                .init(exercise: pushUps, categoryId: "endurance", results: pushUpResults.map(ResultSummary.init)),
                .init(exercise: reach, categoryId: "flexibility", results: []),
            ]
        )
    }
}

@Suite struct ClientReportTests {
    @Test func eachExerciseShowsItsLatestResultScoreAndChangeOverThePeriod() throws {
        let report = ClientReport(SampleReport.input(), strings: try ReportStrings(language: "en"), units: .metric)
        #expect(report.categories.map(\.name) == ["Cardiovascular", "Endurance", "Flexibility"])
        let heart = try #require(report.categories[0].exercises.first)
        #expect(heart.latest.hasPrefix("66 bpm · "))
        #expect(heart.score == "6.5" && heart.arrow == "▼" && heart.change.hasSuffix(": down 0.5"))
        let pushUps = try #require(report.categories[1].exercises.first)
        #expect(pushUps.arrow == "▲" && pushUps.change.hasSuffix("up 1.5") && pushUps.trend.map(\.score) == [2, 3.5])
        #expect(pushUps.observations.map(\.text) == ["Knees down for the last three"])
        #expect(report.categories[1].flagged && report.categories[1].weakest == "Held back most by Push-ups")
        let reach = try #require(report.categories[2].exercises.first)
        #expect(!reach.hasResults && reach.source == "Norms: ACSM 2021")
        #expect(report.labels.goalValue == "Run 10 km by December" && report.labels.ageValue == "37 years")
    }

    @Test func spanishReadersGetSpanishWordsAndDecimalCommas() throws {
        let report = ClientReport(SampleReport.input(), strings: try ReportStrings(language: "es"), units: .metric)
        #expect(report.labels.title == "Informe de progreso")
        #expect(report.categories[0].exercises[0].score == "6,5")
        #expect(report.categories[0].exercises[0].latest.hasPrefix("66 lpm · "))
        #expect(report.categories[1].exercises[0].change.contains("sube 1,5"))
    }
}

@Suite struct ReportPicturesTests {
    @Test func theWheelAndATrendForEachExerciseScoredMoreThanOnceAreDrawn() throws {
        let report = ClientReport(SampleReport.input(), strings: try ReportStrings(language: "en"), units: .metric)
        let pictures = try report.pictures()
        #expect(Set(pictures.keys) == [.wheel, .trend(exerciseId: "push-ups"), .trend(exerciseId: "resting-heart-rate")])
        #expect(pictures.values.allSatisfy { $0.starts(with: [0x89, 0x50, 0x4E, 0x47]) })
        #expect(try report.pictures() == pictures, "the same report draws the same pictures")
    }

    /// The chart as committed (`Golden/trend-push-ups.png`), looked at before it was committed. Set
    /// `HEALTHWHEEL_UPDATE_GOLDEN=1` to write it again.
    @Test func theTrendChartMatchesTheGoldenFile() throws {
        let report = ClientReport(SampleReport.input(), strings: try ReportStrings(language: "en"), units: .metric)
        let png = try #require(try report.pictures()[.trend(exerciseId: "push-ups")])
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/trend-push-ups.png")
        if ProcessInfo.processInfo.environment["HEALTHWHEEL_UPDATE_GOLDEN"] == "1" { try Data(png).write(to: golden) }
        #expect(png == Array(try Data(contentsOf: golden)))
    }
}

@Suite struct ReportHTMLTests {
    /// Start-up asks this, so a template that does not parse stops the server instead of its first report.
    @Test func theShippedTemplateLoadsAndParses() throws {
        try ReportHTML.checkTemplate()
    }

    static func html(language: String = "en") throws -> String {
        let report = ClientReport(SampleReport.input(), strings: try ReportStrings(language: language), units: .metric)
        return try ReportHTML.render(report) { picture in
            switch picture {
            case .logo: nil
            case .wheel: "cid:wheel"
            case .trend(let id): "cid:trend-\(id)"
            }
        }
    }

    @Test func theHTMLHasNoScriptsAndLoadsNothingFromOutside() throws {
        let html = try Self.html()
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("href="))
        #expect(!html.contains("<link") && !html.contains("<style"), "styles are inline, as mail clients need")
        let sources = html.components(separatedBy: "src=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(Set(sources) == ["cid:wheel", "cid:trend-push-ups", "cid:trend-resting-heart-rate"])
    }

    @Test func theHTMLCarriesTheReportAndEscapesWhatPeopleTyped() throws {
        let html = try Self.html()
        #expect(html.contains("Prepared for Mere Ngata &lt;b&gt;") && !html.contains("Ngata <b>"))
        for text in [
            "Harbour Fitness", "Run 10 km by December", "Needs attention", "Held back most by Push-ups", "▲", "▼", "Knees down for the last three",
            "Norms: ACSM 2021", "No results in this period",
        ] {
            #expect(html.contains(text), "\(text)")
        }
        #expect(try Self.html(language: "es").contains("Informe de progreso"))
    }
}

@Suite struct ReportPDFTests {
    /// Runs a poppler tool (installed by `scripts/install-deps`) on `pdf` and returns what it printed.
    static func poppler(_ tool: String, _ arguments: [String], pdf: [UInt8]) throws -> String {
        let folder = TemporaryDirectory()
        let file = folder.url.appendingPathComponent("report.pdf")
        try Data(pdf).write(to: file)
        let result = try RunningProcess.run(
            URL(fileURLWithPath: "/usr/bin/\(tool)"),
            arguments + [file.path] + (tool == "pdftotext" ? ["-"] : [])
        )
        try #require(result.status == 0, "\(tool): \(result.errors)")
        return result.output
    }

    static func pdf(language: String = "en") throws -> [UInt8] {
        var input = SampleReport.input()
        input.theme.reportFooter = "Harbour Fitness · 12 Wharf Street, Wellington"
        return try ReportPDF.render(ClientReport(input, strings: try ReportStrings(language: language), units: .metric))
    }

    @Test func isA4WithEveryPageNumberedOfTheTotal() throws {
        let pdf = try Self.pdf()
        #expect(pdf.starts(with: Array("%PDF-".utf8)))
        let info = try Self.poppler("pdfinfo", [], pdf: pdf)
        #expect(info.contains("Page size:       595.28 x 841.89 pts (A4)"))
        #expect(info.contains("Title:           Progress report: Mere Ngata <b>") && info.contains("Author:          Harbour Fitness"))
        let pages = try #require(info.split(separator: "\n").first { $0.hasPrefix("Pages:") }.flatMap { Int($0.split(separator: " ").last!) })
        let text = try Self.poppler("pdftotext", ["-layout"], pdf: pdf)
        for page in 1...pages { #expect(text.contains("Page \(page) of \(pages)")) }
        #expect(text.components(separatedBy: "Harbour Fitness · 12 Wharf Street, Wellington").count - 1 == pages, "the footer on every page")
    }

    @Test func itsTextCanBeSelectedAndItsFontsAreEmbedded() throws {
        let pdf = try Self.pdf()
        let text = try Self.poppler("pdftotext", [], pdf: pdf)
        for line in [
            "Prepared for Mere Ngata <b>", "Run 10 km by December", "Needs attention · Held back most by Push-ups", "Knees down for the last three",
            "No results in this period", "Norms: ACSM 2021",
        ] {
            #expect(text.contains(line), "\(line)")
        }
        let fonts = try Self.poppler("pdffonts", [], pdf: pdf).split(separator: "\n").dropFirst(2)
        #expect(!fonts.isEmpty && fonts.allSatisfy { $0.contains("DejaVuSans") && $0.contains(" yes yes ") }, "\(fonts)")
        #expect(try Self.poppler("pdftotext", [], pdf: try Self.pdf(language: "es")).contains("Informe de progreso"))
    }
}
