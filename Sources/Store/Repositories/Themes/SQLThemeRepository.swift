import Foundation
import HealthwheelCore
import StoreContract

struct SQLThemeRepository: ThemeRepository {
    let database: any SQLDatabase
    /// Every drawn wheel and report reads its company's theme: kept off the database until a theme changes.
    private let themes: ReadCache<UUID, StoredTheme>

    init(database: any SQLDatabase) {
        self.database = database
        themes = ReadCache(database: database, watching: ["company_themes"])
    }

    func find(company: UUID) async throws -> StoredTheme {
        try await themes.value(for: company) { try await database.read { db in try await Self.find(company, db) } }
    }

    func setChoice(_ choice: StoredTheme.Choice, of company: UUID, at now: Date, audit: AuditEvent) async throws -> StoredTheme {
        try await change(company, at: now, audit: audit) { $0.choice = choice }
    }

    func setLogo(_ logo: (original: [UInt8], report: [UInt8])?, of company: UUID, at now: Date, audit: AuditEvent) async throws -> StoredTheme {
        try await change(company, at: now, audit: audit) { ($0.logo, $0.reportLogo) = (logo?.original, logo?.report) }
    }

    func keepReportLogo(_ report: [UInt8], of company: UUID, atVersion version: Int64) async throws -> Bool {
        try await database.write { db in
            try await db.run(
                "UPDATE company_themes SET report_logo = ? WHERE company_id = ? AND version = ? AND logo IS NOT NULL AND report_logo IS NULL",
                report,
                company,
                version
            ) > 0
        }
    }

    /// Reads, changes and writes back the company's row in one transaction; SQLite 3.15 has no UPSERT.
    private func change(
        _ company: UUID,
        at now: Date,
        audit: AuditEvent,
        _ edit: @escaping @Sendable (inout StoredTheme) -> Void
    ) async throws -> StoredTheme {
        try await database.write { db in
            try await db.lockCompany(company)
            try await AuditChain.append(audit, db)
            var theme = try await Self.find(company, db)
            let isNew = theme.version == 0
            edit(&theme)
            theme.version += 1
            let (shipped, document) = try Self.columns(of: theme.choice)
            if isNew {
                try await db.run(
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
                try await db.run(
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

    private static func find(_ company: UUID, _ db: any SQLConnection) async throws -> StoredTheme {
        guard
            let row = try await db.query("SELECT shipped_id, document, logo, report_logo, version FROM company_themes WHERE company_id = ?", company)
                .first
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
