import Foundation
import HealthwheelCore
import TestSupport
import Testing

@testable import Services

@Suite struct ThemeCatalogTests {
    static let shipped = RepositoryRoot.url.appendingPathComponent("Themes")

    func folder(with files: [String: [UInt8]]) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        for (name, bytes) in files { try Data(bytes).write(to: folder.url.appendingPathComponent(name)) }
        return folder
    }

    func theme(id: String, logo: String? = nil) -> [UInt8] {
        let logoMember = logo.map { #","logo":"\#($0)""# } ?? ""
        return Array(
            ##"{"id":"\##(id)","name":"N","colours":{"tint":"#0b6e69","background":"#ffffff","text":"#111111","muted":"#595959","flag":"#c0392b","target":"#0b6e69"}\##(logoMember)}"##
                .utf8
        )
    }

    @Test func theShippedThemesLoadWithTheirLogos() throws {
        let catalog = try ThemeCatalog.load(from: Self.shipped)
        #expect(Set(catalog.entries.keys) == ["default", "high-contrast", "harbour-fitness"])
        let brand = try #require(catalog["harbour-fitness"])
        #expect(brand.theme.font == "DejaVu Serif" && brand.logo.map(ImageSignature.contentType) == "image/png")
        #expect(catalog["default"]?.logo == nil)
    }

    /// Okabe and Ito's palette, which readers with any common colour-vision deficiency tell apart, and text
    /// that passes WCAG AA (the parser enforces 4.5:1 for every theme; this one aims higher).
    @Test func theHighContrastThemeUsesTheOkabeItoPaletteAndStrongText() throws {
        let theme = try #require(try ThemeCatalog.load(from: Self.shipped)["high-contrast"]?.theme)
        let okabeIto: Set<String> = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#000000"]
        let categories = ["body-composition", "cardiovascular", "endurance", "flexibility", "strength"]
        #expect(Set(theme.categoryColours.keys) == Set(categories))
        #expect(theme.categoryColours.values.allSatisfy { okabeIto.contains($0.description) })
        #expect(Set(theme.categoryColours.values).count == categories.count)
        #expect(theme.colours.text.contrast(with: theme.colours.background) >= 7)
        #expect(theme.colours.muted.contrast(with: theme.colours.background) >= 7)
    }

    @Test func aBrokenThemeStopsLoadingNamingTheFileAndKey() throws {
        var broken = theme(id: "broken")
        broken = Array(String(decoding: broken, as: UTF8.self).replacingOccurrences(of: "#c0392b", with: "red").utf8)
        let folder = try folder(with: ["default.json": theme(id: "default"), "broken.json": broken])
        let error = #expect(throws: ThemeCatalog.LoadError.self) { try ThemeCatalog.load(from: folder.url) }
        #expect(error?.file == "broken.json")
        #expect(error?.problems == ["colours.flag: must be a colour written #rrggbb"])
    }

    @Test func aLogoThatIsMissingOrNotAPNGIsNamed() throws {
        let missing = try folder(with: ["default.json": theme(id: "default", logo: "logo.png")])
        let error = #expect(throws: ThemeCatalog.LoadError.self) { try ThemeCatalog.load(from: missing.url) }
        #expect(error?.problems == ["logo: logo.png is not beside the theme"])

        let notPNG = try folder(with: ["default.json": theme(id: "default", logo: "logo.png"), "logo.png": Array("GIF89a".utf8)])
        let second = #expect(throws: ThemeCatalog.LoadError.self) { try ThemeCatalog.load(from: notPNG.url) }
        #expect(second?.problems == ["logo: logo.png is not a PNG image"])
    }

    @Test func duplicateIdsAndAMissingDefaultAreRefused() throws {
        let duplicate = try folder(with: ["a.json": theme(id: "default"), "b.json": theme(id: "default")])
        let error = #expect(throws: ThemeCatalog.LoadError.self) { try ThemeCatalog.load(from: duplicate.url) }
        #expect(error?.file == "b.json")

        let noDefault = try folder(with: ["a.json": theme(id: "brand")])
        #expect(throws: ThemeCatalog.LoadError.self) { try ThemeCatalog.load(from: noDefault.url) }
    }

    @Test func aLogoOverOneMebibyteIsRefused() {
        let png = TestPictures.png(width: 16, height: 16)
        #expect(ThemeCatalog.logoProblem(png + [UInt8](repeating: 0, count: ThemeCatalog.maximumLogoBytes)) == "is larger than 1 MiB")
        #expect(ThemeCatalog.logoProblem(png) == nil)
    }

    @Test func aLogoIsMeasuredByItsHeaderBeforeAnythingDecodesIt() throws {
        #expect(ThemeCatalog.logoProblem(TestPictures.blackPNG(width: 2048, height: 2048)) == nil)
        #expect(
            ThemeCatalog.logoProblem(TestPictures.blackPNG(width: 20000, height: 20000)) == "is 20000×20000 pixels; at most 2048×2048 are accepted"
        )
        #expect(ThemeCatalog.logoProblem(TestPictures.blackPNG(width: 2049, height: 16)) == "is 2049×16 pixels; at most 2048×2048 are accepted")
        #expect(ThemeCatalog.logoProblem(TestPictures.pngSignature) == "is a PNG that ends inside its header (IHDR)")

        let huge = try folder(with: [
            "default.json": theme(id: "default", logo: "logo.png"), "logo.png": TestPictures.blackPNG(width: 4096, height: 64),
        ])
        let error = #expect(throws: ThemeCatalog.LoadError.self) { try ThemeCatalog.load(from: huge.url) }
        #expect(error?.problems == ["logo: logo.png is 4096×64 pixels; at most 2048×2048 are accepted"])
    }
}

extension ThemeCatalogTests {
    @Test func aMissingFolderIsNamed() {
        let folder = TemporaryDirectory()
        let missing = folder.url.appendingPathComponent("Themes")
        let error = #expect(throws: ThemeCatalog.LoadError.self) { try ThemeCatalog.load(from: missing) }
        #expect(error?.description == "\(missing.path): there is no such folder of themes")
    }
}
