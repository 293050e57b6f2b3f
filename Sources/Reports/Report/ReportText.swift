/// Writes a `ClientReport` as plain text: the part of an email that mail clients without HTML show, and what
/// screen readers and text-only previews read.
public enum ReportText {
    /// `preface`: paragraphs shown above the report (an email's greeting and the trainer's message).
    public static func render(_ report: ClientReport, preface: [String] = []) -> String {
        var lines: [String] = preface.flatMap { [$0, ""] }
        let labels = report.labels
        lines += [report.companyName, labels.title, String(repeating: "=", count: labels.title.count), ""]
        lines.append(labels.preparedFor)
        lines.append("\(labels.period) · \(labels.generated)")
        if !labels.trainer.isEmpty { lines.append(labels.trainer) }
        lines += ["\(labels.age): \(labels.ageValue)", "\(labels.goal): \(labels.goalValue)", ""]
        lines += [labels.summaryTitle, String(repeating: "-", count: labels.summaryTitle.count)]
        for row in report.summary {
            lines.append(
                "\(row.flagged ? "!" : "●") \(row.name): \(row.now) · \(labels.summaryChange): \(row.change) · \(labels.summaryHoldingBack): \(row.holdingBack)"
            )
        }
        lines += ["", labels.nextTitle, String(repeating: "-", count: labels.nextTitle.count)]
        lines += report.nextSteps.map { "- \($0)" }
        for category in report.categories {
            var heading = "\(category.name): \(category.score)"
            if category.flagged { heading += " · \(category.flagLabel)" }
            lines += ["", heading, String(repeating: "-", count: heading.count)]
            if let weakest = category.weakest { lines.append(weakest) }
            for exercise in category.exercises {
                lines.append(exercise.name)
                lines.append("  \(labels.latest): \(exercise.latest)")
                var score = "  \(labels.score): \(exercise.score)"
                if !exercise.change.isEmpty { score += " \(exercise.arrow) \(exercise.change)".replacingOccurrences(of: "  ", with: " ") }
                lines.append(score)
                if !exercise.observations.isEmpty {
                    lines.append("  \(labels.observations):")
                    lines += exercise.observations.map { "  - \($0.date): \($0.text)" }
                }
                let photos = exercise.media.filter { $0.kind == .photo }.count
                let counts = [photos > 0 ? "\(labels.photos): \(photos)" : "", exercise.videos, exercise.morePhotos].filter { !$0.isEmpty }
                if !counts.isEmpty { lines.append("  " + counts.joined(separator: " · ")) }
                lines += exercise.media.compactMap { $0.caption }.map { "  - \($0)" }
                lines.append("  \(exercise.sourceReference)")
            }
            if let notMeasured = category.notMeasured { lines.append(notMeasured) }
        }
        if !report.sources.isEmpty {
            lines += ["", labels.sourcesTitle, String(repeating: "-", count: labels.sourcesTitle.count)]
            lines += report.sources.enumerated().map { "\($0.offset + 1). \($0.element)" }
        }
        lines += ["", labels.note]
        if let footer = report.footer { lines += ["", "--", footer] }
        return lines.joined(separator: "\n") + "\n"
    }
}
