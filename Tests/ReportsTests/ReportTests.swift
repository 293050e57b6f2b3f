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

    static func exercise(
        _ id: String,
        _ name: String,
        field: String,
        quantity: Quantity,
        unit: String,
        unitLabel: String? = nil,
        source: String = "ACSM 2021"
    ) -> Exercise {
        Exercise(
            id: id,
            name: name,
            description: "",
            fields: [Exercise.Field(key: field, label: field.capitalized, quantity: quantity, unit: unit, unitLabel: unitLabel)],
            primaryField: field,
            conversionAlgorithm: "return 5",
            steps: [],
            considerations: nil,
            source: source,
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

    /// A photo's thumbnail and a video's poster card, as the report use case makes them.
    static func media() throws -> [ReportMedia] {
        let photo = try MediaThumbnail.photo(TestPictures.png(width: 480, height: 320, stripe: 40), fitting: ReportMedia.side, png: true)
        let poster = try MediaThumbnail.video(width: 1920, height: 1080, durationSeconds: 5, fitting: ReportMedia.side)
        return [
            try ReportMedia(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000a")!, kind: .photo, png: photo, caption: "Bottom position"),
            try ReportMedia(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000b")!, kind: .video, png: poster, caption: nil),
        ]
    }

    static func input(media: [ReportMedia] = []) -> ReportInput {
        let pushUps = exercise("push-ups", "Push-ups", field: "count", quantity: .count, unit: "count", unitLabel: "push-ups", source: "CSEP 2003")
        let heart = exercise("resting-heart-rate", "Resting heart rate", field: "heartRate", quantity: .heartRate, unit: "bpm", source: "Heart chart")
        let pressure = exercise("blood-pressure", "Blood pressure", field: "systolic", quantity: .pressure, unit: "mmHg", source: "ACC/AHA 2017")
        let reach = exercise("sit-and-reach", "Sit and reach", field: "reach", quantity: .length, unit: "cm", source: "CSEP 2003")
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
                colour: "#e0609a",
                exercises: [("resting-heart-rate", "Resting heart rate"), ("blood-pressure", "Blood pressure")]
            ),
            HealthWheel.Category(id: "endurance", name: "Endurance", colour: "#6a4c93", exercises: [("push-ups", "Push-ups")]),
            HealthWheel.Category(id: "flexibility", name: "Flexibility", colour: "#1b998b", exercises: [("sit-and-reach", "Sit and reach")]),
        ]
        let scored = ["push-ups": latest(pushUpResults), "resting-heart-rate": latest(heartResults)]
        // At the period's start only the first push-ups result had been recorded.
        let start = ["push-ups": latest(Array(pushUpResults.prefix(1)))]
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
            startSlices: HealthWheel.slices(categories, scored: start, newest: start, flagBelow: 4),
            flagBelow: 4,
            exercises: [
                .init(exercise: heart, categoryId: "cardiovascular", results: heartResults.reversed().map(ResultSummary.init)),
                .init(exercise: pressure, categoryId: "cardiovascular", results: []),
                .init(
                    exercise: pushUps,
                    categoryId: "endurance",
                    results: pushUpResults.map(ResultSummary.init),
                    media: media,
                    morePhotos: media.isEmpty ? 0 : 2
                ),
                .init(exercise: reach, categoryId: "flexibility", results: []),
            ]
        )
    }
}

@Suite struct ClientReportTests {
    @Test func eachMeasuredExerciseShowsItsLatestResultWithItsUnitScoreAndChange() throws {
        let report = ClientReport(SampleReport.input(), strings: try ReportStrings(language: "en"), units: .metric)
        #expect(report.categories.map(\.name) == ["Cardiovascular", "Endurance", "Flexibility"])
        let heart = try #require(report.categories[0].exercises.first)
        #expect(heart.latest.hasPrefix("66 bpm · "))
        #expect(heart.score == "6.5" && heart.arrow == "▼" && heart.change.hasSuffix(": down 0.5"))
        let pushUps = try #require(report.categories[1].exercises.first)
        #expect(pushUps.latest.hasPrefix("14 push-ups · "), "a count shows the pack's unit label")
        #expect(pushUps.arrow == "▲" && pushUps.change.hasSuffix("up 1.5") && pushUps.trend.map(\.score) == [2, 3.5])
        #expect(pushUps.observations.map(\.text) == ["Knees down for the last three"])
        #expect(report.categories[1].flagged && report.categories[1].weakest == "Held back most by Push-ups")
        #expect(report.labels.goalValue == "Run 10 km by December" && report.labels.ageValue == "37 years")
    }

