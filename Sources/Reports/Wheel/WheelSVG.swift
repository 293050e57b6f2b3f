import Foundation
import HealthwheelCore

/// Writes a `WheelFigure` as an SVG document: self-contained (no scripts, no external references), with its
/// numbers written to two decimals so that the same figure always gives the same bytes.
public enum WheelSVG {
    /// The figure as an SVG document; `title` names it for screen readers (with every slice's summary) and tooltips.
    public static func render(_ figure: WheelFigure, title: String) -> String {
        let (width, height) = (number(figure.width), number(figure.height))
        let summary = figure.slices.map(\.summary).joined(separator: "; ")
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
            role="img" aria-label="\(MarkupText.escaped(title)): \(MarkupText.escaped(summary))">
            <title>\(MarkupText.escaped(title))</title>
            <rect width="\(width)" height="\(height)" fill="\(figure.background)"/>

            """
        let (cx, cy) = (number(figure.centre.x), number(figure.centre.y))
        for radius in figure.gridRadii + [figure.rimRadius] {
            svg += "<circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"\(number(radius))\" fill=\"none\" stroke=\"\(figure.gridColour)\" "
            svg += "stroke-opacity=\"0.22\" stroke-width=\"\(number(figure.width / 512))\"/>\n"
        }
        for slice in figure.slices {
            guard let past = slice.pastRadius else { continue }
            svg += "<path d=\"\(wedge(figure.centre, slice.startAngle, slice.endAngle, past))\" fill=\"\(slice.colour)\" fill-opacity=\"0.16\"/>\n"
        }
        for slice in figure.slices {
            if let radius = slice.radius {
                svg += "<path d=\"\(wedge(figure.centre, slice.startAngle, slice.endAngle, radius))\" fill=\"\(slice.colour)\" "
                svg += "stroke=\"\(figure.background)\" stroke-width=\"\(number(figure.width / 256))\" stroke-linejoin=\"round\"/>\n"
            } else {
                svg += "<path d=\"\(wedge(figure.centre, slice.startAngle, slice.endAngle, figure.rimRadius))\" fill=\"\(slice.colour)\" "
                svg += "fill-opacity=\"0.07\" stroke=\"\(slice.colour)\" stroke-opacity=\"0.5\" stroke-width=\"\(number(figure.width / 400))\" "
                svg += "stroke-dasharray=\"\(number(figure.width / 170)) \(number(figure.width / 170))\"/>\n"
            }
        }
        // The earlier wheel's edge goes over today's slices, so a slice that grew still shows where it was.
        for slice in figure.slices {
            guard let past = slice.pastRadius else { continue }
            svg += "<path d=\"\(wedge(figure.centre, slice.startAngle, slice.endAngle, past))\" fill=\"none\" stroke=\"\(figure.outlineColour)\" "
            svg +=
                "stroke-opacity=\"0.6\" stroke-width=\"\(number(figure.width / 340))\" stroke-dasharray=\"\(number(figure.width / 128)) \(number(figure.width / 200))\"/>\n"
        }
        if let legend = figure.legend {
            let (x, y, size) = (figure.width * 0.03, figure.width * 0.05, figure.width * 0.024)
            svg +=
                "<path d=\"M\(number(x)) \(number(y - size * 0.35))h\(number(size * 1.6))\" stroke=\"\(figure.outlineColour)\" stroke-opacity=\"0.6\" "
            svg +=
                "stroke-width=\"\(number(figure.width / 340))\" stroke-dasharray=\"\(number(figure.width / 128)) \(number(figure.width / 200))\"/>\n"
            svg += text(
                legend,
                at: WheelFigure.Point(x: x + size * 2.1, y: y),
                anchor: "start",
                size: size,
                weight: "normal",
                colour: figure.gridColour,
                font: figure.font
            )
        }
        svg += "<circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"\(number(figure.hubRadius))\" fill=\"\(figure.background)\" "
        svg += "stroke=\"\(figure.gridColour)\" stroke-opacity=\"0.5\" stroke-width=\"\(number(figure.width / 512))\"/>\n"
        svg += "<circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"\(number(figure.targetRadius))\" fill=\"none\" stroke=\"\(figure.targetColour)\" "
        svg += "stroke-width=\"\(number(figure.width / 200))\" stroke-dasharray=\"\(number(figure.width / 60)) \(number(figure.width / 90))\"/>\n"
        for slice in figure.slices {
            if let marker = slice.marker {
                svg += "<circle cx=\"\(number(marker.x))\" cy=\"\(number(marker.y))\" r=\"\(number(figure.markerRadius))\" "
                svg += "fill=\"\(figure.flagColour)\"/>\n"
                svg += text(
                    "!",
                    at: WheelFigure.Point(x: marker.x, y: marker.y + figure.markerRadius * 0.55),
                    anchor: "middle",
                    size: figure.markerRadius * 1.5,
                    weight: "bold",
                    colour: figure.background,
                    font: figure.font
                )
            }
            var y = slice.labelAnchor.y
            for (index, line) in slice.lines.enumerated() {
                if index > 0 { y += line.size * 1.25 }
                svg += text(
                    line.text,
                    at: WheelFigure.Point(x: slice.labelAnchor.x, y: y),
                    anchor: anchor(slice.alignment),
                    size: line.size,
                    weight: line.bold ? "bold" : "normal",
                    colour: line.colour,
                    font: figure.font
                )
            }
        }
        return svg + "</svg>\n"
    }

    private static func anchor(_ alignment: WheelFigure.Alignment) -> String {
        switch alignment {
        case .start: "start"
        case .middle: "middle"
        case .end: "end"
        }
    }

    private static func text(
        _ content: String,
        at point: WheelFigure.Point,
        anchor: String,
        size: Double,
        weight: String,
        colour: HexColour,
        font: String
    ) -> String {
        "<text x=\"\(number(point.x))\" y=\"\(number(point.y))\" text-anchor=\"\(anchor)\" font-family=\"\(MarkupText.escaped(font)), sans-serif\" "
            + "font-size=\"\(number(size))\" font-weight=\"\(weight)\" fill=\"\(colour)\">\(MarkupText.escaped(content))</text>\n"
    }

    /// A wedge from the centre out to `radius` between two angles; a single slice is the whole disc.
    private static func wedge(_ centre: WheelFigure.Point, _ start: Double, _ end: Double, _ radius: Double) -> String {
        let r = number(radius)
        if end - start >= 2 * Double.pi - 1e-9 {
            let top = WheelFigure.point(centre, 0, radius)
            let bottom = WheelFigure.point(centre, Double.pi, radius)
            return "M\(number(top.x)) \(number(top.y))A\(r) \(r) 0 1 1 \(number(bottom.x)) \(number(bottom.y))"
                + "A\(r) \(r) 0 1 1 \(number(top.x)) \(number(top.y))Z"
        }
        let from = WheelFigure.point(centre, start, radius)
        let to = WheelFigure.point(centre, end, radius)
        let large = end - start > Double.pi ? 1 : 0
        return "M\(number(centre.x)) \(number(centre.y))L\(number(from.x)) \(number(from.y))"
            + "A\(r) \(r) 0 \(large) 1 \(number(to.x)) \(number(to.y))Z"
    }

    /// Two decimals at most, no trailing zeros, never "-0".
    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == 0 { return "0" }
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(format: "%.2f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
