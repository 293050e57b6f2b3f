import Foundation
import HealthwheelCore
import Logging
import Media
import Reports
import StoreContract
import Synchronization

/// A company's branding: a shipped theme or the company's own, and its own logo. Every trainer reads it (apps
/// style themselves from it); an admin changes it.
///
/// A logo is decoded once: when it is uploaded (its header measured first, then scaled to `ReportLogo`'s size and
/// that copy stored beside the original), or once per server for a logo stored earlier or shipped. Reports draw
/// the decoded copy; no report decodes a logo.
public struct CompanyThemes: Sendable {
    let themes: any ThemeRepository
    /// The shipped themes a company may pick from (`pick(_:by:)` checks the id against it).
    public let catalog: ThemeCatalog
    let clock: any WallClock
    let logger: Logger
    /// Where logos are read and decoded: never in the server's process.
    let mediaWorkers: MediaWorkers
    /// The categories a company's own theme may colour: those it sees (nil: not checked).
    let exercises: ExerciseCatalog?
    /// Each company's theme as last resolved: a company's own document is parsed, and its logo decoded, once per
    /// change, not on every drawn wheel and report. One entry per company (its logo at most 1 MiB of pixels);
    /// the catalog does not change while the server runs.
    private let resolved = Resolved()

    private final class Resolved: Sendable {
        /// The version resolved for each company, and its theme: a task, so that requests arriving together for
        /// a new version wait for one resolution instead of each decoding the logo.
        let byCompany = Mutex<[UUID: (version: Int64, current: Task<Current, Never>)]>([:])
        /// Shipped themes' logos, decoded, by theme id: shared by every company that picks the theme.
        let shippedLogos = Mutex<[String: Task<ReportLogo?, Never>]>([:])
    }

    /// One per process (`UseCases` builds it), so each company's theme is resolved and its logo decoded once.
    public init(
        themes: any ThemeRepository,
        catalog: ThemeCatalog,
        exercises: ExerciseCatalog? = nil,
        mediaWorkers: MediaWorkers,
        clock: any WallClock,
        logger: Logger
    ) {
        self.themes = themes
        self.mediaWorkers = mediaWorkers
        self.catalog = catalog
        self.exercises = exercises
        self.clock = clock
        self.logger = logger
    }

    /// The theme in force for a company, with the logo to show.
    public struct Current: Sendable, Equatable {
        /// Where the theme came from: one of the server's themes (also the fallback), or the company's own document.
        public enum Source: String, Sendable {
            case shipped, company
        }

        /// The theme in force: the company's choice, or the default theme when it has none or its choice no longer
        /// resolves (a shipped theme removed, an own document that today's rules refuse).
        public var theme: Theme
        /// The company's own logo as uploaded if it has one, else the shipped theme's, if any.
        public var logo: [UInt8]?
        /// `logo` as reports draw it, decoded. Nil without a logo, and for a logo stored before logos were
        /// measured that is too large or does not decode: reports then show none (and a warning is logged).
        public var reportLogo: ReportLogo?
        /// `shipped` also when the company's own document no longer parses and the default stands in for it.
        public var source: Source
        /// Moves on every change of theme or logo: what caches of drawn wheels and reports are keyed by.
        public var version: Int64
    }

    /// The company's theme for any trainer to read; from memory while its stored version is unchanged. With the
    /// theme's version in `freshness` (read with the caller's session), a theme resolved at that version is
    /// answered without reading the store.
    public func current(for company: UUID, freshness: Freshness = .unknown) async throws -> Current {
        if let knownVersion = freshness.themeVersion, let known = resolved.byCompany.withLock({ $0[company] }), known.version == knownVersion {
            return await known.current.value
        }
        return await current(of: try await themes.find(company: company), company: company)
    }

    /// The language a reader of the company gets: `asked` (refused as `lang` unless reports are written in it),
    /// else the company theme's (`freshness` as in `current(for:freshness:)`).
    public func readerLanguage(asked: String?, company: UUID, freshness: Freshness = .unknown) async throws -> String {
        if let asked { return try readerStrings(asked: asked, themeLanguage: "en").language }
        return try await current(for: company, freshness: freshness).theme.locale
    }

