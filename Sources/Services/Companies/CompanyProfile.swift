import Foundation
import HealthwheelCore
import StoreContract

/// A company's settings: how long a trainer may quietly correct a result, and the score below which a wheel
/// category is flagged. Every trainer reads them; an admin changes them.
public struct CompanyProfile: Sendable {
    let companies: any CompanyRepository

    /// Works on `store.companies` only; the CLI builds one for `healthwheel company create`.
    public init(store: Repositories) {
        companies = store.companies
    }

    /// A new company named `name` (the operator's CLI; the demo company at first start).
    public func create(name: String, at now: Date) async throws -> Company {
        let company = Company(name: try InputRules.name(name), createdAt: now)
        try await companies.create(company)
        return company
    }

    /// The company with `id`, if there is one.
    public func find(_ id: UUID) async throws -> Company? {
        try await companies.find(id)
    }

    /// Whether no company exists yet (a first start).
    public func isEmpty() async throws -> Bool {
        try await companies.count() == 0
    }

    /// The company's settings, for any of its trainers to read; the defaults when `company` is no company's id.
    public func settings(of company: UUID) async throws -> CompanySettings {
        try await companies.settings(of: company)
    }

    /// Applies `edit` to the settings of the admin's company.
    public func updateSettings(with edit: CompanySettings.Edit, by admin: Trainer, at now: Date) async throws -> CompanySettings {
        try admin.requireAdmin(to: "change the company's settings")
        let audit = AuditEvent.company(.changed, .company, id: nil, in: admin.companyId, by: .trainer(admin.id), at: now)
        guard let settings = try await companies.updateSettings(of: admin.companyId, audit: audit, { try edit.apply(to: &$0) }) else {
            throw ServiceError.notFound("company")
        }
        return settings
    }
}
