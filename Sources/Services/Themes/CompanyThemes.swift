import Foundation
import HealthwheelCore
import Store
import Synchronization

/// A company's branding: a shipped theme or the company's own, and its own logo. Every trainer reads it (apps
/// style themselves from it); an admin changes it.
public struct CompanyThemes: Sendable {
    let themes: any ThemeRepository
    public let catalog: ThemeCatalog
    let clock: any WallClock
    /// Each company's theme as last resolved: a company's own document is parsed once per change, not on every
    /// drawn wheel and report. One entry per company; the catalog does not change while the server runs.
    private let resolved = Resolved()

    private final class Resolved: Sendable {
        let byCompany = Mutex<[UUID: Current]>([:])
    }

    public init(themes: any ThemeRepository, catalog: ThemeCatalog, clock: any WallClock) {
        self.themes = themes
        self.catalog = catalog
        self.clock = clock
    }

    /// The theme in force for a company, with the logo to show.
    public struct Current: Sendable, Equatable {
        public enum Source: String, Sendable {
            case shipped, company
        }

        public var theme: Theme
        /// The company's own logo if it uploaded one, else the shipped theme's, if any.
        public var logo: [UInt8]?
        public var source: Source
        /// Moves on every change of theme or logo: what caches of drawn wheels and reports are keyed by.
        public var version: Int64
    }

    public func current(for company: UUID) async throws -> Current {
        let stored = try await themes.find(company: company)
        if let known = resolved.byCompany.withLock({ $0[company] }), known.version == stored.version { return known }
        let current = resolve(stored)
        resolved.byCompany.withLock { $0[company] = current }
        return current
    }

    /// Picks a theme shipped in `Themes/`.
    public func pick(_ id: String, by admin: Trainer) async throws -> Current {
        try requireAdmin(admin)
        guard catalog[id] != nil else {
            let ids = catalog.entries.keys.sorted().joined(separator: ", ")
            throw ServiceError.invalid("themeId", "is not a theme of this server (\(ids))")
        }
        return resolve(try await themes.setChoice(.shipped(id), of: admin.companyId, at: clock.now))
    }

    /// Makes `document` the company's own theme. Its problems are named under `field` (the key it came in).
    public func upload(_ document: JSONValue, field: String, by admin: Trainer) async throws -> Current {
        try requireAdmin(admin)
        var problems: [FieldError] = []
        var theme: Theme?
        do {
            theme = try Theme.parse(document)
        } catch {
            problems = error.errors.filter { $0.field != "logo" }
        }
        if let logo = document["logo"], logo != .null {
            problems.append(FieldError("logo", "a company's own logo is uploaded with PUT /v1/theme/logo"))
        }
        guard let theme, problems.isEmpty else {
            throw ServiceError.invalid(problems.map { FieldError(Self.path(field, $0.field), $0.message) })
        }
        return resolve(try await themes.setChoice(.own(theme.document), of: admin.companyId, at: clock.now))
    }

    /// Replaces the company's own logo (nil removes it): a PNG of at most 1 MiB.
    public func setLogo(_ bytes: [UInt8]?, by admin: Trainer) async throws -> Current {
        try requireAdmin(admin)
        if let bytes, let problem = ThemeCatalog.logoProblem(bytes) { throw ServiceError.invalid("body", problem) }
        return resolve(try await themes.setLogo(bytes, of: admin.companyId, at: clock.now))
    }

    /// The stored choice made whole. A choice that no longer resolves (a shipped theme removed from `Themes/`, a
    /// document that today's rules refuse) falls back to the default theme rather than failing every report.
    private func resolve(_ stored: StoredTheme) -> Current {
        let fallback = catalog[ThemeCatalog.defaultId]!
        switch stored.choice {
        case .own(let document):
            if let theme = try? Theme.parse(document) {
                return Current(theme: theme, logo: stored.logo, source: .company, version: stored.version)
            }
        case .shipped(let id):
            if let entry = catalog[id] {
                return Current(theme: entry.theme, logo: stored.logo ?? entry.logo, source: .shipped, version: stored.version)
            }
        case nil:
            break
        }
        return Current(theme: fallback.theme, logo: stored.logo ?? fallback.logo, source: .shipped, version: stored.version)
    }

    private func requireAdmin(_ trainer: Trainer) throws {
        guard trainer.role == .admin else { throw ServiceError.forbidden(detail: "only an admin can change the company's theme") }
    }

    private static func path(_ prefix: String, _ field: String) -> String {
        field == "body" ? prefix : "\(prefix).\(field)"
    }
}
