import CCairo
import Foundation
import HealthwheelCore

/// Pixels as cairo keeps them (premultiplied ARGB in native byte order, rows `stride` bytes apart): a decoded
/// picture kept to draw again and again without decoding it again.
public struct Bitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next (cairo's ARGB32 stride for `width`).
    public let stride: Int
    /// Premultiplied ARGB32 in native byte order, `stride` × `height` bytes.
    public let pixels: [UInt8]
    /// The same picture as a JPEG, when there is one: a PDF embeds it as it is instead of compressing the pixels
    /// again for every document (a photo's pixels deflate slowly and badly).
    public var jpeg: [UInt8]? = nil

    /// Pixels as a media worker sent them; drawing them checks their size against cairo's stride first.
    public init(width: Int, height: Int, stride: Int, pixels: [UInt8], jpeg: [UInt8]? = nil) {
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
        self.jpeg = jpeg
    }
}

/// The one Swift wrapper around cairo: an image surface and its drawing context, with the few operations the wheel,
/// the trend charts and thumbnails draw with, and PNG reading and writing. Not shared between threads: each
/// picture gets its own canvas. (The report's PDF is written by `PDFCanvas`.)
final class Canvas: DrawingSurface {
    enum Failure: Error, CustomStringConvertible {
        case cairo(String)
        var description: String {
            switch self {
            case .cairo(let status): "cairo: \(status)"
            }
        }
    }

    private let surface: OpaquePointer
    private let context: OpaquePointer

    /// An image of `width` × `height` pixels (premultiplied ARGB).
    init(width: Int, height: Int) throws {
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        context = cairo_create(surface)
        try check(cairo_status(context))
    }

    func drawing(at x: Double, _ y: Double, scale: Double, _ draw: () -> Void) {
        cairo_save(context)
        cairo_translate(context, x, y)
        cairo_scale(context, scale, scale)
        draw()
        cairo_restore(context)
    }

