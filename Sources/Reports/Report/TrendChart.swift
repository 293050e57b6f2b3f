import Foundation
import HealthwheelCore

/// An exercise's score over the period as a line chart: dated axis below, scores 0 to 10 up the side, the target
/// as a dashed line, each result a dot. For an exercise of several values it is the 0–10 score that is drawn, as
/// trainers asked.
public struct TrendChart: Sendable {
    /// The period's scored results, oldest first: (when measured, score 0–10). The report draws a chart from two up.
    public var points: [(date: Date, score: Double)]
    /// The left end of the date axis: the first result's date, or the period's start if later.
    public var from: Date
    /// The right end of the date axis: the period's end.
    public var to: Date
    /// The line and dots: the category's colour.
    public var colour: HexColour
    /// Background, text and target colours, and the font of the axis labels.
    public var theme: Theme
    /// Dates as the reader writes them, for the axis.
    public var dateText: @Sendable (Date) -> String

    /// Pixels: drawn at twice the size it is shown.
    public static let width = 960.0
    /// Pixels: drawn at twice the size it is shown.
    public static let height = 300.0

    /// A chart of `points` between `from` and `to`; points outside are drawn at the edge.
    public init(
        points: [(date: Date, score: Double)],
        from: Date,
        to: Date,
        colour: HexColour,
        theme: Theme,
        dateText: @escaping @Sendable (Date) -> String
    ) {
        self.points = points
        self.from = from
        self.to = to
        self.colour = colour
        self.theme = theme
        self.dateText = dateText
    }

    /// The chart as a PNG, 960 × 300 pixels (shown at half that size, sharp on high-density screens and in print).
    public func png() throws -> [UInt8] {
        let canvas = try Canvas(width: Int(Self.width), height: Int(Self.height))
        draw(on: canvas)
        return try canvas.png()
    }

    func draw(on canvas: some DrawingSurface) {
        let colours = theme.colours
        let plot = (left: 56.0, right: Self.width - 24, top: 20.0, bottom: Self.height - 48)
        let span = max(to.timeIntervalSince(from), 1)
        func x(_ date: Date) -> Double { plot.left + (plot.right - plot.left) * min(max(date.timeIntervalSince(from) / span, 0), 1) }
        func y(_ score: Double) -> Double { plot.bottom - (plot.bottom - plot.top) * min(max(score, 0), 10) / 10 }

        canvas.rectangle(x: 0, y: 0, width: Self.width, height: Self.height)
        canvas.fillPath(colours.background)
        for score in [0.0, 5, 10] {
            canvas.line(from: .init(x: plot.left, y: y(score)), to: .init(x: plot.right, y: y(score)))
            canvas.strokePath(colours.muted, alpha: score == 0 ? 0.6 : 0.2, width: 2)
            canvas.text(
                Self.scoreLabel(score),
                at: .init(x: plot.left - 12, y: y(score) + 8),
                alignment: .end,
                font: theme.font,
                size: 22,
                bold: false,
                colour: colours.muted
            )
        }
        canvas.line(from: .init(x: plot.left, y: y(HealthWheel.target)), to: .init(x: plot.right, y: y(HealthWheel.target)))
        canvas.strokePath(colours.target, width: 3, dash: [14, 10])
        for (date, alignment) in [(from, TextAlignment.start), (to, .end)] {
            canvas.text(
                dateText(date),
                at: .init(x: x(date), y: Self.height - 12),
                alignment: alignment,
                font: theme.font,
                size: 22,
                bold: false,
                colour: colours.muted
            )
        }
        let positions = points.map { WheelFigure.Point(x: x($0.date), y: y($0.score)) }
        if positions.count > 1 {
            canvas.polyline(positions)
            canvas.strokePath(colour, width: 4)
        }
        // Each dot on a ring of the background colour, so dots close together stay apart.
        canvas.dots(centres: positions, diameter: 17, font: theme.font, colour: colours.background)
        canvas.dots(centres: positions, diameter: 14, font: theme.font, colour: colour)
    }

    private static func scoreLabel(_ score: Double) -> String { String(Int(score)) }
}
