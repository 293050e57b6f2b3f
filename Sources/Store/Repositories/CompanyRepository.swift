import Foundation
import HealthwheelCore

public protocol CompanyRepository: Sendable {
    func create(_ company: Company) async throws
    func find(_ id: UUID) async throws -> Company?
    func count() async throws -> Int
    func settings(of id: UUID) async throws -> CompanySettings
}

/// A company's scoring settings.
public struct CompanySettings: Sendable, Equatable {
    /// How long after recording a result the same trainer may replace it with `amendRecent`.
    public var correctionWindow: TimeInterval = 60
    /// Wheel slices scoring below this are flagged.
    public var wheelFlagBelow: Double = 4

    public init() {}
}

struct SQLCipherCompanyRepository: CompanyRepository {
    let database: Database

    func create(_ company: Company) async throws {
        try database.write { db in
            try db.run("INSERT INTO companies (id, name, created_at) VALUES (?, ?, ?)", company.id, company.name, company.createdAt)
        }
    }

    func find(_ id: UUID) async throws -> Company? {
        try database.read { db in
            try db.query("SELECT id, name, created_at FROM companies WHERE id = ?", id).first.map { row in
                Company(id: try row["id"], name: try row["name"], createdAt: try row["created_at"])
            }
        }
    }

    func settings(of id: UUID) async throws -> CompanySettings {
        try database.read { db in
            var settings = CompanySettings()
            if let row = try db.query("SELECT correction_window_seconds, wheel_flag_below FROM companies WHERE id = ?", id).first {
                settings.correctionWindow = TimeInterval(try row["correction_window_seconds"] as Int)
                settings.wheelFlagBelow = try row["wheel_flag_below"]
            }
            return settings
        }
    }

    func count() async throws -> Int {
        try database.read { db in try db.scalar("SELECT count(*) FROM companies") }
    }
}
