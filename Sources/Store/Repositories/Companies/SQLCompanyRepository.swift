import Foundation
import HealthwheelCore
import StoreContract

struct SQLCompanyRepository: CompanyRepository {
    let database: any SQLDatabase

    func create(_ company: Company) async throws {
        try await database.write { db in
            try await db.run("INSERT INTO companies (id, name, created_at) VALUES (?, ?, ?)", company.id, company.name, company.createdAt)
        }
    }

    func find(_ id: UUID) async throws -> Company? {
        try await database.read { db in
            try await db.query("SELECT id, name, created_at FROM companies WHERE id = ?", id).first.map { row in
                Company(id: try row["id"], name: try row["name"], createdAt: try row["created_at"])
            }
        }
    }

    func settings(of id: UUID) async throws -> CompanySettings {
        try await database.read { db in try await Self.settings(of: id, db) ?? CompanySettings() }
    }

    static func settings(of id: UUID, _ db: any SQLConnection) async throws -> CompanySettings? {
        try await db.query("SELECT correction_window_seconds, wheel_flag_below FROM companies WHERE id = ?", id).first.map { row in
            CompanySettings(correctionWindowSeconds: try row["correction_window_seconds"], wheelFlagBelow: try row["wheel_flag_below"])
        }
    }

    func updateSettings(of id: UUID, audit: AuditEvent, _ change: (inout CompanySettings) throws -> Void) async throws -> CompanySettings? {
        try await database.write { db in
            try await db.lockCompany(id)
            guard var settings = try await Self.settings(of: id, db) else { return nil }
            try change(&settings)
            try await db.run(
                "UPDATE companies SET correction_window_seconds = ?, wheel_flag_below = ? WHERE id = ?",
                settings.correctionWindowSeconds,
                settings.wheelFlagBelow,
                id
            )
            try await AuditChain.append(audit, db)
            return settings
        }
    }

    func count() async throws -> Int {
        try await database.read { db in try await db.scalar("SELECT count(*) FROM companies") }
    }
}