    /// Picks a theme shipped in `Themes/`.
    public func pick(_ id: String, by admin: Trainer) async throws -> Current {
        try admin.requireAdmin(to: "change the company's theme")
        let now = clock.now
        guard catalog[id] != nil else {
            let ids = catalog.entries.keys.sorted().joined(separator: ", ")
            throw ServiceError.invalid("themeId", "is not a theme of this server (\(ids))")
        }
        return await current(
            of: try await themes.setChoice(.shipped(id), of: admin.companyId, at: now, audit: Self.changed(by: admin, at: now)),
            company: admin.companyId
        )
    }

    /// Makes `document` the company's own theme. Its problems are named under `field` (the key it came in).
    public func upload(_ document: JSONValue, field: String, by admin: Trainer) async throws -> Current {
        try admin.requireAdmin(to: "change the company's theme")
        let now = clock.now
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
        if let exercises {
            let seen = Set(exercises.categories(for: admin.companyId).map(\.pack.id))
            let unknown = theme.categoryColours.keys.filter { !seen.contains($0) }.sorted()
            if !unknown.isEmpty {
                let message = "is not a category of your company (GET /v1/categories)"
                throw ServiceError.unknownReference(unknown.map { FieldError(Self.path(field, "categoryColours.\($0)"), message) })
            }
        }
        return await current(
            of: try await themes.setChoice(.own(theme.document), of: admin.companyId, at: now, audit: Self.changed(by: admin, at: now)),
            company: admin.companyId
        )
    }

    /// The audit line of a change to the company's theme or logo.
    static func changed(by admin: Trainer, at now: Date) -> AuditEvent {
        .company(.changed, .theme, id: nil, in: admin.companyId, by: .trainer(admin.id), at: now)
    }

    /// Replaces the company's own logo (nil removes it): a PNG of at most 1 MiB and `PictureLimit.logo` pixels,
    /// measured by its header before it is decoded, then decoded once (on a drawing thread) and stored with its
    /// normalised copy. A refused logo changes nothing.
    public func setLogo(_ bytes: [UInt8]?, by admin: Trainer) async throws -> Current {
        try admin.requireAdmin(to: "change the company's theme")
        let now = clock.now
        guard let bytes else {
            return await current(
                of: try await themes.setLogo(nil, of: admin.companyId, at: now, audit: Self.changed(by: admin, at: now)),
                company: admin.companyId
            )
        }
        if let problem = ThemeCatalog.logoFileProblem(bytes) { throw ServiceError.invalid("body", problem) }
        let logo: ReportLogo
        do {
            logo = try await decode(bytes, normalised: false, company: admin.companyId, from: "upload")
        } catch let failure as MediaFailure {
            throw failure.invalid("body")
        }
        let stored = try await themes.setLogo((bytes, logo.png), of: admin.companyId, at: now, audit: Self.changed(by: admin, at: now))
        var current = chosen(stored).current
        current.reportLogo = logo
        remember(current, of: admin.companyId)
        return current
    }

    // MARK: - Resolving

    /// `stored` made whole, from the cache when this version was resolved before.
    private func current(of stored: StoredTheme, company: UUID) async -> Current {
        let resolving = resolved.byCompany.withLock { byCompany -> Task<Current, Never> in
            let known = byCompany[company]
            if let known, known.version == stored.version { return known.current }
            let task = Task { await resolve(stored, company: company, previous: known?.current) }
            // A request that read an older version than another's does not push the newer one out.
            if known.map({ $0.version < stored.version }) ?? true { byCompany[company] = (stored.version, task) }
            return task
        }
        return await resolving.value
    }

    private func remember(_ current: Current, of company: UUID) {
        resolved.byCompany.withLock { byCompany in
            if byCompany[company].map({ $0.version < current.version }) ?? true { byCompany[company] = (current.version, Task { current }) }
        }
    }

