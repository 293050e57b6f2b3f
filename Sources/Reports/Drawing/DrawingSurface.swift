import HealthwheelCore

/// Where text is placed relative to the point it is drawn at.
enum TextAlignment {
    case start, middle, end
}

/// What the wheel, the trend charts and the report draw with, y pointing down, in points or pixels: a cairo
/// `Canvas` (pictures) or a `PDFCanvas` (the report's pages). A path is begun by `rectangle`, `circle`, `polyline`
/// or `wedge`, and painted by `fillPath` and `strokePath`.
protocol DrawingSurface: AnyObject {
    /// Draws with the origin moved to `x`, `y` and lengths multiplied by `scale`.
    func drawing(at x: Double, _ y: Double, scale: Double, _ draw: () -> Void)
    /// How far `text` advances at this font and size.
    func textWidth(_ text: String, font: String, size: Double, bold: Bool) -> Double
    func rectangle(x: Double, y: Double, width: Double, height: Double)
    func circle(centre: WheelFigure.Point, radius: Double)
    /// An open path through `points`.
    func polyline(_ points: [WheelFigure.Point])
    /// A wedge from `centre` out to `radius`, between two angles clockwise from twelve o'clock.
    func wedge(centre: WheelFigure.Point, radius: Double, from start: Double, to end: Double)
    func fillPath(_ colour: HexColour, alpha: Double, keepingPath: Bool)
    func strokePath(_ colour: HexColour, alpha: Double, width: Double, dash: [Double])
    /// One line of text with its baseline at `point`, aligned to it as `alignment` says.
    func text(_ text: String, at point: WheelFigure.Point, alignment: TextAlignment, font: String, size: Double, bold: Bool, colour: HexColour)
    /// A round dot of `diameter` at each centre, drawn as the font's "●" glyph in one run of text: in a PDF a few
    /// bytes a dot, where filled arcs cost several times more to write and to draw.
    func dots(centres: [WheelFigure.Point], diameter: Double, font: String, colour: HexColour)
    /// Paints `bitmap` scaled to `width` wide, top-left at `x`, `y`.
    func image(_ bitmap: Bitmap, x: Double, y: Double, width: Double)
}

extension DrawingSurface {
    func line(from start: WheelFigure.Point, to end: WheelFigure.Point) {
        polyline([start, end])
    }

    func fillPath(_ colour: HexColour, alpha: Double = 1) {
        fillPath(colour, alpha: alpha, keepingPath: false)
    }

    func fillPath(_ colour: HexColour, keepingPath: Bool) {
        fillPath(colour, alpha: 1, keepingPath: keepingPath)
    }

    func strokePath(_ colour: HexColour, alpha: Double = 1, width: Double) {
        strokePath(colour, alpha: alpha, width: width, dash: [])
    }

    func strokePath(_ colour: HexColour, width: Double, dash: [Double]) {
        strokePath(colour, alpha: 1, width: width, dash: dash)
    }
}
