import Foundation
import HealthwheelCore

/// The health wheel laid out for drawing, once, for every renderer (SVG text, cairo PNG and PDF): a polar-area
/// chart with one slice per category at equal angles, each reaching out in proportion to its score out of 10, a
/// dashed ring at the target, labels outside, a marker on flagged categories.
///
/// Coordinates are in pixels from the top-left of a 4:3 picture `width` wide (landscape leaves the labels beside
/// the wheel room for names like "Cardiovascular"); angles are radians clockwise from twelve o'clock. Everything
/// is computed from the input alone, so the same wheel always draws the same picture.
public struct WheelFigure: Sendable, Equatable {
    /// Pixels from the picture's top-left corner, y growing downwards.
    public struct Point: Sendable, Equatable {
        /// Pixels from the left edge.
        public var x: Double
        /// Pixels from the top edge (downwards).
        public var y: Double
    }

    /// How a label's lines sit against their anchor: `start` right of it (slices on the right), `end` left of it, `middle`
    /// centred (slices near twelve and six o'clock).
    public enum Alignment: Sendable, Equatable {
        case start, middle, end
    }

    /// One line of a label.
    public struct Line: Sendable, Equatable {
        /// What the line says: the category's name, its score ("6.5", "no score yet"), or a flagged slice's weakest exercise.
        public var text: String
        /// Font size in pixels.
        public var size: Double
        /// Category names are bold; scores and the weakest exercise are not.
        public var bold: Bool
        /// Text colour for names, muted for scores, the flag colour for the weakest exercise.
        public var colour: HexColour
    }

    /// One category's wedge and label, in wheel order.
    public struct Slice: Sendable, Equatable {
        /// The pack id (`cardiovascular`), for renderers that tag or link a slice.
        public var categoryId: String
        /// Radians clockwise from twelve o'clock; slices are equal, each `2π / count` wide.
        public var startAngle: Double
        /// Radians clockwise from twelve o'clock: the next slice's start.
        public var endAngle: Double
        /// How far the filled wedge reaches; nil when the category has no score (drawn as a faint outline).
        public var radius: Double?
        /// How far the slice reached on the date compared with (`compared`); nil when not comparing or unscored then.
        public var pastRadius: Double?
        /// The theme's category colour if it sets one, else the pack's, else the theme's tint.
        public var colour: HexColour
        /// True when the score is below the company's threshold: the slice gets a marker and names its weakest exercise.
        public var flagged: Bool
        /// The flag marker's centre, on flagged slices.
        public var marker: Point?
        /// Where the label's first line sits (its baseline), and how its lines align to it.
        public var labelAnchor: Point
        /// How `lines` align to `labelAnchor`.
        public var alignment: Alignment
        /// The label, top to bottom: name, score, and for a flagged slice its weakest exercise; long ones break in two.
        public var lines: [Line]
        /// The slice in words, for readers who cannot see it: "Endurance 3, flagged: Push-ups".
        public var summary: String
    }

    /// Pixels: as asked (256–2048 for wheel pictures, 1120 in reports).
    public var width: Double
    /// Pixels: three quarters of `width`, rounded.
    public var height: Double
    /// The wheel's centre: the middle of the picture.
    public var centre: Point
    /// The small hub in the middle; scores are measured from its edge, so it never hides a low score.
    public var hubRadius: Double
    /// Score 10.
    public var rimRadius: Double
    /// The dashed target ring.
    public var targetRadius: Double
    /// Faint rings at 2, 4, 6 and 8 to read scores by.
    public var gridRadii: [Double]
    /// One per category, in wheel order; empty when the company sees no packs.
    public var slices: [Slice]
    /// The theme's background, filling the picture.
    public var background: HexColour
    /// The theme's muted colour, for the score rings.
    public var gridColour: HexColour
    /// The theme's target colour, for the dashed ring at `HealthWheel.target`.
    public var targetColour: HexColour
    /// The theme's flag colour, for markers and the weakest exercise's name.
    public var flagColour: HexColour
    /// The theme's font family (one of `Theme.fonts`), for every label.
    public var font: String
    /// Pixels: 1.6 % of `width`.
    public var markerRadius: Double
    /// The theme's text colour, for the outline of the wheel compared with.
    public var outlineColour: HexColour
    /// "Outline: the wheel on 3 Mar 2026", written at the top left when comparing; nil otherwise.
    public var legend: String?

