import Foundation
import HealthwheelCore
import Mustache

/// Writes a `ClientReport` as HTML that survives mail clients: one file, inline styles, table layout, no scripts
/// and no external requests. Pictures are given by `source` (data URIs on the web, `cid:` parts in email).
public enum ReportHTML {
    /// Read and parsed once; `checkTemplate()` at start-up makes a missing or broken template stop the server,
    /// not its first report.
    private static let template = Result<MustacheTemplate, any Error> {
        guard let url = Bundle.module.url(forResource: "report.html", withExtension: "mustache") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "report.html.mustache"])
        }
        return try MustacheTemplate(string: String(contentsOf: url, encoding: .utf8))
    }

    /// Loads and parses the report template, throwing why it cannot be used.
    public static func checkTemplate() throws {
        _ = try template.get()
    }

    /// `preface`: paragraphs shown above the report (an email's greeting and the trainer's message).
    public static func render(_ report: ClientReport, preface: [String] = [], source given: (ClientReport.Picture) -> String?) throws -> String {
        // Pictures go into the template unescaped ({{{…}}}), escaped here: Mustache escapes a character at a time
        // through a dictionary, which over a report's data URIs (half a megabyte) was most of an HTML report's CPU.
        func source(_ picture: ClientReport.Picture) -> String? { given(picture).map(MarkupText.escaped) }
        let colours = report.theme.colours
        let categories: [[String: Any]] = report.categories.map { category in
            [
                "name": category.name,
                "score": category.score,
                "markerColour": category.flagged ? colours.flag.description : category.colour,
                "flagged": category.flagged,
                "flagLabel": category.flagLabel,
                "weakest": present(category.weakest),
                "notMeasured": present(category.notMeasured),
                "exercises": category.exercises.map { exercise -> [String: Any] in
                    [
                        "name": exercise.name,
                        "latestLabel": report.labels.latest,
                        "latest": exercise.latest,
                        "scoreLabel": report.labels.score,
                        "score": exercise.score,
                        "arrow": exercise.arrow,
                        "change": exercise.change.isEmpty ? false : exercise.change,
                        "changeColour": colours.change(exercise.changeDirection).description,
                        "trendLabel": report.labels.trend,
                        "trend": exercise.trend.count > 1 ? present(source(.trend(exerciseId: exercise.id))) : false,
                        "hasObservations": !exercise.observations.isEmpty,
                        "observationsLabel": report.labels.observations,
                        "observations": exercise.observations.map { ["date": $0.date, "text": $0.text] },
                        "hasMedia": !exercise.media.isEmpty,
                        "photosLabel": report.labels.photos,
                        "media": exercise.media.compactMap { media -> [String: Any]? in
                            guard let src = source(.media(id: media.id)) else { return nil }
                            // Shown 96 pixels high, as wide as the picture's aspect makes it.
                            let height = 96
                            let width = max(1, height * media.width / max(media.height, 1))
                            return [
                                "src": src, "height": height, "width": width, "slot": media.caption == nil ? width : max(width, 128),
                                "alt": media.caption ?? (media.kind == .video ? "video" : "photo"),
                                "caption": media.caption ?? false,
                            ]
                        },
                        "mediaCounts": present([exercise.videos, exercise.morePhotos].filter { !$0.isEmpty }.joined(separator: " · ").nonEmpty),
                        "sourceReference": exercise.sourceReference,
                    ]
                },
            ]
        }
        let summary: [[String: Any]] = report.summary.map { row in
            [
                "name": row.name, "colour": row.colour, "now": row.now, "change": row.change, "holdingBack": row.holdingBack,
                "changeColour": colours.change(row.changeDirection).description,
                "holdingColour": row.flagged ? colours.flag.description : colours.text.description,
            ]
        }
        let context: [String: Any] = [
            "language": report.language,
            "title": report.labels.title,
            "clientName": report.clientName,
            "companyName": report.companyName,
            "preparedFor": report.labels.preparedFor,
            "period": report.labels.period,
            "generated": report.labels.generated,
            "trainer": report.labels.trainer.isEmpty ? false : report.labels.trainer,
            "ageLabel": report.labels.age,
            "age": report.labels.ageValue,
            "goalLabel": report.labels.goal,
            "goal": report.labels.goalValue,
            "wheelTitle": report.labels.wheelTitle,
            "wheelCaption": report.labels.wheelCaption,
            "wheel": source(.wheel) ?? "",
            "logo": present(source(.logo)),
            // Fitted in a 56-pixel box, as the PDF fits it in 44 points: the normalised copy keeps its aspect.
            "logoWidth": report.logo.map { max(1, 56 * $0.width / max($0.width, $0.height)) } ?? 56,
            "logoHeight": report.logo.map { max(1, 56 * $0.height / max($0.width, $0.height)) } ?? 56,
            "categories": categories,
            "summaryTitle": report.labels.summaryTitle,
            "summaryCategory": report.labels.summaryCategory,
            "summaryNow": report.labels.summaryNow,
            "summaryChange": report.labels.summaryChange,
            "summaryHoldingBack": report.labels.summaryHoldingBack,
            "summary": summary,
            "nextTitle": report.labels.nextTitle,
            "nextSteps": report.nextSteps,
            "sourcesTitle": report.labels.sourcesTitle,
            "note": report.labels.note,
            "sources": report.sources.isEmpty ? false : ["items": report.sources.enumerated().map { ["number": $0.offset + 1, "text": $0.element] }],
            "footer": present(report.footer),
            "background": colours.background.description,
            "text": colours.text.description,
            "muted": colours.muted.description,
            "tint": colours.tint.description,
            "flagColour": colours.flag.description,
            "rule": colours.muted.blended(with: colours.background, amount: 0.75).description,
            "font": report.theme.font,
            "preface": preface.isEmpty ? false : ["paragraphs": preface],
        ]
        return try template.get().render(context)
    }

    /// A text for a `{{#section}}`, or `false` so the section is left out (an absent optional would print "nil").
    private static func present(_ text: String?) -> Any {
        text ?? false
    }
}

extension String {
    /// Nil when empty, so a `{{#section}}` of it is left out.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
