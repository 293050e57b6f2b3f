import CFontconfig
import Foundation
import Synchronization

/// The theme fonts a PDF embeds, found through fontconfig (as cairo finds them for the pictures) and read once per
/// process: a font file is read and its character map built on first use, then shared by every report.
enum PDFFonts {
    private static let known = Mutex<[String: TrueTypeFont]>([:])

    /// The TrueType font fontconfig picks for `family` in the regular or bold weight. Throws when it picks none, or
    /// a file that is not a TrueType font with outlines.
    static func font(family: String, bold: Bool) throws -> TrueTypeFont {
        let key = "\(family):\(bold ? "bold" : "regular")"
        if let font = known.withLock({ $0[key] }) { return font }
        guard let path = file(family: family, bold: bold) else { throw TrueTypeFont.Failure(description: "fontconfig found no font for \(key)") }
        guard let data = FileManager.default.contents(atPath: path) else { throw TrueTypeFont.Failure(description: "cannot read \(path)") }
        let font: TrueTypeFont
        do { font = try TrueTypeFont(Array(data)) } catch { throw TrueTypeFont.Failure(description: "\(path): \(error.description)") }
        return known.withLock { fonts in
            if let first = fonts[key] { return first }
            fonts[key] = font
            return font
        }
    }

    /// The file fontconfig matches for the family and weight, as `fc-match "DejaVu Sans:bold"` would.
    private static func file(family: String, bold: Bool) -> String? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = family.withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) { FcPatternAddString(pattern, FC_FAMILY, $0) }
        }
        FcPatternAddInteger(pattern, FC_WEIGHT, bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR)
        FcPatternAddInteger(pattern, FC_SLANT, FC_SLANT_ROMAN)
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        return String(cString: file)
    }
}
