import Foundation
import HealthwheelCore
import Reports
import Services

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
    /// A line of more results than this shows only its last one as a dot.
    static let dottedResults = 24

    /// A chart per category with at least one scored result among `trends` (each exercise's scores, oldest first),
    /// in wheel order, from the first score to `to`.
    static func charts(
        slices: [HealthWheel.Slice],
        trends: [String: [ClientOverview.TrendPoint]],
        to: Date,
        strings: ConsoleStrings,
        score: (Double) -> String
    ) -> [TrendChart] {
        // From the first score: a client of three months fills the width as one of three years.
        let from = trends.values.compactMap(\.first?.recordedAt).min() ?? to
        let span = max(to.timeIntervalSince(from), 1)
        return slices.compactMap { slice in
            let lines = slice.exercises.enumerated().compactMap {
                index,
                exercise -> (index: Int, name: String, points: [(Double, Double)], first: Double, last: Double)? in
                guard let scored = trends[exercise.exerciseId], let first = scored.first, let last = scored.last else { return nil }
                var points: [(Double, Double)] = []
                for point in scored {
                    let x = padding + (width - 2 * padding) * min(max(point.recordedAt.timeIntervalSince(from) / span, 0), 1)
                    let y = padding + (height - 2 * padding) * (1 - point.score / 10)
                    // Results closer than a pixel apart draw as one: the newest of them.
                    if let previous = points.last, x - previous.0 < 1 { points[points.count - 1] = (x, y) } else { points.append((x, y)) }
                }
                return (index, exercise.name, points, first.score, last.score)
            }
            guard !lines.isEmpty else { return nil }
            var svg = "<svg class=\"trend-chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\">"
            svg += "<title>\(MarkupText.escaped(strings.text("client.trendOf", ["category": slice.name])))</title>"
            svg += "<line class=\"trend-axis\" x1=\"\(padding)\" y1=\"\(height - padding)\" x2=\"\(width - padding)\" y2=\"\(height - padding)\"/>"
            for line in lines {
                let coordinates = line.points.map { "\(tenths($0.0)),\(tenths($0.1))" }.joined(separator: " ")
                svg += "<polyline class=\"trend-line trend-line-\(line.index % 4)\" points=\"\(coordinates)\"/>"
                // A dot per result while they can be told apart; past that the line says it, and the last dot
                // marks where it stands.
                for point in line.points.count <= Self.dottedResults ? line.points[...] : line.points.suffix(1) {
                    svg += "<circle class=\"trend-dot\" cx=\"\(tenths(point.0))\" cy=\"\(tenths(point.1))\" r=\"2.5\"/>"
                }
            }
            svg += "</svg>"
            let summary = lines.map { "\($0.name): \(score($0.first)) → \(score($0.last))" }.joined(separator: "; ")
            return TrendChart(name: slice.name, categoryClass: ThemeStylesheet.categoryClass(slice.categoryId), svg: svg, summary: summary)
        }
    }

    /// A coordinate (0 to a few hundred) to a tenth, as SVG reads it: `12.3`.
    static func tenths(_ value: Double) -> String {
        let scaled = Int((value * 10).rounded())
        return "\(scaled / 10).\(scaled % 10)"
    }
}
