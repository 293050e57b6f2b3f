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
    public static func render(_ report: ClientReport, preface: [String] = [], source: (ClientReport.Picture) -> String?) throws -> String {
        let colours = report.theme.colours
        let categories: [[String: Any]] = report.categories.map { category in
            [
                "name": category.name,
                "score": category.score,
                "markerColour": category.flagged ? colours.flag.description : category.colour,
                "flagged": category.flagged,
                "flagLabel": category.flagLabel,
                "weakest": present(category.weakest),
                "exercises": category.exercises.map { exercise -> [String: Any] in
                    [
                        "name": exercise.name,
                        "hasResults": exercise.hasResults,
                        "latestLabel": report.labels.latest,
                        "latest": exercise.latest,
                        "scoreLabel": report.labels.score,
                        "score": exercise.score,
                        "arrow": exercise.arrow,
                        "change": exercise.change.isEmpty ? false : exercise.change,
                        "changeColour": exercise.changeDirection < 0 ? colours.flag.description : colours.target.description,
                        "trendLabel": report.labels.trend,
                        "trend": exercise.trend.count > 1 ? present(source(.trend(exerciseId: exercise.id))) : false,
                        "hasObservations": !exercise.observations.isEmpty,
                        "observationsLabel": report.labels.observations,
                        "observations": exercise.observations.map { ["date": $0.date, "text": $0.text] },
                        "noResults": report.labels.noResults,
                        "source": exercise.source,
                    ]
                },
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