    @Test func exercisesNotMeasuredCollapseIntoOneLinePerCategory() throws {
        let report = ClientReport(SampleReport.input(), strings: try ReportStrings(language: "en"), units: .metric)
        #expect(report.categories[0].exercises.map(\.name) == ["Resting heart rate"])
        #expect(report.categories[0].notMeasured == "Not measured in this period: Blood pressure")
        #expect(report.categories[1].notMeasured == nil)
        #expect(report.categories[2].exercises.isEmpty && report.categories[2].notMeasured == "Not measured in this period: Sit and reach")
    }

    @Test func normsAreCitedOnceEachInANumberedListReferencedFromTheirExercises() throws {
        let report = ClientReport(SampleReport.input(), strings: try ReportStrings(language: "en"), units: .metric)
        // Only the measured exercises' sources, in order of first reference; sit and reach shares CSEP 2003 but is not shown.
        #expect(report.sources == ["Heart chart", "CSEP 2003"])
        #expect(report.categories[0].exercises[0].sourceReference == "Norms: source 1")
        #expect(report.categories[1].exercises[0].sourceReference == "Norms: source 2")
    }

    @Test func theSummaryGivesEachCategorysScoreChangeAndWhatHoldsItBack() throws {
        let report = ClientReport(SampleReport.input(), strings: try ReportStrings(language: "en"), units: .metric)
        #expect(report.summary.map(\.name) == ["Cardiovascular", "Endurance", "Flexibility"])
        #expect(report.summary.map(\.now) == ["6.5", "3.5", "–"])
        #expect(report.summary.map(\.change) == ["new", "▲ 1.5", "–"], "no score at the start is new; no score now is –")
        #expect(report.summary.map(\.changeDirection) == [0, 1, 0])
        #expect(report.summary.map(\.holdingBack) == ["Resting heart rate", "Push-ups", "–"])
        #expect(report.summary.map(\.flagged) == [false, true, false])
        #expect(report.labels.summaryChange == "Since 1 Jan 2027")
        #expect(report.nextSteps == ["Push-ups: your latest score is 3.5 of 10. Improving it lifts Endurance, which is below 4 of 10."])
    }

    @Test func withNothingFlaggedWhatToWorkOnNextSaysSo() throws {
        var input = SampleReport.input()
        input.slices = input.slices.map { slice in
            var slice = slice
            slice.flagged = false
            return slice
        }
        let report = ClientReport(input, strings: try ReportStrings(language: "en"), units: .metric)
        #expect(report.nextSteps == ["No category needs attention right now. Keep going!"])
    }

    @Test func theLatestResultsPhotosAndVideosAreCounted() throws {
        let media = try SampleReport.media()
        let report = ClientReport(SampleReport.input(media: media), strings: try ReportStrings(language: "en"), units: .metric)
        let pushUps = try #require(report.categories[1].exercises.first)
        #expect(pushUps.media.map(\.id) == media.map(\.id))
        #expect(pushUps.videos == "1 video" && pushUps.morePhotos == "and 2 more")
        #expect(report.categories[0].exercises[0].media.isEmpty && report.categories[0].exercises[0].videos.isEmpty)
    }

