import Foundation

/// A company's branding: the colours, font and logo of its reports and of the apps that style themselves from
/// `GET /v1/theme`, the footer its reports end with, and the language and units a report uses unless asked
/// otherwise.
///
/// Themes are JSON (`Themes/*.json`, or a company's own upload) read by `Theme.parse`, which names the key of
/// every problem it finds: an unknown key, a missing one, a colour that is not `#rrggbb`, a font the server does
/// not have, text that a reader could not read against its background.
public struct Theme: Sendable, Equatable {
    /// Lower-case letters, digits and single hyphens (`harbour-fitness`): what a company chooses a shipped theme by.
    public var id: String
    /// Shown when a company picks a theme (`Harbour Fitness`); 1–100 characters.
    public var name: String
    /// The six colours every surface needs; text and muted text must contrast 4.5:1 with the background.
    public var colours: Colours
    /// Overrides of the exercise packs' category colours, by category id.
    public var categoryColours: [String: HexColour]
    /// A font family the install script installs (`Theme.fonts`); reports embed it.
    public var font: String
    /// The logo's file name, beside a shipped theme's JSON; a company's own logo is uploaded on its own.
    public var logo: String?
    /// Printed in every report's footer (on each page of a PDF); at most 500 characters, nil for none.
    public var reportFooter: String?
    /// The reports' default language (`Theme.languages`).
    public var locale: String
    /// The reports' default units.
    public var units: Units

    /// The colours every surface needs.
    public struct Colours: Sendable, Equatable {
        /// Accents: headings, rules, the brand's own colour.
        public var tint: HexColour
        /// The page or screen behind everything.
        public var background: HexColour
        /// Body text; at least `minimumTextContrast` against `background`.
        public var text: HexColour
        /// Secondary text: captions, axes, dates.
        public var muted: HexColour
        /// A flagged category's marker: the weak spot a trainer and client should look at first.
        public var flag: HexColour
        /// The target ring and line that scores are read against.
        public var target: HexColour

        /// Builds colours in code; `Theme.parse` checks their contrast, this does not.
        public init(tint: HexColour, background: HexColour, text: HexColour, muted: HexColour, flag: HexColour, target: HexColour) {
            self.tint = tint
            self.background = background
            self.text = text
            self.muted = muted
            self.flag = flag
            self.target = target
        }
    }

    /// How a report shows measurements: SI (`metric`) or feet, inches, pounds and miles (`imperial`).
    public enum Units: String, Sendable, CaseIterable {
        case metric, imperial
    }

    /// Font families the project's install script installs (Debian's fonts-dejavu-core).
    public static let fonts = ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"]
    /// Languages the reports are written in.
    public static let languages = ["en", "es"]
    /// Text needs this contrast against the background: WCAG 2.x level AA for body text.
    public static let minimumTextContrast = 4.5
    /// A category colour at least this far (CIE76 ΔE) from the flag colour: the needs-attention marker beside a
    /// slice must not look like the slice.
    public static let minimumFlagDifference = 25.0
    /// In characters: a footer, not a page.
    public static let maximumFooterLength = 500

    /// Builds a theme in code; nothing is checked (`parse` checks a document). Defaults: the first font, English, metric.
    public init(
        id: String,
        name: String,
        colours: Colours,
        categoryColours: [String: HexColour] = [:],
        font: String = Theme.fonts[0],
        logo: String? = nil,
        reportFooter: String? = nil,
        locale: String = "en",
        units: Units = .metric
    ) {
        self.id = id
        self.name = name
        self.colours = colours
        self.categoryColours = categoryColours
        self.font = font
        self.logo = logo
        self.reportFooter = reportFooter
        self.locale = locale
        self.units = units
    }

    private static let keys: Set<String> = ["id", "name", "colours", "categoryColours", "font", "logo", "reportFooter", "locale", "units"]
    private static let colourKeys = ["tint", "background", "text", "muted", "flag", "target"]

