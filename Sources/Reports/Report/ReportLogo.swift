import HealthwheelCore

/// A company's logo as reports show it: decoded once, scaled down to fit `maximumSide` × `maximumSide` pixels
/// (aspect kept, never enlarged), kept both as PNG bytes (what HTML and email embed, what is stored beside the
/// original) and as pixels (what a PDF paints, without decoding). Making one decodes a PNG: do it on a drawing
/// thread (`PictureQueue`), once per logo, and keep it.
public struct ReportLogo: Sendable, Equatable {
    /// Reports show a logo 44 points wide in a PDF and 56 pixels wide in HTML; 512 leaves room for sharp print
    /// and larger uses, at 1 MiB of pixels at most.
    public static let maximumSide = 512

    /// The normalised copy, as PNG bytes.
    public let png: [UInt8]
    let bitmap: Bitmap

    public var width: Int { bitmap.width }
    public var height: Int { bitmap.height }

    /// A logo as uploaded: its header is measured against `limit` before it is decoded, then it is scaled to the
    /// normalised size. Throws `PictureProblem` for a picture that is too large, malformed or does not decode.
    public init(normalising original: [UInt8], limit: PictureLimit) throws {
        let canvas = try Canvas.picture(png: original, limit: limit, fittingWithin: Self.maximumSide)
        png = try canvas.png()
        bitmap = canvas.bitmap()
    }

    /// A normalised copy made earlier (`png`), read back from storage: measured like any picture (it can be no
    /// larger than the normalised size), decoded, not scaled.
    public init(normalised png: [UInt8]) throws {
        let limit = PictureLimit(maximumWidth: Self.maximumSide, maximumHeight: Self.maximumSide, maximumPixels: Self.maximumSide * Self.maximumSide)
        let canvas = try Canvas.picture(png: png, limit: limit, fittingWithin: Self.maximumSide)
        self.png = png
        bitmap = canvas.bitmap()
    }

    public static func == (lhs: ReportLogo, rhs: ReportLogo) -> Bool {
        lhs.png == rhs.png
    }
}
