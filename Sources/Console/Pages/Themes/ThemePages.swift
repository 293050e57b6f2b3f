import Foundation
import HealthwheelCore
import Hummingbird
import NIOCore
import Services

/// `/admin/theme`: pick a shipped theme, or edit the company's colours, language, units and footer with a live
/// preview of the wheel drawn in them; upload the logo.
struct ThemePages: Sendable {
    let useCases: UseCases
    let frames: Frames

    /// The colours a theme has, in the order the form shows them.
    static let colourKeys = ["tint", "background", "text", "muted", "flag", "target"]

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.get("admin/theme", use: page)
        group.post("admin/theme/pick", use: pick)
        group.post("admin/theme", use: save)
        group.get("admin/theme/preview.svg", use: preview)
        group.post("admin/theme/logo", use: logo)
        group.get("admin/theme/logo.png", use: currentLogo)
    }

    struct ThemePage {
        var shipped: [ShippedTheme]
        var colours: [ColourInput]
        var name: String
        var footer: String
        var languages: [RosterPages.Choice]
        var unitChoices: [RosterPages.Choice]
        var fonts: [RosterPages.Choice]
        var preview: String
        var source: String
        var hasLogo: Bool
        var errors: [String: String]
        var errorList: [ConsolePageErrors.FieldLine]
    }

    struct ShippedTheme {
        var id: String
        var name: String
        var current: Bool
        var preview: String
    }

    struct ColourInput {
        var key: String
        var label: String
        var value: String
    }

    @Sendable func page(request: Request, context: SignedInContext) async throws -> Response {
        try await render(request, context, edited: nil, errors: [], status: .ok)
    }

    private func render(
        _ request: Request,
        _ context: SignedInContext,
        edited: Theme?,
        errors: [FieldError],
        status: HTTPResponse.Status
    )
        async throws -> Response
    {
        try context.trainer.requireAdmin(to: "change the company's theme")
        let framed = try await frames.frame(request, context, title: "admin.theme.title", section: "admin")
        let strings = framed.strings
        let errors = strings.refusals(errors)
        let current = framed.theme
        let theme = edited ?? current.theme
        // Which shipped theme is in force (its id), or none when the company's own is.
        let source = current.source == .shipped ? current.theme.id : "own"
        let content = ThemePage(
            shipped: useCases.themes.catalog.entries.values.map(\.theme).sorted { $0.name < $1.name }.map { shipped in
                ShippedTheme(
                    id: shipped.id,
                    name: shipped.name,
                    current: source == shipped.id,
                    preview: "/admin/theme/preview.svg?" + Self.query(shipped)
                )
            },
            colours: Self.colourKeys.map { key in
                ColourInput(key: key, label: strings.text("admin.theme.colours.\(key)"), value: Self.colour(key, of: theme).description)
            },
            name: theme.name,
            footer: theme.reportFooter ?? "",
            languages: Theme.languages.map { RosterPages.Choice(value: $0, label: strings.text("languages.\($0)"), selected: $0 == theme.locale) },
            unitChoices: Theme.Units.allCases.map {
                RosterPages.Choice(value: $0.rawValue, label: strings.text("admin.theme.units.\($0.rawValue)"), selected: $0 == theme.units)
            },
            fonts: Theme.fonts.map { RosterPages.Choice(value: $0, label: $0, selected: $0 == theme.font) },
            preview: "/admin/theme/preview.svg?" + Self.query(theme),
            source: source,
            hasLogo: current.logo != nil,
            errors: errors.byField,
            errorList: errors.map { .init(field: $0.field, message: $0.message) }
        )
        return try frames.page("admin-theme", content, framed, status: status)
    }

    static func colour(_ key: String, of theme: Theme) -> HexColour {
        let colours = theme.colours
        switch key {
        case "tint": return colours.tint
        case "background": return colours.background
        case "text": return colours.text
        case "muted": return colours.muted
        case "flag": return colours.flag
        default: return colours.target
        }
    }

    /// The preview's query: a theme's colours (without `#`).
    static func query(_ theme: Theme) -> String {
        colourKeys.map { "\($0)=\(colour($0, of: theme).description.dropFirst())" }.joined(separator: "&")
    }

    @Sendable func pick(request: Request, context: SignedInContext) async throws -> Response {
        _ = try await useCases.themes.companies.pick(context.form["theme"] ?? "", by: context.trainer)
        return Notice.redirect("/admin/theme", "themeSaved").response
    }

    /// The edited theme as a document: the current theme's, with what the form changes.
    private func document(_ form: FormFields, over current: Theme) -> JSONValue {
        guard case .object(var members) = current.document else { return current.document }
        var colours: [String: JSONValue] = [:]
        for key in Self.colourKeys { colours[key] = .string(form[key] ?? Self.colour(key, of: current).description) }
        members["colours"] = .object(colours)
        members["id"] = .string("own")
        if let name = form.text("name") { members["name"] = .string(name) }
        members["reportFooter"] = form.text("footer").map(JSONValue.string) ?? .null
        if let locale = form.text("locale") { members["locale"] = .string(locale) }
        if let units = form.text("units") { members["units"] = .string(units) }
        if let font = form.text("font") { members["font"] = .string(font) }
        members["logo"] = .null
        return .object(members)
    }

    @Sendable func save(request: Request, context: SignedInContext) async throws -> Response {
        let current = try await useCases.themes.companies.current(for: context.company)
        let edited = document(context.form, over: current.theme)
        do {
            _ = try await useCases.themes.companies.upload(edited, field: "theme", by: context.trainer)
        } catch  where !error.formErrors.isEmpty {
            return try await render(request, context, edited: try? Theme.parse(edited), errors: error.formErrors, status: .unprocessableContent)
        }
        return Notice.redirect("/admin/theme", "themeSaved").response
    }

    /// A sample wheel in the colours of the query (the company's theme for any not given): what the form's preview
    /// shows, redrawn as colours are picked.
    @Sendable func preview(request: Request, context: SignedInContext) async throws -> Response {
        try context.trainer.requireAdmin(to: "change the company's theme")
        let current = try await useCases.themes.companies.current(for: context.company, freshness: context.principal.freshness)
        var form = FormFields()
        for key in Self.colourKeys {
            if let value = request.uri.queryParameters[key[...]].map(String.init), value.count == 6 { form.append(key, "#" + value) }
        }
        // Colours that do not parse, or fail the contrast rules, draw in the company's own.
        let theme = (try? Theme.parse(document(form, over: current.theme))) ?? current.theme
        let language = ConsoleStrings.language(accepting: request.headers[.acceptLanguage], fallback: theme.locale)
        let svg = try useCases.wheels.pictures.sample(company: context.company, theme: theme, language: language)
        return Picture.response(svg, contentType: "image/svg+xml", cacheControl: "private, max-age=3600")
    }

    @Sendable func logo(request: Request, context: SignedInContext) async throws -> Response {
        try context.trainer.requireAdmin(to: "change the company's theme")
        let file = try await UploadedFile.read(request, limit: ThemeCatalog.maximumLogoBytes)
        _ = try await useCases.themes.companies.setLogo(file.bytes, by: context.trainer)
        return Notice.redirect("/admin/theme", "logoSaved").response
    }

    @Sendable func currentLogo(request: Request, context: SignedInContext) async throws -> Response {
        let current = try await useCases.themes.companies.current(for: context.company, freshness: context.principal.freshness)
        guard let logo = current.logo else { throw ServiceError.notFound("logo") }
        return Response(
            status: .ok,
            headers: [.contentType: "image/png", .cacheControl: "private, no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: logo))
        )
    }
}