    func textWidth(_ text: String, font: String, size: Double, bold: Bool) -> Double {
        cairo_select_font_face(context, font, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        return extents.x_advance
    }

    func rectangle(x: Double, y: Double, width: Double, height: Double) {
        cairo_new_path(context)
        cairo_rectangle(context, x, y, width, height)
    }

    /// A picture decoded from PNG bytes and scaled down to fit `side` × `side` pixels, keeping its aspect (never
    /// enlarged). The header is measured against `limit` first (`PictureLimit`): cairo allocates width × height
    /// × 4 bytes from it before reading a row, so no PNG reaches cairo unmeasured. Heavy: a tenant's PNG is decoded
    /// in a media worker, the server's own (a poster card) on `PictureQueue`, never on a request's thread.
    static func picture(png bytes: [UInt8], limit: PictureLimit, fittingWithin side: Int) throws -> Canvas {
        let header = try limit.header(of: bytes)
        guard header.format == .png else { throw PictureProblem("is not a PNG image") }
        let source = PNGSource(bytes)
        let reading = cairo_image_surface_create_from_png_stream(
            { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                return Unmanaged<PNGSource>.fromOpaque(closure).takeUnretainedValue().read(into: data, count: Int(length))
                    ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
            },
            Unmanaged.passUnretained(source).toOpaque()
        )
        defer { cairo_surface_destroy(reading) }
        guard let decoded = reading else { throw PictureProblem("is a PNG that does not decode") }
        let (width, height) = (Int(cairo_image_surface_get_width(decoded)), Int(cairo_image_surface_get_height(decoded)))
        // cairo reads the same IHDR; anything else means its reader and ours disagree, and the picture is refused.
        guard cairo_surface_status(decoded) == CAIRO_STATUS_SUCCESS, width == header.width, height == header.height else {
            throw PictureProblem("is a PNG that does not decode")
        }
        return try fitting(decoded, width: width, height: height, within: side)
    }

    /// This image canvas's picture scaled down to fit `side` × `side` pixels (aspect kept, never enlarged), as a
    /// new image canvas.
    func fitted(within side: Int) throws -> Canvas {
        cairo_surface_flush(surface)
        return try Self.fitting(surface, width: pixelSize.width, height: pixelSize.height, within: side)
    }

    private static func fitting(_ source: OpaquePointer, width: Int, height: Int, within side: Int) throws -> Canvas {
        let scale = min(1, Double(side) / Double(max(width, height)))
        let canvas = try Canvas(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded()))
        )
        cairo_save(canvas.context)
        cairo_scale(canvas.context, scale, scale)
        cairo_set_source_surface(canvas.context, source, 0, 0)
        // GOOD averages every source pixel when shrinking (a box filter), where the default samples a few.
        cairo_pattern_set_filter(cairo_get_source(canvas.context), CAIRO_FILTER_GOOD)
        cairo_paint(canvas.context)
        cairo_restore(canvas.context)
        try canvas.check(cairo_status(canvas.context))
        return canvas
    }

    /// This image canvas's size in pixels.
    var pixelSize: (width: Int, height: Int) {
        (Int(cairo_image_surface_get_width(surface)), Int(cairo_image_surface_get_height(surface)))
    }

    /// This image canvas's pixels, to keep and draw again (`image(_:x:y:width:)`) without decoding.
    func bitmap() -> Bitmap {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let pixels = cairo_image_surface_get_data(surface).map { Array(UnsafeBufferPointer(start: $0, count: stride * height)) } ?? []
        return Bitmap(width: width, height: height, stride: stride, pixels: pixels)
    }

    /// Paints `bitmap` scaled to `width` points wide, top-left at `x`, `y`. The pixels are copied into a surface
    /// of this drawing's own (a memory copy, no decoding): cairo surfaces are not shared between threads.
    func image(_ bitmap: Bitmap, x: Double, y: Double, width: Double) {
        if bitmap.width == 0 { return }
        let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(bitmap.width), Int32(bitmap.height))
        defer { cairo_surface_destroy(image) }
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS, Int(cairo_image_surface_get_stride(image)) == bitmap.stride,
            let data = cairo_image_surface_get_data(image), bitmap.pixels.count == bitmap.stride * bitmap.height
        else { return }
        cairo_surface_flush(image)
        bitmap.pixels.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: $0.count) }
        cairo_surface_mark_dirty(image)
        let scale = width / Double(bitmap.width)
        cairo_save(context)
        cairo_translate(context, x, y)
        cairo_scale(context, scale, scale)
        cairo_set_source_surface(context, image, 0, 0)
        cairo_paint(context)
        cairo_restore(context)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    func circle(centre: WheelFigure.Point, radius: Double) {
        cairo_new_path(context)
        cairo_arc(context, centre.x, centre.y, radius, 0, 2 * .pi)
        cairo_close_path(context)
    }

    func dots(centres: [WheelFigure.Point], diameter: Double, font: String, colour: HexColour) {
        if centres.isEmpty { return }
        cairo_select_font_face(context, font, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        // Measured large: at small sizes hinting rounds the glyph's metrics to whole pixels.
        let reference = 100.0
        cairo_set_font_size(context, reference)
        var glyphs: UnsafeMutablePointer<cairo_glyph_t>?
        var count: Int32 = 0
        guard cairo_scaled_font_text_to_glyphs(cairo_get_scaled_font(context), 0, 0, "●", -1, &glyphs, &count, nil, nil, nil) == CAIRO_STATUS_SUCCESS,
            let glyphs
        else { return }
        defer { cairo_glyph_free(glyphs) }
        guard count == 1 else { return }
        var ink = cairo_text_extents_t()
        cairo_glyph_extents(context, glyphs, 1, &ink)
        guard ink.width > 0 else { return }
        // Sized so the glyph's ink is `diameter` across, and placed so the ink is centred on each point.
        let scale = diameter / ink.width
        cairo_set_font_size(context, reference * scale)
        let dx = -(ink.x_bearing + ink.width / 2) * scale
        let dy = -(ink.y_bearing + ink.height / 2) * scale
        var run = centres.map { cairo_glyph_t(index: glyphs[0].index, x: $0.x + dx, y: $0.y + dy) }
        setColour(colour, alpha: 1)
        cairo_show_glyphs(context, &run, Int32(run.count))
        cairo_new_path(context)
    }

    func polyline(_ points: [WheelFigure.Point]) {
        cairo_new_path(context)
        for (index, point) in points.enumerated() {
            if index == 0 { cairo_move_to(context, point.x, point.y) } else { cairo_line_to(context, point.x, point.y) }
        }
    }

    func wedge(centre: WheelFigure.Point, radius: Double, from start: Double, to end: Double) {
        cairo_new_path(context)
        if end - start >= 2 * .pi - 1e-9 {
            cairo_arc(context, centre.x, centre.y, radius, 0, 2 * .pi)
        } else {
            cairo_move_to(context, centre.x, centre.y)
            // cairo's angles start at three o'clock and also turn clockwise on screen.
            cairo_arc(context, centre.x, centre.y, radius, start - .pi / 2, end - .pi / 2)
        }
        cairo_close_path(context)
    }

    func fillPath(_ colour: HexColour, alpha: Double, keepingPath: Bool) {
        setColour(colour, alpha: alpha)
        if keepingPath { cairo_fill_preserve(context) } else { cairo_fill(context) }
    }

    func strokePath(_ colour: HexColour, alpha: Double, width: Double, dash: [Double]) {
        setColour(colour, alpha: alpha)
        cairo_set_line_width(context, width)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        dash.withUnsafeBufferPointer { cairo_set_dash(context, $0.baseAddress, Int32($0.count), 0) }
        cairo_stroke(context)
        cairo_set_dash(context, nil, 0, 0)
    }

    func text(
        _ text: String,
        at point: WheelFigure.Point,
        alignment: TextAlignment,
        font: String,
        size: Double,
        bold: Bool,
        colour: HexColour
    ) {
        cairo_select_font_face(context, font, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
        // Only centred and end-aligned text needs measuring first.
        var extents = cairo_text_extents_t()
        if alignment != .start { cairo_text_extents(context, text, &extents) }
        let x: Double =
            switch alignment {
            case .start: point.x
            case .middle: point.x - extents.x_advance / 2
            case .end: point.x - extents.x_advance
            }
        setColour(colour, alpha: 1)
        cairo_move_to(context, x, point.y)
        cairo_show_text(context, text)
        cairo_new_path(context)
    }

    /// The picture as PNG bytes (`PNGWriter`).
    func png() throws -> [UInt8] {
        try check(cairo_surface_status(surface))
        cairo_surface_flush(surface)
        let (width, height) = pixelSize
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { throw Failure.cairo("the surface has no pixels") }
        return PNGWriter.png(
            Bitmap.Pixels(width: width, height: height, stride: stride, bytes: UnsafeBufferPointer(start: data, count: stride * height))
        )
    }

    private func setColour(_ colour: HexColour, alpha: Double) {
        let (red, green, blue) = colour.unitComponents
        cairo_set_source_rgba(context, red, green, blue, alpha)
    }

    private func check(_ status: cairo_status_t) throws {
        guard status == CAIRO_STATUS_SUCCESS else { throw Failure.cairo(String(cString: cairo_status_to_string(status))) }
    }

    /// PNG bytes that cairo reads in pieces; a read past the end fails the decoding.
    private final class PNGSource {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
            guard offset + count <= bytes.count else { return false }
            bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + offset, count: count) }
            offset += count
            return true
        }
    }
}