    /// The words a wheel shows besides the packs' names, in one language.
    public struct Words: Sendable {
        /// For a slice without a score: "no score yet".
        public var noScore: String
        /// Said of a flagged slice to readers who cannot see the marker: "needs attention".
        public var flagged: String
        /// "." or ",": how the reader writes a score's decimal ("6,5").
        public var decimalSeparator: String

        /// The words in `strings`' language.
        public init(_ strings: ReportStrings) {
            noScore = strings.text("wheel.noScore")
            flagged = strings.text("category.flagged").lowercased()
            decimalSeparator = Locale(identifier: strings.text("locale")).decimalSeparator ?? "."
        }

        init(noScore: String, flagged: String) {
            self.noScore = noScore
            self.flagged = flagged
            decimalSeparator = "."
        }

        /// English, for figures drawn without a reader's language (tests).
        public static let english = Words(noScore: "no score yet", flagged: "flagged")

        /// "6.5", "7" (or "6,5"): scores are kept to one decimal.
        func score(_ score: Double) -> String {
            WheelFigure.scoreText(score).replacingOccurrences(of: ".", with: decimalSeparator)
        }
    }

    /// The wheel as it stood on an earlier date, drawn as a faint outline behind (and a dashed edge over) today's slices.
    public struct Comparison: Sendable {
        /// That wheel's slices; matched to today's by category id.
        public var slices: [HealthWheel.Slice]
        /// The legend, naming the date ("Outline: 3 Mar 2026").
        public var legend: String

        /// `slices` as they stood on `date`, with a legend naming it in `strings`' language.
        public init(slices: [HealthWheel.Slice], on date: Date, strings: ReportStrings) {
            self.slices = slices
            legend = strings.text("wheel.compared", ["date": ReportFormat(strings: strings, units: .metric).date(date)])
        }
    }

