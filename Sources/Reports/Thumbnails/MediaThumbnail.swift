import CVipsShim
import Foundation
import HealthwheelCore

/// Small pictures of result media: a photo scaled down by libvips (JPEG shrinks while it decodes; HEIC through
/// libheif; turned upright by its EXIF orientation; metadata stripped, so no location survives in a thumbnail),
/// and for a video a drawn poster card with its running time. Each call blocks for milliseconds: callers use a
/// thread that may wait, never Swift's cooperative pool. The photo's header was checked against
/// `PictureLimit.resultPhoto` when it was stored, so nothing here decodes an unbounded picture.
public enum MediaThumbnail {
    /// Sides a thumbnail may be asked for, in pixels.
    public static let sizes = 32...1024

    /// libvips' start-up, once per process.
    private static let started: Bool = hw_vips_start() == 0

    /// A JPEG (or PNG, which a PDF can paint) fitting `size` × `size` of a stored photo (never larger than the photo).
    public static func photo(_ bytes: [UInt8], fitting size: Int, png: Bool = false) throws -> [UInt8] {
        try scaled(bytes, size, png, hw_vips_thumbnail)
    }

    /// The same from one of the photo's stored previews (an upright JPEG without metadata, made by `photo`):
    /// no orientation or colour work and a cheaper kernel, alike to the eye at a preview's small factors.
    public static func preview(_ jpeg: [UInt8], fitting size: Int, png: Bool = false) throws -> [UInt8] {
        try scaled(jpeg, size, png, hw_vips_scale_down)
    }

    private static func scaled(
        _ bytes: [UInt8],
        _ size: Int,
        _ png: Bool,
        _ draw: (
            UnsafeRawPointer?, Int, Int32, Int32, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafeMutablePointer<Int>?,
            UnsafeMutablePointer<CChar>?, Int
        ) -> Int32
    ) throws -> [UInt8] {
        guard started else { throw ThumbnailFailure(reason: "libvips did not start") }
        var output: UnsafeMutableRawPointer?
        var length = 0
        var message = [CChar](repeating: 0, count: 512)
        let status = bytes.withUnsafeBytes { buffer in
            draw(buffer.baseAddress, buffer.count, Int32(size), png ? 1 : 0, &output, &length, &message, message.count)
        }
        guard status == 0, let output else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw ThumbnailFailure(reason: text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        defer { hw_vips_free(output) }
        return Array(UnsafeRawBufferPointer(start: output, count: length))
    }

    /// A PNG poster card for a video of `width` × `height` (16:9 when unknown), fitting `size`: a dark frame, a
    /// play mark and the running time (`0:05`).
    public static func video(width: Int?, height: Int?, durationSeconds: Double?, fitting size: Int) throws -> [UInt8] {
        let (w, h) = (Double(width ?? 16), Double(height ?? 9))
        let scale = Double(size) / max(w, h)
        let canvasWidth = max(16, Int((w * scale).rounded()))
        let canvasHeight = max(16, Int((h * scale).rounded()))
        let canvas = try Canvas(width: canvasWidth, height: canvasHeight)
        let (cw, ch) = (Double(canvasWidth), Double(canvasHeight))
        canvas.rectangle(x: 0, y: 0, width: cw, height: ch)
        canvas.fillPath(HexColour.videoFrame)
        let unit = min(cw, ch)
        let centre = WheelFigure.Point(x: cw / 2, y: ch / 2)
        canvas.circle(centre: centre, radius: unit * 0.2)
        canvas.fillPath(HexColour.videoMark, alpha: 0.85)
        let side = unit * 0.16
        canvas.polyline([
            .init(x: centre.x - side * 0.4, y: centre.y - side * 0.55), .init(x: centre.x + side * 0.6, y: centre.y),
            .init(x: centre.x - side * 0.4, y: centre.y + side * 0.55),
        ])
        canvas.fillPath(HexColour.videoFrame)
        if let durationSeconds {
            canvas.text(
                runningTime(durationSeconds),
                at: .init(x: cw - unit * 0.06, y: ch - unit * 0.07),
                alignment: .end,
                font: "DejaVu Sans",
                size: max(9, unit * 0.12),
                bold: true,
                colour: HexColour.videoMark
            )
        }
        return try canvas.png()
    }

    /// `m:ss` (or `h:mm:ss`), rounded to the second.
    static func runningTime(_ seconds: Double) -> String {
        // Held to a week either way: `Int(_:)` traps on what a stored header from before that limit might say.
        let total = seconds.isFinite ? Int(min(max(seconds.rounded(), 0), VideoHeader.longestSeconds)) : 0
        let (hours, minutes, rest) = (total / 3600, (total / 60) % 60, total % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }
}

/// Why a thumbnail could not be made (the decoder's own words).
public struct ThumbnailFailure: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "the thumbnail could not be made: \(reason)" }
}

extension HexColour {
    static let videoFrame = HexColour(red: 0x1F, green: 0x23, blue: 0x2A)
    static let videoMark = HexColour(red: 0xF4, green: 0xF5, blue: 0xF7)
}
