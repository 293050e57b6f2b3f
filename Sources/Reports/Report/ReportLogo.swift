import HealthwheelCore

/// A company's logo as reports show it: decoded once, scaled down to fit `maximumSide` × `maximumSide` pixels
/// (aspect kept, never enlarged) and kept as PNG bytes (what HTML and email embed, what is stored beside the
/// original), and smaller again as pixels for PDFs (painted without decoding). Making one decodes a PNG: a media
/// worker does it (a tenant's file is never decoded in the server), once per logo, and the server keeps it.
public struct ReportLogo: Sendable, Equatable {
    /// Reports show a logo in a 44-point box in a PDF and 56 pixels wide in HTML; 512 leaves room for sharp
    /// screens and larger uses.
    public static let maximumSide = 512
    /// A PDF draws the logo in a 44-point box: 176 pixels is 4 a point (288 dpi), sharp in print. Every PDF
    /// embeds and compresses these pixels anew (measured: 6 ms a PDF at 512 × 512, a third of a report's cost).
    static let pdfSide = 176

    /// The normalised copy, as PNG bytes.
    public let png: [UInt8]
    /// The normalised copy's size in pixels.
    public let width: Int
    /// The normalised copy's height in pixels, at most `maximumSide`: with `width`, the aspect HTML keeps.
    public let height: Int
    /// What a PDF paints: the normalised copy fitted within `pdfSide`.
    public let bitmap: Bitmap

    /// A logo as uploaded: its header is measured against `limit` before it is decoded, then it is scaled to the
    /// normalised size. Throws `PictureProblem` for a picture that is too large, malformed or does not decode.
    public init(normalising original: [UInt8], limit: PictureLimit) throws {
        let canvas = try Canvas.picture(png: original, limit: limit, fittingWithin: Self.maximumSide)
        try self.init(png: try canvas.png(), canvas: canvas)
    }

    /// A normalised copy made earlier (`png`), read back from storage: measured like any picture (it can be no
    /// larger than the normalised size), decoded, not scaled.
    public init(normalised png: [UInt8]) throws {
        let limit = PictureLimit(maximumWidth: Self.maximumSide, maximumHeight: Self.maximumSide, maximumPixels: Self.maximumSide * Self.maximumSide)
        try self.init(png: png, canvas: try Canvas.picture(png: png, limit: limit, fittingWithin: Self.maximumSide))
    }

    /// A logo a media worker made: its parts as they were sent back.
    public init(png: [UInt8], width: Int, height: Int, bitmap: Bitmap) {
        self.png = png
        self.width = width
        self.height = height
        self.bitmap = bitmap
    }

    private init(png: [UInt8], canvas: Canvas) throws {
        self.png = png
        (width, height) = canvas.pixelSize
        bitmap = try canvas.fitted(within: Self.pdfSide).bitmap()
    }

    /// Two logos are equal when their normalised PNG bytes are: the pixels for PDFs are made from them.
    public static func == (lhs: ReportLogo, rhs: ReportLogo) -> Bool {
        lhs.png == rhs.png
    }
}
