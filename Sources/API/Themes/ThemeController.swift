import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import NIOCore
import Services

/// `/v1/theme`: the caller's company's branding, which every trainer reads and an admin changes (a shipped theme
/// by id, or the company's own document, and the company's logo); `/v1/themes`: the shipped themes.
struct ThemeController {
    let themes: CompanyThemes

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("themes", use: shipped)
        group.get("theme", use: show)
        group.put("theme", use: update)
        group.get("theme/logo", use: logo)
        group.put("theme/logo", use: putLogo)
        group.delete("theme/logo", use: deleteLogo)
    }

    /// Either `themeId` (a shipped theme) or `theme` (the company's own document).
    struct ThemeChoice: StrictJSONBody {
        static let nullableKeys: Set<String>? = []
        var themeId: String?
        var theme: JSONValue?
        enum CodingKeys: String, CodingKey, CaseIterable {
            case themeId, theme
        }
    }

    @Sendable func shipped(request: Request, context: AuthenticatedContext) async throws -> Response {
        let entries = themes.catalog.entries.values.sorted { $0.theme.id < $1.theme.id }
        return try .json(ListBody(items: entries.map(ThemeBody.init(shipped:)), nextCursor: nil))
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(ThemeBody(try await themes.current(for: context.trainer.companyId)))
    }

    @Sendable func update(request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.requireAdmin(to: "change the company's theme")
        let choice = try await request.decodeJSON(ThemeChoice.self, context: context)
        let current: CompanyThemes.Current
        switch (choice.themeId, choice.theme) {
        case (let id?, nil): current = try await themes.pick(id, by: context.trainer)
        case (nil, let document?): current = try await themes.upload(document, field: "theme", by: context.trainer)
        default: throw Problem.invalid("themeId", "send either themeId (a shipped theme) or theme (your own), not both or neither")
        }
        context.logger.info("theme changed", metadata: ["theme.id": "\(current.theme.id)", "theme.source": "\(current.source.rawValue)"])
        return try .json(ThemeBody(current))
    }

    @Sendable func logo(request: Request, context: AuthenticatedContext) async throws -> Response {
        guard let logo = try await themes.current(for: context.trainer.companyId).logo else {
            throw Problem(.notFound, slug: "not-found", detail: "this company's theme has no logo")
        }
        return Response(
            status: .ok,
            headers: [.contentType: "image/png", .cacheControl: "private, no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: logo))
        )
    }

    @Sendable func putLogo(request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.requireAdmin(to: "change the company's theme")
        _ = try request.requireMediaType(["image/png"], for: "logo")
        let bytes = Array(try await request.collectBody(upTo: ThemeCatalog.maximumLogoBytes).readableBytesView)
        return try .json(ThemeBody(try await themes.setLogo(bytes, by: context.trainer)))
    }

    @Sendable func deleteLogo(request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.requireAdmin(to: "change the company's theme")
        return try .json(ThemeBody(try await themes.setLogo(nil, by: context.trainer)))
    }
}
