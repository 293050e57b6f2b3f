import Foundation
import HealthwheelCore

public protocol CompanyRepository: Sendable {
    func create(_ company: Company) async throws
    func find(_ id: UUID) async throws -> Company?
    func count() async throws -> Int
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

    func count() async throws -> Int {
        try database.read { db in try db.scalar("SELECT count(*) FROM companies") }
    }
}
