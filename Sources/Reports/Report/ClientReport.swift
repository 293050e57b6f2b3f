import Foundation
import HealthwheelCore

/// A client's progress report, worded and formatted for one reader (language and units): what the HTML template
/// and the PDF both lay out. Every text is ready to show; pictures are referred to by `Picture`, which each
/// renderer turns into its own kind of reference (a data URI on the web, a `cid:` part in email, drawn in a PDF).
public struct ClientReport: Sendable {
    /// A picture the report shows.
    public enum Picture: Sendable, Hashable {
        case logo
        case wheel
        case trend(exerciseId: String)
        /// A photo's thumbnail or a video's poster card.
        case media(id: UUID)
    }

    /// One row of the summary on page 1: a category's score now, its change over the period, what holds it back.
    public struct SummaryRow: Sendable {
        /// The category's name.
        public var name: String
        /// `#rrggbb`, as the wheel draws the category.
        public var colour: String
        /// True when the category is flagged now.
        public var flagged: Bool
        /// "6.5", or "–" without a score.
        public var now: String
        /// "▲ 1.5", "▼ 0.5", "0", "new" (no score at the period's start) or "–" (no score now).
        public var change: String
        /// 1 up, −1 down, 0 otherwise: for colouring `change`.
        public var changeDirection: Int
        /// The category's weakest exercise now, or "–".
        public var holdingBack: String
    }

    /// One category's section: its score, whether it is flagged, and its exercises.
    public struct Category: Sendable {
        /// The pack id (`strength`).
        public var id: String
        /// The pack's name, as the wheel labels it.
        public var name: String
        /// `#rrggbb`: the theme's colour for the category if it sets one, else the pack's.
        public var colour: String
        /// Worded in the report's language ("Score 6.5 of 10"), or the words for no score yet.
        public var score: String
        /// True when below the company's threshold at the period's end: the section is marked.
        public var flagged: Bool
        /// The word for "flagged" in the report's language, for the marker.
        public var flagLabel: String
        /// "Held back most by Push-ups", when an exercise is scored.
        public var weakest: String?
        /// The category's exercises measured in the period, in pack order.
        public var exercises: [ExerciseSection]
        /// "Not measured in this period: Blood pressure, YMCA 3-minute step test", or nil when every exercise was.
        public var notMeasured: String?
    }

    /// One exercise's part of a category section.
    public struct ExerciseSection: Sendable {
        /// The exercise id (`push-ups`): names its trend chart (`Picture.trend`).
        public var id: String
        /// The exercise's name from its pack.
        public var name: String
        /// The newest result's values in the reader's units and their unit ("14 stands"), with its date.
        public var latest: String
        /// The newest result's score, or the words for an unscored one.
        public var score: String
        /// "▲", "▼" or "" (no change, or one result only).
        public var arrow: String
        /// "Since 3 March: up 1.5", comparing the period's first and last scored results; the words for a first result
        /// when there is one scored result; empty without any.
        public var change: String
        /// 1 up, −1 down, 0 the same or nothing to compare: for styling `change`.
        public var changeDirection: Int
        /// Scores over the period, for the trend chart: (recordedAt, score), oldest first.
        public var trend: [(date: Date, score: Double)]
        /// The trainer's notes of the period, oldest first, each with its formatted date.
        public var observations: [(date: String, text: String)]
        /// "Norms: source 3": the number of the exercise's citation in `ClientReport.sources`.
        public var sourceReference: String
        /// The newest result's photos (at most `ReportMedia.photosShown`) and videos' poster cards, in upload order.
        public var media: [ReportMedia]
        /// "and 3 more" when the newest result has more photos than shown; empty otherwise.
        public var morePhotos: String
        /// "2 videos", or empty without videos.
        public var videos: String
    }

