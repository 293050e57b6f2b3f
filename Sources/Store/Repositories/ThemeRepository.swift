import Foundation
import HealthwheelCore

/// What a company chose for its branding, as stored: a shipped theme or its own, and its own logo.
public struct StoredTheme: Sendable, Equatable {
    public enum Choice: Sendable, Equatable {
        /// A theme from `Themes/`, by id.
        case shipped(String)
        /// The company's own theme document (as `Theme.document` writes it).
        case own(JSONValue)
    }

    /// Nil until the company picks one: the default theme.
    public var choice: Choice?
    /// The company's own PNG logo, as uploaded.
    public var logo: [UInt8]?
    /// `logo` normalised for reports (a smaller PNG); nil without a logo, or for a logo stored before normalised
    /// copies were kept.
    public var reportLogo: [UInt8]?
    /// 0 until the first change; moves on every change.
    public var version: Int64

    public init(choice: Choice? = nil, logo: [UInt8]? = nil, reportLogo: [UInt8]? = nil, version: Int64 = 0) {
        self.choice = choice
        self.logo = logo
        self.reportLogo = reportLogo
        self.version = version
    }
}

public protocol ThemeRepository: Sendable {
    /// The company's branding; the default (no choice, no logo, version 0) when it never changed it.
    func find(company: UUID) async throws -> StoredTheme
    /// Records the company's choice of theme, keeping its logo.
    func setChoice(_ choice: StoredTheme.Choice, of company: UUID, at now: Date) async throws -> StoredTheme
    /// Replaces the company's logo and its normalised copy (nil removes both), keeping its choice of theme.
    func setLogo(_ logo: (original: [UInt8], report: [UInt8])?, of company: UUID, at now: Date) async throws -> StoredTheme
    /// Keeps `report` as the normalised copy of a logo stored without one, if the company's branding is still at
    /// `version` and has none; the version does not move (the logo is the same). False when nothing was kept.
    func keepReportLogo(_ report: [UInt8], of company: UUID, atVersion version: Int64) async throws -> Bool
}

struct SQLCipherThemeRepository: ThemeRepository {
    let database: Database
    /// Every drawn wheel and report reads its company's theme: kept off the database until a theme changes.
    private let themes: ReadCache<UUID, StoredTheme>

    init(database: Database) {
        self.database = database
        themes = ReadCache(database: database, watching: ["company_themes"])
    }

    func find(company: UUID) async throws -> StoredTheme {
        try themes.value(for: company) { try database.read { db in try Self.find(company, db) } }
    }

    func setChoice(_ choice: StoredTheme.Choice, of company: UUID, at now: Date) async throws -> StoredTheme {
        try await change(company, at: now) { $0.choice = choice }
    }

    func setLogo(_ logo: (original: [UInt8], report: [UInt8])?, of company: UUID, at now: Date) async throws -> StoredTheme {
        try await change(company, at: now) { ($0.logo, $0.reportLogo) = (logo?.original, logo?.report) }
    }

    func keepReportLogo(_ report: [UInt8], of company: UUID, atVersion version: Int64) async throws -> Bool {
        try await database.write { db in
            try db.run(
                "UPDATE company_themes SET report_logo = ? WHERE company_id = ? AND version = ? AND logo IS NOT NULL AND report_logo IS NULL",
                report,
                company,
                version
            ) > 0
        }
    }

    /// Reads, changes and writes back the company's row in one transaction; SQLite 3.15 has no UPSERT.
    private func change(_ company: UUID, at now: Date, _ edit: @escaping @Sendable (inout StoredTheme) -> Void) async throws -> StoredTheme {
        try await database.write { db in
            var theme = try Self.find(company, db)
            let isNew = theme.version == 0
            edit(&theme)
            theme.version += 1
            let (shipped, document) = try Self.columns(of: theme.choice)
            if isNew {
                try db.run(
                    "INSERT INTO company_themes (company_id, shipped_id, document, logo, report_logo, version, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    company,
                    shipped,
                    document,
                    theme.logo,
                    theme.reportLogo,
                    theme.version,
                    now
                )
            } else {
                try db.run(
                    "UPDATE company_themes SET shipped_id = ?, document = ?, logo = ?, report_logo = ?, version = ?, updated_at = ? WHERE company_id = ?",
                    shipped,
                    document,
                    theme.logo,
                    theme.reportLogo,
                    theme.version,
                    now,
                    company
                )
            }
            return theme
        }
    }

    private static func find(_ company: UUID, _ db: Connection) throws -> StoredTheme {
        guard
            let row = try db.query("SELECT shipped_id, document, logo, report_logo, version FROM company_themes WHERE company_id = ?", company).first
        else { return StoredTheme() }
        var choice: StoredTheme.Choice?
        if let shipped: String = try row["shipped_id"] {
            choice = .shipped(shipped)
        } else if let document: String = try row["document"] {
            choice = .own(try JSONDecoder().decode(JSONValue.self, from: Data(document.utf8)))
        }
        return StoredTheme(choice: choice, logo: try row["logo"], reportLogo: try row["report_logo"], version: try row["version"])
    }

    private static func columns(of choice: StoredTheme.Choice?) throws -> (shipped: String?, document: String?) {
        switch choice {
        case .shipped(let id): return (id, nil)
        case .own(let document):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return (nil, String(decoding: try encoder.encode(document), as: UTF8.self))
        case nil: return (nil, nil)
        }
    }
}
