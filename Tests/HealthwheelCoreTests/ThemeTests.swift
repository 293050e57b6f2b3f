import Foundation
import Testing

@testable import HealthwheelCore

@Suite struct HexColourTests {
    @Test func readsEitherCaseAndWritesLowerCase() throws {
        let colour = try #require(HexColour("#1F5f8B"))
        #expect(colour == HexColour(red: 0x1f, green: 0x5f, blue: 0x8b))
        #expect(colour.description == "#1f5f8b")
    }

    @Test(arguments: ["1f5f8b", "#1f5f8", "#1f5f8bb", "#1g5f8b", "#fff", "", "#１f5f8b"])
    func refusesAnythingButHashAndSixHexDigits(_ text: String) {
        #expect(HexColour(text) == nil)
    }

    /// Reference values from the WCAG 2.x definition: black on white is 21:1, a colour on itself 1:1, and
    /// #767676 is the lightest grey that still reaches 4.5:1 on white.
    @Test func contrastFollowsWCAG() {
        let white = HexColour(red: 255, green: 255, blue: 255)
        let black = HexColour(red: 0, green: 0, blue: 0)
        #expect(abs(black.contrast(with: white) - 21) < 1e-9)
        #expect(white.contrast(with: white) == 1)
        #expect(HexColour("#767676")!.contrast(with: white) >= 4.5)
        #expect(HexColour("#777777")!.contrast(with: white) < 4.5)
    }

    /// CIE76 ΔE: black to white is 100 (L* from 0 to 100), a colour from itself 0; the old cardiovascular red is
    /// 9 from the default flag red (the same red at a glance), the new pink 49.
    @Test func differenceIsCIE76InLab() {
        let white = HexColour(red: 255, green: 255, blue: 255)
        let black = HexColour(red: 0, green: 0, blue: 0)
        #expect(abs(black.difference(from: white) - 100) < 0.1)
        #expect(white.difference(from: white) == 0)
        let flag = HexColour("#d32f2f")!
        #expect(HexColour("#d7263d")!.difference(from: flag) < 10)
        #expect(HexColour("#e0609a")!.difference(from: flag) > 45)
    }
}

@Suite struct ThemeTests {
    static let valid: [String: JSONValue] = [
        "id": .string("brand"),
        "name": .string("Brand"),
        "colours": .object([
            "tint": .string("#0b6e69"), "background": .string("#ffffff"), "text": .string("#111111"),
            "muted": .string("#595959"), "flag": .string("#c0392b"), "target": .string("#0b6e69"),
        ]),
    ]

    func parse(_ changes: [String: JSONValue?]) throws(ValidationError) -> Theme {
        var members = Self.valid
        for (key, value) in changes { members[key] = value }
        return try Theme.parse(.object(members))
    }

    func fields(_ changes: [String: JSONValue?]) -> [String] {
        do {
            _ = try parse(changes)
            return []
        } catch {
            return error.errors.map(\.field)
        }
    }

    @Test func aMinimalThemeGetsTheDefaults() throws {
        let theme = try parse([:])
        #expect(theme.font == "DejaVu Sans" && theme.locale == "en" && theme.units == .metric)
        #expect(theme.logo == nil && theme.reportFooter == nil && theme.categoryColours.isEmpty)
        #expect(theme.colours.flag.description == "#c0392b")
    }

    @Test func theDocumentReadsBackToTheSameTheme() throws {
        let theme = try parse([
            "categoryColours": .object(["strength": .string("#0072B2")]), "font": .string("DejaVu Serif"),
            "logo": .string("logo.png"), "reportFooter": .string("Wellington"), "locale": .string("es"), "units": .string("imperial"),
        ])
        #expect(try Theme.parse(theme.document) == theme)
        #expect(theme.categoryColours["strength"]?.description == "#0072b2")
    }

    @Test func everyProblemIsNamedByItsKey() {
        let problems = fields([
            "colour": .string("#ffffff"),
            "colours": .object([
                "tint": .string("teal"), "background": .string("#ffffff"), "text": .string("#111111"),
                "muted": .string("#595959"), "target": .string("#0b6e69"), "accent": .string("#000000"),
            ]),
            "categoryColours": .object(["Strength!": .string("#000000"), "endurance": .number(3)]),
            "font": .string("Comic Sans MS"),
            "logo": .string("../secrets.png"),
            "locale": .string("fr"),
            "units": .string("furlongs"),
            "reportFooter": .string(String(repeating: "x", count: 501)),
        ])
        #expect(
            problems == [
                "colour", "colours.accent", "colours.tint", "colours.flag", "categoryColours.Strength!", "categoryColours.endurance",
                "font", "logo", "reportFooter", "locale", "units",
            ]
        )
    }

    @Test func requiredKeysAreNamedWhenMissing() {
        #expect(fields(["id": nil, "name": nil, "colours": nil]) == ["id", "name", "colours"])
        #expect(fields(["id": .string("Not An Id")]) == ["id"])
    }

    @Test func textThatCannotBeReadAgainstTheBackgroundIsRefused() {
        var colours = Self.valid["colours"]!.objectMembers
        colours["text"] = .string("#aaaaaa")  // 2.3:1 on white
        colours["muted"] = .string("#777777")  // just under 4.5:1
        #expect(fields(["colours": .object(colours)]) == ["colours.text", "colours.muted"])
    }

    /// The needs-attention marker sits beside its slice: a category as red as the flag hides it.
    @Test func aCategoryColourTooCloseToTheFlagIsRefusedNamingBothKeys() throws {
        let close = fields(["categoryColours": .object(["cardiovascular": .string("#d7263d"), "strength": .string("#3f88c5")])])
        #expect(close == ["categoryColours.cardiovascular", "colours.flag"])
        #expect(try parse(["categoryColours": .object(["cardiovascular": .string("#e0609a")])]).categoryColours.count == 1)
    }

    @Test func aDocumentThatIsNotAnObjectIsRefused() {
        #expect(throws: ValidationError("body", "must be a JSON object")) { try Theme.parse(.array([])) }
    }
}

extension JSONValue {
    fileprivate var objectMembers: [String: JSONValue] {
        if case .object(let members) = self { return members }
        return [:]
    }
}
