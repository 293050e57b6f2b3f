import Foundation
import HealthwheelCore

/// Draws a `WheelFigure` with cairo as a PNG, the same picture `WheelSVG` writes.
public enum WheelPNG {
    /// The figure as PNG bytes at its own size, drawn with cairo; blocks for milliseconds, so callers use a drawing
    /// thread (`PictureQueue`). Throws when cairo cannot make the surface or the PNG.
    public static func render(_ figure: WheelFigure) throws -> [UInt8] {
        let canvas = try Canvas(width: Int(figure.width), height: Int(figure.height))
        draw(figure, on: canvas)
        return try canvas.png()
    }

    static func draw(_ figure: WheelFigure, on canvas: some DrawingSurface) {
        let unit = figure.width / 512
        canvas.rectangle(x: 0, y: 0, width: figure.width, height: figure.height)
        canvas.fillPath(figure.background)
        for radius in figure.gridRadii + [figure.rimRadius] {
            canvas.circle(centre: figure.centre, radius: radius)
            canvas.strokePath(figure.gridColour, alpha: 0.22, width: unit)
        }
        for slice in figure.slices {
            guard let past = slice.pastRadius else { continue }
            canvas.wedge(centre: figure.centre, radius: past, from: slice.startAngle, to: slice.endAngle)
            canvas.fillPath(slice.colour, alpha: 0.16)
        }
        for slice in figure.slices {
            if let radius = slice.radius {
                canvas.wedge(centre: figure.centre, radius: radius, from: slice.startAngle, to: slice.endAngle)
                canvas.fillPath(slice.colour, keepingPath: true)
                canvas.strokePath(figure.background, width: unit * 2)
            } else {
                canvas.wedge(centre: figure.centre, radius: figure.rimRadius, from: slice.startAngle, to: slice.endAngle)
                canvas.fillPath(slice.colour, alpha: 0.07, keepingPath: true)
                canvas.strokePath(slice.colour, alpha: 0.5, width: unit * 1.28, dash: [unit * 3, unit * 3])
            }
        }
        // The earlier wheel's edge goes over today's slices, so a slice that grew still shows where it was.
        let dash = [figure.width / 128, figure.width / 200]
        for slice in figure.slices {
            guard let past = slice.pastRadius else { continue }
            canvas.wedge(centre: figure.centre, radius: past, from: slice.startAngle, to: slice.endAngle)
            canvas.strokePath(figure.outlineColour, alpha: 0.6, width: figure.width / 340, dash: dash)
        }
        if let legend = figure.legend {
            let (x, y, size) = (figure.width * 0.03, figure.width * 0.05, figure.width * 0.024)
            canvas.line(from: .init(x: x, y: y - size * 0.35), to: .init(x: x + size * 1.6, y: y - size * 0.35))
            canvas.strokePath(figure.outlineColour, alpha: 0.6, width: figure.width / 340, dash: dash)
            canvas.text(
                legend,
                at: .init(x: x + size * 2.1, y: y),
                alignment: .start,
                font: figure.font,
                size: size,
                bold: false,
                colour: figure.gridColour
            )
        }
        canvas.circle(centre: figure.centre, radius: figure.hubRadius)
        canvas.fillPath(figure.background, keepingPath: true)
        canvas.strokePath(figure.gridColour, alpha: 0.5, width: unit)
        canvas.circle(centre: figure.centre, radius: figure.targetRadius)
        canvas.strokePath(figure.targetColour, width: unit * 2.56, dash: [unit * 8.53, unit * 5.69])
        for slice in figure.slices {
            if let marker = slice.marker {
                canvas.circle(centre: marker, radius: figure.markerRadius)
                canvas.fillPath(figure.flagColour)
                canvas.text(
                    "!",
                    at: WheelFigure.Point(x: marker.x, y: marker.y + figure.markerRadius * 0.55),
                    alignment: .middle,
                    font: figure.font,
                    size: figure.markerRadius * 1.5,
                    bold: true,
                    colour: figure.background
                )
            }
            var y = slice.labelAnchor.y
            for (index, line) in slice.lines.enumerated() {
                if index > 0 { y += line.size * 1.25 }
                canvas.text(
                    line.text,
                    at: WheelFigure.Point(x: slice.labelAnchor.x, y: y),
                    alignment: alignment(slice.alignment),
                    font: figure.font,
                    size: line.size,
                    bold: line.bold,
                    colour: line.colour
                )
            }
        }
    }

    private static func alignment(_ alignment: WheelFigure.Alignment) -> TextAlignment {
        switch alignment {
        case .start: .start
        case .middle: .middle
        case .end: .end
        }
    }
}