    /// Every fixed text the templates need, in the report's language; `ageValue` and `goalValue` are the client's.
    public struct Labels: Sendable {
        /// The header: title, "Prepared for …", the period, the date made, "By …" (empty without an assigned trainer).
        public var title, preparedFor, period, generated, trainer: String
        /// The client facts: labels, with the age in years ("–" without a birth date) and the goal (or the words for none).
        public var age, ageValue, goal, goalValue: String
        /// The wheel section's heading and the caption that explains how to read it (and its outline).
        public var wheelTitle, wheelCaption: String
        /// The summary's heading and its columns' headings.
        public var summaryTitle, summaryCategory, summaryNow, summaryChange, summaryHoldingBack: String
        /// "What to work on next".
        public var nextTitle: String
        /// Headings of each exercise section, and the flagged marker's word.
        public var latest, score, trend, observations, photos, flagged: String
        /// The heading of the numbered citations at the end.
        public var sourcesTitle: String
        /// What scores mean and that the report is not medical advice: the report's last words.
        public var note: String
    }

    /// `en` or `es`: the language every text is in (the HTML's `lang`).
    public var language: String
    /// The period's start; may be later than asked when the newest 5,000 results did not reach back further.
    public var from: Date
    /// The period's end: the wheel shows the client as they stood then.
    public var to: Date
    /// When it was made (the server's clock): the date printed in it, and the PDF's creation date.
    public var generatedAt: Date
    /// The wheel, as the report draws it.
    public var slices: [HealthWheel.Slice]
    /// The wheel at the period's start (`ReportInput.startDate`), drawn as an outline behind `slices`; nil when
    /// nothing was scored then, so there is no outline to draw.
    public var comparison: WheelFigure.Comparison?
    /// The wheel's words in the report's language.
    public var wheelWords: WheelFigure.Words
    /// The company's logo, decoded once per theme version; nil shows none.
    public var logo: ReportLogo?
    let format: ReportFormat
    /// Shown in the report's header, and the PDF's author.
    public var companyName: String
    /// The theme's `reportFooter`, printed in the footer (on every page of the PDF); nil prints none.
    public var footer: String?
    /// The company's theme: colours, font, category colours.
    public var theme: Theme
    /// "Given Family", or whichever part exists.
    public var clientName: String
    /// Fixed texts in the report's language.
    public var labels: Labels
    /// One per wheel slice, in wheel order.
    public var categories: [Category]
    /// Page 1's table: one row per category, in wheel order.
    public var summary: [SummaryRow]
    /// "What to work on next": each flagged category's weakest exercise in plain words, or one line saying none is.
    public var nextSteps: [String]
    /// The norms cited by the exercises shown, each once, numbered from 1 in order of first reference.
    public var sources: [String]

