import Foundation
import HealthwheelCore
import Hummingbird
import NIOCore
import Services

/// `/theme.css`: the company theme's colours as CSS custom properties, and each wheel category's colour as a
/// class (`cat-<id>`), so pages wear the company's brand with no inline style (the pages' CSP allows none). Its
/// URL names the theme and catalog versions, so a browser keeps it until one changes.
struct ThemeStylesheet: Sendable {
    let themes: CompanyThemes
    let catalog: ExerciseCatalog

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.get("theme.css", use: stylesheet)
    }

    @Sendable func stylesheet(request: Request, context: SignedInContext) async throws -> Response {
        let current = try await themes.current(for: context.company, freshness: context.principal.freshness)
        let theme = current.theme
        var css = ":root {\n"
        let colours = theme.colours
        for (name, colour) in [
            ("tint", colours.tint), ("background", colours.background), ("text", colours.text), ("muted", colours.muted),
            ("flag", colours.flag), ("target", colours.target),
        ] {
            css += "  --theme-\(name): \(colour);\n"
        }
        css += "}\n"
        for category in catalog.categories(for: context.company) {
            let id = category.pack.id
            let colour = theme.categoryColours[id] ?? HexColour(category.pack.colour) ?? colours.tint
            css += ".\(Self.categoryClass(id)) { --category: \(colour); }\n"
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "private, max-age=31536000, immutable"],
            body: .init(byteBuffer: ByteBuffer(string: css))
        )
    }

    /// A category's class: `cat-` and its id when that is plain (letters, digits, `-`, `_`), else a hash of it, so
    /// no id can write CSS of its own.
    static func categoryClass(_ id: String) -> String {
        let plain = !id.isEmpty && id.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        return "cat-" + (plain ? id : ConsoleAssets.fingerprint(id.utf8))
    }
}

extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
