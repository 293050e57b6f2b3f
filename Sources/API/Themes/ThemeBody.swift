import Foundation
import HealthwheelCore
import Services

/// A theme as the API shows it: its document (colours as `#rrggbb`, every key present) with where its logo is,
/// and, for the company's theme in force, where it comes from and its version.
struct ThemeBody: Encodable {
    var theme: Theme
    /// The logo's address, or nil when there is none.
    var logo: String?
    var source: CompanyThemes.Current.Source?
    var version: Int64?

    init(_ current: CompanyThemes.Current) {
        theme = current.theme
        logo = current.logo == nil ? nil : "/v1/theme/logo"
        source = current.source
        version = current.version
    }

    init(shipped entry: ThemeCatalog.Entry) {
        theme = entry.theme
        logo = nil
    }

    enum CodingKeys: String, CodingKey {
        case id, name, colours, categoryColours, font, logo, reportFooter, locale, units, source, version
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(theme.id, forKey: .id)
        try container.encode(theme.name, forKey: .name)
        try container.encode(Colours(theme.colours), forKey: .colours)
        try container.encode(ByKey(theme.categoryColours.mapValues(\.description)), forKey: .categoryColours)
        try container.encode(theme.font, forKey: .font)
        try container.encode(logo, forKey: .logo)
        try container.encode(theme.reportFooter, forKey: .reportFooter)
        try container.encode(theme.locale, forKey: .locale)
        try container.encode(theme.units.rawValue, forKey: .units)
        if let source { try container.encode(source.rawValue, forKey: .source) }
        if let version { try container.encode(version, forKey: .version) }
    }

    /// In the order a reader expects them.
    struct Colours: Encodable {
        var tint, background, text, muted, flag, target: String

        init(_ colours: Theme.Colours) {
            (tint, background, text, muted) = (
                colours.tint.description, colours.background.description, colours.text.description, colours.muted.description
            )
            (flag, target) = (colours.flag.description, colours.target.description)
        }
    }
}