    /// The stored choice made whole, its logo decoded: kept from the version before when the logo is the same (a
    /// change of theme only), else decoded from the normalised copy, else (a logo stored before copies were
    /// kept) normalised now from the original and the copy kept.
    private func resolve(_ stored: StoredTheme, company: UUID, previous: Task<Current, Never>?) async -> Current {
        var (current, shippedLogo) = chosen(stored)
        guard let logo = current.logo else { return current }
        if let before = await previous?.value, before.logo == logo, let decoded = before.reportLogo {
            current.reportLogo = decoded
        } else if let shippedLogo {
            current.reportLogo = await shippedReportLogo(shippedLogo, bytes: logo)
        } else if let normalised = stored.reportLogo,
            let decoded = try? await decode(normalised, normalised: true, company: company, from: "stored copy")
        {
            current.reportLogo = decoded
        } else {
            do {
                let decoded = try await decode(logo, normalised: false, company: company, from: "original")
                current.reportLogo = decoded
                if stored.reportLogo == nil {
                    do {
                        _ = try await themes.keepReportLogo(decoded.png, of: company, atVersion: stored.version)
                    } catch {
                        logger.warning("the logo's normalised copy was not stored", metadata: ["company.id": "\(company)", "error": "\(error)"])
                    }
                }
            } catch {
                logger.warning(
                    "the company's logo is not shown in reports",
                    metadata: ["company.id": "\(company)", "theme.version": "\(stored.version)", "reason": "\(error)"]
                )
            }
        }
        return current
    }

    /// A shipped theme's logo, decoded once for every company that picks the theme.
    private func shippedReportLogo(_ id: String, bytes: [UInt8]) async -> ReportLogo? {
        let decoding = resolved.shippedLogos.withLock { logos -> Task<ReportLogo?, Never> in
            if let known = logos[id] { return known }
            let task = Task { () -> ReportLogo? in
                do {
                    return try await decode(bytes, normalised: false, company: nil, from: "shipped theme \(id)")
                } catch {
                    logger.warning("a shipped theme's logo is not shown in reports", metadata: ["theme.id": "\(id)", "reason": "\(error)"])
                    return nil
                }
            }
            logos[id] = task
            return task
        }
        return await decoding.value
    }

    /// Decodes a logo on a drawing thread, never on the cooperative pool, and says so in the log (at debug): one
    /// line per decoding, which is how often logos are decoded can be seen.
    private func decode(_ bytes: [UInt8], normalised: Bool, company: UUID?, from source: String) async throws -> ReportLogo {
        let logo = try await mediaWorkers.logo(bytes, normalised: normalised, company: company)
        logger.debug(
            "logo decoded",
            metadata: [
                "company.id": "\(company.map(\.uppercaseHyphenated) ?? "-")", "logo.source": "\(source)", "logo.size": "\(logo.width)x\(logo.height)",
            ]
        )
        return logo
    }

    /// The theme a stored choice stands for, and the logo it shows (its `reportLogo` not yet decoded); with the id
    /// of the shipped theme whose logo that is, if it is one. A choice that no longer resolves (a shipped theme
    /// removed from `Themes/`, a document that today's rules refuse) falls back to the default theme rather than
    /// failing every report.
    private func chosen(_ stored: StoredTheme) -> (current: Current, shippedLogo: String?) {
        let fallback = catalog[ThemeCatalog.defaultId]!
        func shipped(_ entry: ThemeCatalog.Entry) -> (Current, String?) {
            let current = Current(theme: entry.theme, logo: stored.logo ?? entry.logo, source: .shipped, version: stored.version)
            return (current, stored.logo == nil && entry.logo != nil ? entry.theme.id : nil)
        }
        switch stored.choice {
        case .own(let document):
            if let theme = try? Theme.parse(document) {
                return (Current(theme: theme, logo: stored.logo, source: .company, version: stored.version), nil)
            }
        case .shipped(let id):
            if let entry = catalog[id] { return shipped(entry) }
        case nil:
            break
        }
        return shipped(fallback)
    }

    private static func path(_ prefix: String, _ field: String) -> String {
        field == "body" ? prefix : "\(prefix).\(field)"
    }
}
