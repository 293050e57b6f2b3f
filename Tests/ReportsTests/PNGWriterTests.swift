import HealthwheelCore
import Testing

@testable import Reports

/// Our PNG writer against cairo's PNG reader: what it reads back is what was drawn.
@Suite struct PNGWriterTests {
    /// Draws a white page with a red disc and a half-transparent blue bar over it, transparent where `clear`.
    static func drawing(clear: Bool) throws -> Canvas {
        let canvas = try Canvas(width: 64, height: 48)
        if !clear {
            canvas.rectangle(x: 0, y: 0, width: 64, height: 48)
            canvas.fillPath(HexColour("#ffffff")!)
        }
        canvas.circle(centre: .init(x: 24, y: 24), radius: 18)
        canvas.fillPath(HexColour("#d0312d")!)
        canvas.rectangle(x: 8, y: 30, width: 50, height: 10)
        canvas.fillPath(HexColour("#1f5fbf")!, alpha: 0.5)
        return canvas
    }

    @Test(arguments: [false, true])
    func whatCairoReadsBackIsWhatWasDrawn(clear: Bool) throws {
        let canvas = try Self.drawing(clear: clear)
        let drawn = canvas.bitmap()
        let png = try canvas.png()
        // An opaque picture is written as RGB (colour type 2), one with transparency as RGBA (6).
        #expect(png[25] == (clear ? 6 : 2))
        let read = try Canvas.picture(png: png, limit: .logo, fittingWithin: 64).bitmap()
        #expect(read.width == drawn.width && read.height == drawn.height && read.stride == drawn.stride)
        // Premultiplied to straight and back rounds a half-transparent pixel's colour by at most one step.
        let largest = zip(read.pixels, drawn.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= 1)
        #expect(read.pixels != Array(repeating: 0, count: read.pixels.count))
        if !clear { #expect(read.pixels == drawn.pixels, "opaque pixels come back exactly") }
    }
}
