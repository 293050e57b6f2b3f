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
        lines += [labels.wheelTitle, String(repeating: "-", count: labels.wheelTitle.count)]
        for category in report.categories {
            var line = "\(category.flagged ? "!" : "●") \(category.name): \(category.score)"
            if category.flagged { line += " · \(category.flagLabel)" }
            if let weakest = category.weakest { line += " · \(weakest)" }
            lines.append(line)
        }
        for category in report.categories {
            lines += ["", category.name, String(repeating: "-", count: category.name.count)]
            for exercise in category.exercises {
                lines.append(exercise.name)
                if exercise.hasResults {
                    lines.append("  \(labels.latest): \(exercise.latest)")
                    var score = "  \(labels.score): \(exercise.score)"
                    if !exercise.change.isEmpty { score += " \(exercise.arrow) \(exercise.change)".replacingOccurrences(of: "  ", with: " ") }
                    lines.append(score)
                    if !exercise.observations.isEmpty {
                        lines.append("  \(labels.observations):")
                        lines += exercise.observations.map { "  - \($0.date): \($0.text)" }
                    }
                } else {
                    lines.append("  \(labels.noResults)")
                }
                lines.append("  \(exercise.source)")
            }
        }
        if let footer = report.footer { lines += ["", "--", footer] }
        return lines.joined(separator: "\n") + "\n"
    }
}