    /// Reads a theme document, collecting every problem (each named by its key, nested keys joined by dots).
    public static func parse(_ document: JSONValue) throws(ValidationError) -> Theme {
        guard case .object(let members) = document else { throw ValidationError("body", "must be a JSON object") }
        var problems = FieldErrorCollector()
        for key in members.keys.sorted() where !keys.contains(key) { problems.add(key, "is not a theme key") }

        let id = problems.check { () throws(ValidationError) in try requiredString(members, "id") }
        if let id, !ExercisePackCheck.isIdentifier(id) { problems.add("id", "must be lower-case letters, digits and single hyphens") }
        let name = problems.check { () throws(ValidationError) in try requiredString(members, "name") }
        if let name, name.trimmingWhiteSpace().isEmpty || name.schemaLength > 100 { problems.add("name", "must be 1–100 characters") }

        var colours: [String: HexColour] = [:]
        switch members["colours"] {
        case .object(let given):
            for key in given.keys.sorted() where !colourKeys.contains(key) { problems.add("colours.\(key)", "is not a theme colour") }
            for key in colourKeys {
                if let colour = problems.check({ () throws(ValidationError) in try hexColour(given[key], "colours.\(key)") }) {
                    colours[key] = colour
                }
            }
        case nil: problems.add("colours", "is required")
        default: problems.add("colours", "must be an object of colours")
        }

        var categoryColours: [String: HexColour] = [:]
        switch members["categoryColours"] {
        case .object(let given):
            for key in given.keys.sorted() {
                if !ExercisePackCheck.isIdentifier(key) { problems.add("categoryColours.\(key)", "is not a category id") }
                if let colour = problems.check({ () throws(ValidationError) in try hexColour(given[key], "categoryColours.\(key)") }) {
                    categoryColours[key] = colour
                }
            }
        case nil, .null: break
        default: problems.add("categoryColours", "must be an object of category ids and colours")
        }

        let font = problems.check { () throws(ValidationError) in try optionalString(members, "font") } ?? nil
        if let font, !fonts.contains(font) { problems.add("font", "must be one of \(fonts.joined(separator: ", "))") }
        let logo = problems.check { () throws(ValidationError) in try optionalString(members, "logo") } ?? nil
        if let logo, !isFileName(logo) { problems.add("logo", "must be a PNG file name beside the theme, such as logo.png") }
        let footer = problems.check { () throws(ValidationError) in try optionalString(members, "reportFooter") } ?? nil
        if let footer, footer.schemaLength > maximumFooterLength { problems.add("reportFooter", "must be at most \(maximumFooterLength) characters") }
        let locale = problems.check { () throws(ValidationError) in try optionalString(members, "locale") } ?? nil
        if let locale, !languages.contains(locale) { problems.add("locale", "must be one of \(languages.joined(separator: ", "))") }
        let unitsText = problems.check { () throws(ValidationError) in try optionalString(members, "units") } ?? nil
        let units = unitsText.flatMap(Units.init(rawValue:))
        if unitsText != nil, units == nil { problems.add("units", "must be metric or imperial") }

        if let background = colours["background"] {
            for key in ["text", "muted"] {
                guard let ratio = colours[key]?.contrast(with: background) else { continue }
                if ratio < minimumTextContrast {
                    let shown = (ratio * 10).rounded(.down) / 10
                    problems.add("colours.\(key)", "contrasts \(shown):1 with the background; text needs at least 4.5:1 (WCAG AA)")
                }
            }
        }
        if let flag = colours["flag"] {
            for (category, colour) in categoryColours.sorted(by: { $0.key < $1.key }) where colour.difference(from: flag) < minimumFlagDifference {
                let detail = "is too close to colours.flag (\(colour) and \(flag)): a flagged slice's marker must stand out from every slice"
                problems.add("categoryColours.\(category)", detail)
                problems.add("colours.flag", "is too close to categoryColours.\(category) (\(flag) and \(colour))")
            }
        }
        try problems.throwIfAny()
        return Theme(
            id: id!,
            name: name!,
            colours: Colours(
                tint: colours["tint"]!,
                background: colours["background"]!,
                text: colours["text"]!,
                muted: colours["muted"]!,
                flag: colours["flag"]!,
                target: colours["target"]!
            ),
            categoryColours: categoryColours,
            font: font ?? fonts[0],
            logo: logo,
            reportFooter: footer,
            locale: locale ?? "en",
            units: units ?? .metric
        )
    }

    /// The theme as a JSON document that `parse` reads back to an equal theme.
    public var document: JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(id),
            "name": .string(name),
            "colours": .object([
                "tint": .string(colours.tint.description),
                "background": .string(colours.background.description),
                "text": .string(colours.text.description),
                "muted": .string(colours.muted.description),
                "flag": .string(colours.flag.description),
                "target": .string(colours.target.description),
            ]),
            "categoryColours": .object(categoryColours.mapValues { .string($0.description) }),
            "font": .string(font),
            "locale": .string(locale),
            "units": .string(units.rawValue),
        ]
        members["logo"] = logo.map(JSONValue.string) ?? .null
        members["reportFooter"] = reportFooter.map(JSONValue.string) ?? .null
        return .object(members)
    }

    private static func requiredString(_ members: [String: JSONValue], _ key: String) throws(ValidationError) -> String {
        switch members[key] {
        case .string(let value): return value
        case nil, .null: throw ValidationError(key, "is required")
        default: throw ValidationError(key, "must be a string")
        }
    }

    private static func optionalString(_ members: [String: JSONValue], _ key: String) throws(ValidationError) -> String? {
        switch members[key] {
        case .string(let value): return value
        case nil, .null: return nil
        default: throw ValidationError(key, "must be a string")
        }
    }

    private static func hexColour(_ value: JSONValue?, _ field: String) throws(ValidationError) -> HexColour {
        guard let value, value != .null else { throw ValidationError(field, "is required") }
        guard let text = value.string, let colour = HexColour(text) else { throw ValidationError(field, "must be a colour written #rrggbb") }
        return colour
    }

    /// A plain file name ending in `.png`: no folders, so a theme cannot point outside its own.
    private static func isFileName(_ name: String) -> Bool {
        name.count <= 100 && name.lowercased().hasSuffix(".png") && !name.hasPrefix(".")
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }
}
