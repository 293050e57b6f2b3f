import Foundation
import HealthwheelCore

/// A photo or video of a result as a report shows it: a small PNG (a photo's thumbnail, a video's poster card),
/// embedded in HTML and email and painted in the PDF from pixels decoded once. Making one from a PNG decodes it: a
/// photo's is made by a media worker, a video's poster card (the server's own drawing) on a drawing thread.
public struct ReportMedia: Sendable {
    /// The thumbnail's side in pixels: a report shows them about 80 points wide, twice that for sharp screens and print.
    public static let side = 240
    /// Photos a report shows of one result; more are counted ("and 3 more"), not shown, so an emailed report stays small.
    public static let photosShown = 4

    /// The media file's id: names its picture (`ClientReport.Picture.media`).
    public let id: UUID
    /// A photo (thumbnail) or a video (poster card).
    public let kind: MediaKind
    /// The picture, at most `side` pixels a side.
    public let png: [UInt8]
    /// The picture's size in pixels.
    public let width: Int
    /// The picture's height in pixels.
    public let height: Int
    /// The trainer's caption, its alternative text; nil says "photo" or "video".
    public var caption: String?
    /// What a PDF paints.
    public let bitmap: Bitmap

    /// Bytes it holds: what a cache of them counts.
    public var memoryCost: Int { png.count + bitmap.pixels.count + (bitmap.jpeg?.count ?? 0) }

    /// A picture a media worker made (`png`, and `bitmap` its pixels with the same picture as a JPEG).
    public init(id: UUID, kind: MediaKind, png: [UInt8], bitmap: Bitmap, caption: String?) {
        self.id = id
        self.kind = kind
        self.png = png
        (width, height) = (bitmap.width, bitmap.height)
        self.caption = caption
        self.bitmap = bitmap
    }

    /// A thumbnail (`png`, made by `MediaThumbnail`) of the file `id`; throws when it is not a PNG within `side`.
    /// A photo's `jpeg` (the same picture) is what a PDF embeds: no pixels are compressed per report.
    public init(id: UUID, kind: MediaKind, png: [UInt8], jpeg: [UInt8]? = nil, caption: String?) throws {
        let limit = PictureLimit(maximumWidth: Self.side, maximumHeight: Self.side, maximumPixels: Self.side * Self.side)
        let canvas = try Canvas.picture(png: png, limit: limit, fittingWithin: Self.side)
        self.id = id
        self.kind = kind
        self.png = png
        (width, height) = canvas.pixelSize
        self.caption = caption
        var bitmap = canvas.bitmap()
        bitmap.jpeg = jpeg
        self.bitmap = bitmap
    }
}