    /// Words and formats everything in `input` for one reader: `strings` decides the language, `units` the measurements.
    public init(_ input: ReportInput, strings: ReportStrings, units: Theme.Units) {
        let format = ReportFormat(strings: strings, units: units)
        self.format = format
        language = strings.language
        from = input.from
        to = input.to
        generatedAt = input.generatedAt
        slices = input.slices
        let hasOutline = input.startSlices.contains { $0.score != nil }
        comparison = hasOutline ? WheelFigure.Comparison(slices: input.startSlices, on: input.startDate, strings: strings) : nil
        wheelWords = WheelFigure.Words(strings)
        logo = input.logo
        companyName = input.companyName
        footer = input.theme.reportFooter
        theme = input.theme
        clientName = input.client.fullName
        let age = input.client.age(on: input.generatedAt)
        labels = Labels(
            title: strings.text("report.title"),
            preparedFor: strings.text("report.preparedFor", ["name": input.client.fullName]),
            period: strings.text("report.period", ["from": format.date(input.from), "to": format.date(input.to)]),
            generated: strings.text("report.generated", ["date": format.date(input.generatedAt)]),
            trainer: input.trainerName.map { strings.text("report.by", ["trainer": $0]) } ?? "",
            age: strings.text("client.age"),
            ageValue: age.map { strings.text("client.ageYears", ["years": String($0)]) } ?? "–",
            goal: strings.text("client.goal"),
            goalValue: input.client.goal ?? strings.text("client.noGoal"),
            wheelTitle: strings.text("wheel.title"),
            wheelCaption: hasOutline ? strings.text("wheel.captionCompared", ["date": format.date(input.startDate)]) : strings.text("wheel.caption"),
            summaryTitle: strings.text("summary.title"),
            summaryCategory: strings.text("summary.category"),
            summaryNow: strings.text("summary.now"),
            summaryChange: strings.text("summary.change", ["date": format.date(input.startDate)]),
            summaryHoldingBack: strings.text("summary.holdingBack"),
            nextTitle: strings.text("next.title"),
            latest: strings.text("exercise.latest"),
            score: strings.text("exercise.score"),
            trend: strings.text("exercise.trend"),
            observations: strings.text("exercise.observations"),
            photos: strings.text("exercise.photos"),
            flagged: strings.text("category.flagged"),
            sourcesTitle: strings.text("sources.title"),
            note: strings.text("report.note")
        )
        var sources: [String] = []
        func reference(_ source: String) -> Int {
            if let index = sources.firstIndex(of: source) { return index + 1 }
            sources.append(source)
            return sources.count
        }
        categories = input.slices.map { slice in
            let colour = input.theme.categoryColours[slice.categoryId]?.description ?? slice.colour
            let entries = input.exercises.filter { $0.categoryId == slice.categoryId }
            let measured = entries.filter { !$0.results.isEmpty }
            let unmeasured = entries.filter { $0.results.isEmpty }.map(\.exercise.name)
            return Category(
                id: slice.categoryId,
                name: slice.name,
                colour: colour,
                score: slice.score.map { strings.text("category.score", ["score": format.score($0)]) } ?? strings.text("wheel.noScore"),
                flagged: slice.flagged,
                flagLabel: strings.text("category.flagged"),
                weakest: slice.weakest.map { strings.text("category.weakest", ["exercise": $0.name]) },
                exercises: measured.map { Self.section($0, source: reference($0.exercise.source), format: format) },
                notMeasured: unmeasured.isEmpty ? nil : strings.text("category.notMeasured", ["exercises": unmeasured.joined(separator: ", ")])
            )
        }
        self.sources = sources
        let start = Dictionary(input.startSlices.map { ($0.categoryId, $0.score) }, uniquingKeysWith: { first, _ in first })
        summary = input.slices.map { slice in
            let colour = input.theme.categoryColours[slice.categoryId]?.description ?? slice.colour
            var (change, direction) = (strings.text("summary.none"), 0)
            if let now = slice.score {
                if let then = start[slice.categoryId] ?? nil {
                    let delta = ((now - then) * 10).rounded() / 10
                    direction = delta > 0 ? 1 : delta < 0 ? -1 : 0
                    change = direction == 0 ? format.score(0) : (direction > 0 ? "▲ " : "▼ ") + format.score(abs(delta))
                } else {
                    change = strings.text("summary.new")
                }
            }
            return SummaryRow(
                name: slice.name,
                colour: colour,
                flagged: slice.flagged,
                now: slice.score.map(format.score) ?? strings.text("summary.none"),
                change: change,
                changeDirection: direction,
                holdingBack: slice.weakest?.name ?? strings.text("summary.none")
            )
        }
        let flagged = input.slices.filter(\.flagged).compactMap { slice -> String? in
            guard let weakest = slice.weakest, let score = weakest.score else { return nil }
            return strings.text(
                "next.item",
                ["exercise": weakest.name, "category": slice.name, "score": format.score(score), "threshold": format.score(input.flagBelow)]
            )
        }
        nextSteps = flagged.isEmpty ? [strings.text("next.none")] : flagged
    }