    @Test func spanishReadersGetSpanishWordsAndDecimalCommas() throws {
        let report = ClientReport(SampleReport.input(), strings: try ReportStrings(language: "es"), units: .metric)
        #expect(report.labels.title == "Informe de progreso")
        #expect(report.categories[0].exercises[0].score == "6,5")
        #expect(report.categories[0].exercises[0].latest.hasPrefix("66 lpm · "))
        #expect(report.categories[1].exercises[0].change.contains("sube 1,5"))
        #expect(report.summary[1].change == "▲ 1,5" && report.labels.summaryTitle == "De un vistazo")
        #expect(report.categories[0].notMeasured == "Sin medir en este periodo: Blood pressure", "names come from the (here untranslated) pack")
    }
}

@Suite struct ReportPicturesTests {
    @Test func theWheelAndATrendForEachExerciseScoredMoreThanOnceAreDrawn() throws {
        let report = ClientReport(SampleReport.input(), strings: try ReportStrings(language: "en"), units: .metric)
        let pictures = try report.pictures()
        #expect(Set(pictures.keys) == [.wheel, .trend(exerciseId: "push-ups"), .trend(exerciseId: "resting-heart-rate")])
        let media = try SampleReport.media()
        let withMedia = try ClientReport(SampleReport.input(media: media), strings: try ReportStrings(language: "en"), units: .metric).pictures()
        #expect(Set(withMedia.keys) == Set(pictures.keys).union(media.map { .media(id: $0.id) }))
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

    static func html(language: String = "en", media: [ReportMedia] = []) throws -> String {
        let report = ClientReport(SampleReport.input(media: media), strings: try ReportStrings(language: language), units: .metric)
        return try ReportHTML.render(report) { picture in
            switch picture {
            case .logo: nil
            case .wheel: "cid:wheel"
            case .trend(let id): "cid:trend-\(id)"
            case .media(let id): "cid:media-\(id.uuidString.lowercased())"
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
        let withMedia = try Self.html(media: try SampleReport.media())
        let mediaSources = withMedia.components(separatedBy: "src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }.filter {
            $0.hasPrefix("cid:media-")
        }
        #expect(mediaSources == ["cid:media-00000000-0000-0000-0000-00000000000a", "cid:media-00000000-0000-0000-0000-00000000000b"])
        #expect(withMedia.contains("alt=\"Bottom position\"") && withMedia.contains("1 video · and 2 more"))
    }

    /// Pictures' sources go into the template unescaped, escaped by `ReportHTML` itself (`MarkupText`): the
    /// five characters Mustache escapes, and a data URI, which holds none of them, as it is.
    @Test func aPicturesSourceIsEscaped() throws {
        let report = ClientReport(SampleReport.input(), strings: try ReportStrings(language: "en"), units: .metric)
        let html = try ReportHTML.render(report) { $0 == .wheel ? #"x"><script>&'y"# : nil }
        #expect(html.contains(#"<img src="x&quot;&gt;&lt;script&gt;&amp;&apos;y" width="560""#))
        #expect(!html.lowercased().contains("<script"))
        let uri = "data:image/png;base64,iVBORw0KGgo+/="
        #expect(try ReportHTML.render(report) { $0 == .wheel ? uri : nil }.contains(#"<img src="\#(uri)" width="560""#))
    }

    @Test func theHTMLCarriesTheReportAndEscapesWhatPeopleTyped() throws {
        let html = try Self.html()
        #expect(html.contains("Prepared for Mere Ngata &lt;b&gt;") && !html.contains("Ngata <b>"))
        for text in [
            "Harbour Fitness", "Run 10 km by December", "Needs attention", "Held back most by Push-ups", "▲", "▼", "Knees down for the last three",
            "Norms: source 1", "Not measured in this period: Sit and reach", "At a glance", "What to work on next", "Since 1 Jan 2027", "▲ 1.5",
            "Sources", "CSEP 2003",
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
            "Not measured in this period: Blood pressure", "Not measured in this period: Sit and reach", "Norms: source 2", "Sources", "CSEP 2003",
            "14 push-ups",
        ] {
            #expect(text.contains(line), "\(line)")
        }
        let fonts = try Self.poppler("pdffonts", [], pdf: pdf).split(separator: "\n").dropFirst(2)
        #expect(!fonts.isEmpty && fonts.allSatisfy { $0.contains("DejaVuSans") && $0.contains(" yes yes ") }, "\(fonts)")
        #expect(try Self.poppler("pdftotext", [], pdf: try Self.pdf(language: "es")).contains("Informe de progreso"))
    }

    /// Text from an app may end its lines with "\r\n": the line ends there (nothing drawn for the "\r"), and
    /// runs of spaces are one gap, as for "\n".
    @Test func aLineEndingCRLFEndsTheLine() throws {
        var input = SampleReport.input()
        input.client.goal = "Run a 10k\r\nthen  a half marathon"
        let pdf = try ReportPDF.render(ClientReport(input, strings: try ReportStrings(language: "en"), units: .metric))
        let text = try Self.poppler("pdftotext", [], pdf: pdf)
        #expect(text.contains("Run a 10k\nthen a half marathon"), "\(text.prefix(400))")
    }

    /// A caption is the trainer's text: a word wider than its picture, or more lines than a report shows, is cut
    /// with "…" (the app keeps it whole), so it never runs over the next picture.
    @Test func aLongCaptionIsCutToItsPicture() throws {
        let word = String(repeating: "x", count: 300)
        let long = Array(repeating: "keep the elbows in", count: 20).joined(separator: " ")
        var media = try SampleReport.media()
        media[0].caption = word
        media[1].caption = long
        let pdf = try ReportPDF.render(ClientReport(SampleReport.input(media: media), strings: try ReportStrings(language: "en"), units: .metric))
        let text = try Self.poppler("pdftotext", [], pdf: pdf)
        #expect(!text.contains(word) && text.contains("xxxxxxxxxx…"), "the long word is cut")
        #expect(text.contains("keep the") && text.components(separatedBy: "elbows").count - 1 < 20, "the long caption is cut")
    }

    /// Page 1 alone tells the client where they stand: the wheel, the summary table and what to work on next; the
    /// details start on page 2.
    @Test func pageOneHoldsTheSummaryAndWhatToWorkOnNext() throws {
        let pdf = try ReportPDF.render(
            ClientReport(SampleReport.input(media: try SampleReport.media()), strings: try ReportStrings(language: "en"), units: .metric)
        )
        let first = try Self.poppler("pdftotext", ["-layout", "-f", "1", "-l", "1"], pdf: pdf)
        let rows = first.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(rows.contains { $0.hasPrefix("Category Score now Since 1 Jan 2027 Holding it back") }, "\(rows)")
        #expect(rows.contains("Cardiovascular 6.5 new Resting heart rate"))
        #expect(rows.contains("Endurance 3.5 ▲ 1.5 Push-ups"))
        #expect(rows.contains("Flexibility – – –"))
        #expect(first.contains("What to work on next") && first.contains("Push-ups: your latest score is 3.5 of 10."))
        #expect(!first.contains("Latest result"), "exercise details start on page 2")
        let rest = try Self.poppler("pdftotext", ["-layout", "-f", "2"], pdf: pdf)
        #expect(rest.contains("Latest result") && rest.contains("1 video · and 2 more"))
        let images = try Self.poppler("pdfimages", ["-list"], pdf: pdf).split(separator: "\n").dropFirst(2)
        #expect(images.count >= 2, "the photo thumbnail and the video poster are painted: \(images)")
    }
}

/// A poster card's running time: `m:ss`, `h:mm:ss`, and never a trap for what a stored header says.
@Suite struct RunningTimeTests {
    @Test func runningTimesAreWrittenAndHeldToAWeek() {
        #expect(MediaThumbnail.runningTime(5) == "0:05")
        #expect(MediaThumbnail.runningTime(3_725.4) == "1:02:05")
        #expect(MediaThumbnail.runningTime(9.3e18) == "168:00:00")
        #expect(MediaThumbnail.runningTime(-4) == "0:00")
        #expect(MediaThumbnail.runningTime(.nan) == "0:00")
    }
}