    /// Lays out `slices` (in wheel order) in a picture `width` pixels wide, coloured by `theme` (whose category
    /// colours override the packs'), worded with `words`; `compared` adds the outline of an earlier wheel.
    public init(slices: [HealthWheel.Slice], theme: Theme, width size: Double, words: Words = .english, compared: Comparison? = nil) {
        width = size
        height = (size * 3 / 4).rounded()
        centre = Point(x: size / 2, y: height / 2)
        rimRadius = height * 0.255
        hubRadius = rimRadius * 0.06
        targetRadius = hubRadius + (rimRadius - hubRadius) * HealthWheel.target / 10
        gridRadii = [2.0, 4, 6, 8].map { [hubRadius, rimRadius] in hubRadius + (rimRadius - hubRadius) * $0 / 10 }
        background = theme.colours.background
        gridColour = theme.colours.muted
        targetColour = theme.colours.target
        flagColour = theme.colours.flag
        font = theme.font
        markerRadius = size * 0.016
        outlineColour = theme.colours.text
        legend = compared?.legend
        let past = Dictionary((compared?.slices ?? []).map { ($0.categoryId, $0.score) }, uniquingKeysWith: { first, _ in first })

        let step = slices.isEmpty ? 0 : 2 * Double.pi / Double(slices.count)
        let (centre, hub, rim, markerRadius) = (centre, hubRadius, rimRadius, markerRadius)
        let margin = size * 0.02
        self.slices = slices.enumerated().map { index, slice in
            let start = Double(index) * step
            let middle = start + step / 2
            let colour = theme.categoryColours[slice.categoryId] ?? HexColour(slice.colour) ?? theme.colours.tint
            let marker = slice.flagged ? Self.point(centre, middle, rim + markerRadius * 1.9) : nil
            var anchor = Self.point(centre, middle, rim + markerRadius * 3.8)
            let horizontal = sin(middle)
            let alignment: Alignment = abs(horizontal) < 0.2 ? .middle : horizontal > 0 ? .start : .end
            let room: Double =
                switch alignment {
                case .start: size - margin - anchor.x
                case .end: anchor.x - margin
                case .middle: 2 * min(anchor.x, size - anchor.x) - 2 * margin
                }
            var lines = Self.fitted(slice.name, size: size * 0.032, bold: true, colour: theme.colours.text, room: room)
            lines += Self.fitted(
                slice.score.map(words.score) ?? words.noScore,
                size: size * 0.028,
                bold: false,
                colour: theme.colours.muted,
                room: room
            )
            if slice.flagged, let weakest = slice.weakest {
                lines += Self.fitted(weakest.name, size: size * 0.025, bold: false, colour: theme.colours.flag, room: room)
            }
            // Labels above the wheel grow upwards, those below downwards; beside it, they centre on the anchor.
            let block = lines.dropFirst().reduce(lines[0].size) { $0 + $1.size * 1.25 }
            let vertical = -cos(middle)
            anchor.y += vertical < -0.2 ? -(block - lines[0].size) : vertical > 0.2 ? lines[0].size : lines[0].size - block / 2
            return Slice(
                categoryId: slice.categoryId,
                startAngle: start,
                endAngle: start + step,
                radius: slice.score.map { Self.radius(of: $0, hub: hub, rim: rim) },
                pastRadius: (past[slice.categoryId] ?? nil).map { Self.radius(of: $0, hub: hub, rim: rim) },
                colour: colour,
                flagged: slice.flagged,
                marker: marker,
                labelAnchor: Point(x: anchor.x.rounded(toPlaces: 2), y: anchor.y.rounded(toPlaces: 2)),
                alignment: alignment,
                lines: lines,
                summary: "\(slice.name) \(slice.score.map(words.score) ?? words.noScore)"
                    + (slice.flagged ? ", \(words.flagged)" + (slice.weakest.map { ": \($0.name)" } ?? "") : "")
            )
        }
    }

    /// A score's distance from the centre: scores are measured from the hub's edge.
    static func radius(of score: Double, hub: Double, rim: Double) -> Double {
        hub + (rim - hub) * min(max(score, 0), 10) / 10
    }

    /// `text` as one line, or two broken at the space nearest its middle, at a size that fits `room` pixels
    /// (by DejaVu's average advance, which errs wide), never below 60 % of `size`. Short words stay whole.
    static func fitted(_ text: String, size: Double, bold: Bool, colour: HexColour, room: Double) -> [Line] {
        let advance = bold ? 0.62 : 0.56
        func width(_ text: String, _ size: Double) -> Double { Double(text.count) * size * advance }
        var parts = [text]
        if width(text, size) > room, text.count > 12, let space = Self.middleSpace(of: text) {
            parts = [String(text[..<space]), String(text[text.index(after: space)...])]
        }
        let widest = parts.map { width($0, size) }.max() ?? 0
        let fittedSize = (widest > room ? max(size * room / widest, size * 0.6) : size).rounded(toPlaces: 2)
        return parts.map { Line(text: $0, size: fittedSize, bold: bold, colour: colour) }
    }

    private static func middleSpace(of text: String) -> String.Index? {
        let middle = text.count / 2
        return text.indices.filter { text[$0] == " " }.min {
            abs(text.distance(from: text.startIndex, to: $0) - middle) < abs(text.distance(from: text.startIndex, to: $1) - middle)
        }
    }

    /// The point at `radius` from `centre` in direction `angle`.
    public static func point(_ centre: Point, _ angle: Double, _ radius: Double) -> Point {
        Point(x: centre.x + radius * sin(angle), y: centre.y - radius * cos(angle))
    }

    /// "6.5", "7": scores are kept to one decimal.
    static func scoreText(_ score: Double) -> String {
        let rounded = (score * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}