    /// "Page 2 of 5" in the report's language.
    func pageLabel(page: Int, of pages: Int) -> String {
        format.strings.text("footer.page", ["page": String(page), "pages": String(pages)])
    }

    /// Every picture the report shows, drawn: the logo's normalised copy, the wheel, a trend chart for each exercise
    /// scored more than once in the period, and the newest results' photo thumbnails and video posters. Each is a PNG.
    public func pictures() throws -> [Picture: [UInt8]] {
        var pictures: [Picture: [UInt8]] = [.wheel: try WheelPNG.render(wheelFigure(width: 1120))]
        if let logo { pictures[.logo] = logo.png }
        for category in categories {
            for exercise in category.exercises {
                if let chart = trendChart(exercise, in: category) { pictures[.trend(exerciseId: exercise.id)] = try chart.png() }
                for media in exercise.media { pictures[.media(id: media.id)] = media.png }
            }
        }
        return pictures
    }

    /// The report's wheel, with the period's start as its outline.
    func wheelFigure(width: Double) -> WheelFigure {
        WheelFigure(slices: slices, theme: theme, width: width, words: wheelWords, compared: comparison)
    }

    /// The chart of an exercise's score over the period, when it was scored more than once. Its axis starts at
    /// the first result, not the period's start: a few weeks of results in a year's report would otherwise crowd
    /// into the chart's last pixels.
    func trendChart(_ exercise: ExerciseSection, in category: Category) -> TrendChart? {
        guard exercise.trend.count > 1 else { return nil }
        let format = self.format
        return TrendChart(
            points: exercise.trend,
            from: max(from, exercise.trend[0].date),
            to: to,
            colour: HexColour(category.colour) ?? theme.colours.tint,
            theme: theme,
            dateText: { format.date($0) }
        )
    }

    private static func section(_ entry: ReportInput.ExerciseResults, source: Int, format: ReportFormat) -> ExerciseSection {
        let strings = format.strings
        let results = entry.results
        let scored = results.filter { $0.score != nil }
        let latest = results.last
        var arrow = ""
        var change = ""
        var direction = 0
        if let first = scored.first, let last = scored.last, first.id != last.id, let from = first.score, let to = last.score {
            let delta = ((to - from) * 10).rounded() / 10
            direction = delta > 0 ? 1 : delta < 0 ? -1 : 0
            arrow = direction > 0 ? "▲" : direction < 0 ? "▼" : ""
            let since = strings.text("exercise.change", ["date": format.date(first.recordedAt)])
            let amount =
                direction == 0
                ? strings.text("exercise.same")
                : strings.text(direction > 0 ? "exercise.up" : "exercise.down", ["delta": format.score(abs(delta))])
            change = "\(since): \(amount)"
        } else if scored.count == 1 {
            change = strings.text("exercise.firstInPeriod")
        }
        let videos = entry.media.filter { $0.kind == .video }.count
        return ExerciseSection(
            id: entry.exercise.id,
            name: entry.exercise.name,
            latest: latest.map { format.values($0.values, of: entry.exercise) + " · " + format.date($0.recordedAt) } ?? "",
            score: latest.map { $0.score.map(format.score) ?? strings.text("exercise.unscored") } ?? "",
            arrow: arrow,
            change: change,
            changeDirection: direction,
            trend: scored.map { ($0.recordedAt, $0.score!) },
            observations: results.compactMap { result in
                result.observations.map { (format.date(result.recordedAt), $0) }
            },
            sourceReference: strings.text("exercise.sourceRef", ["number": String(source)]),
            media: entry.media,
            morePhotos: entry.morePhotos > 0 ? strings.text("exercise.morePhotos", ["count": String(entry.morePhotos)]) : "",
            videos: videos == 0
                ? "" : videos == 1 ? strings.text("exercise.videos.one") : strings.text("exercise.videos.other", ["count": String(videos)])
        )
    }
}
