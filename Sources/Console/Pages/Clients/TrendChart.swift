import Foundation
import HealthwheelCore

/// One category's trend on a client's page: each exercise's scores over the period as a line, drawn as inline
/// SVG with no style of its own (the stylesheet colours it by the category's class), and said in words for
/// those who do not see it ("Push-ups: 5 → 7").
struct TrendChart {
    var name: String
    var categoryClass: String
    /// The SVG element, built here from numbers only (its one text, the title, escaped).
    var svg: String
    var summary: String

    static let width = 320.0
    static let height = 96.0
    static let padding = 6.0

    /// A chart per category with at least one scored result in `from...to`, in wheel order.
    static func charts(
        slices: [HealthWheel.Slice],
        results: [ResultSummary],
        from: Date,
        to: Date,
        strings: ConsoleStrings,
        score: (Double) -> String
    ) -> [TrendChart] {
        let scored = results.filter { $0.score != nil }
        let byExercise = Dictionary(grouping: scored, by: \.exerciseId)
        // From the first scored result: a client of three months fills the width as one of three years.
        let from = max(from, scored.map(\.recordedAt).min() ?? from)
        let span = max(to.timeIntervalSince(from), 1)
        return slices.compactMap { slice in
            let lines = slice.exercises.enumerated().compactMap { index, exercise -> (index: Int, name: String, points: [(Double, Double)], first: Double, last: Double)? in
                guard let scored = byExercise[exercise.exerciseId]?.sorted(by: { $0.recordedAt < $1.recordedAt }), !scored.isEmpty else { return nil }
                let points = scored.map { result -> (Double, Double) in
                    let x = padding + (width - 2 * padding) * min(max(result.recordedAt.timeIntervalSince(from) / span, 0), 1)
                    let y = padding + (height - 2 * padding) * (1 - (result.score ?? 0) / 10)
                    return (x, y)
                }
                return (index, exercise.name, points, scored.first!.score!, scored.last!.score!)
            }
            guard !lines.isEmpty else { return nil }
            var svg = "<svg class=\"trend-chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\">"
            svg += "<title>\(escape(strings.text("client.trendOf", ["category": slice.name])))</title>"
            svg += "<line class=\"trend-axis\" x1=\"\(padding)\" y1=\"\(height - padding)\" x2=\"\(width - padding)\" y2=\"\(height - padding)\"/>"
            for line in lines {
                let coordinates = line.points.map { String(format: "%.1f,%.1f", $0.0, $0.1) }.joined(separator: " ")
                svg += "<polyline class=\"trend-line trend-line-\(line.index % 4)\" points=\"\(coordinates)\"/>"
                for point in line.points { svg += String(format: "<circle class=\"trend-dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"/>", point.0, point.1) }
            }
            svg += "</svg>"
            let summary = lines.map { "\($0.name): \(score($0.first)) → \(score($0.last))" }.joined(separator: "; ")
            return TrendChart(name: slice.name, categoryClass: ThemeStylesheet.categoryClass(slice.categoryId), svg: svg, summary: summary)
        }
    }

    /// Text escaped for an element's content.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
