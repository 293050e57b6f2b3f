import Dispatch
import Foundation
import HealthwheelCore
import Reports
import Synchronization

/// Clients' wheels drawn in their company's theme, as SVG or PNG. A picture is cached until the client's results,
/// the catalog, the company's threshold or its theme change, so the same wheel is drawn once and served often.
public struct WheelPictures: Sendable {
    let wheels: ClientWheels
    let themes: CompanyThemes

    /// SVG (text, scalable, drawn inline) or PNG (drawn with cairo on a drawing thread).
    public enum Format: String, Sendable {
        case svg, png
    }

    /// Widths a picture may be drawn at, in pixels; its height is three quarters of it.
    public static let widths = 256...2048
    /// In pixels: sharp on a phone, small enough to send often.
    public static let defaultWidth = 512

    /// One per process (`UseCases` builds it), sharing `ClientWheels`' cache.
    public init(wheels: ClientWheels, themes: CompanyThemes) {
        self.wheels = wheels
        self.themes = themes
    }

    /// The client's wheel drawn `width` pixels wide (height three quarters of it), worded in `language` (nil: the
    /// theme's), from the cache when nothing it depends on changed. With `compare`, the wheel as it stood at that
    /// instant is drawn as a faint outline behind today's. Throws `invalid("size")` for a width outside `widths`,
    /// `invalid("lang")` for a language reports are not written in, `notFound` for another company's client.
    public func picture(
        client: UUID,
        company: UUID,
        format: Format,
        width: Int,
        language: String? = nil,
        compare: Date? = nil
    ) async throws -> [UInt8] {
        guard Self.widths.contains(width) else {
            throw ServiceError.invalid("size", "must be \(Self.widths.lowerBound) to \(Self.widths.upperBound) pixels")
        }
        let current = try await themes.current(for: company)
        let strings = try readerStrings(asked: language, themeLanguage: current.theme.locale)
        var rendering = "\(format.rawValue)-\(width)-\(strings.language)"
        var comparison: WheelFigure.Comparison?
        if let compare {
            rendering += "-\(Int(compare.timeIntervalSince1970))"
            let past = try await wheels.slices(client: client, company: company, asOf: compare, language: strings.language)
            comparison = WheelFigure.Comparison(slices: past, on: compare, strings: strings)
        }
        return try await wheels.rendered(
            client: client,
            company: company,
            rendering: rendering,
            language: strings.language,
            themeVersion: current.version
        ) { slices in
            let figure = WheelFigure(slices: slices, theme: current.theme, width: Double(width), words: .init(strings), compared: comparison)
            switch format {
            case .svg: return Array(WheelSVG.render(figure, title: strings.text("wheel.title")).utf8)
            case .png: return try await PictureQueue.run { try WheelPNG.render(figure) }
            }
        }.slices
    }
}

extension WheelPictures {
    /// A wheel of made-up scores in the company's categories drawn in `theme`, as SVG: what an admin previews a
    /// theme with before saving it. Every third category is scored below the company's threshold, so the flag
    /// colour shows too.
    public func sample(company: UUID, theme: Theme, language: String? = nil, width: Int = defaultWidth) throws -> [UInt8] {
        let strings = try readerStrings(asked: language, themeLanguage: theme.locale)
        let categories = wheels.catalog.wheelCategories(for: company, language: strings.language).categories
        var scored: [String: HealthWheel.Latest] = [:]
        for (index, category) in categories.enumerated() {
            for exercise in category.exercises {
                scored[exercise.id] = HealthWheel.Latest(
                    score: index % 3 == 2 ? 3.5 : 6 + Double(index % 4),
                    values: [:],
                    recordedAt: Date(timeIntervalSince1970: 0)
                )
            }
        }
        let slices = HealthWheel.slices(categories, scored: scored, newest: scored, flagBelow: HealthWheel.defaultFlagBelow)
        let figure = WheelFigure(slices: slices, theme: theme, width: Double(width), words: .init(strings))
        return Array(WheelSVG.render(figure, title: strings.text("wheel.title")).utf8)
    }
}
