import Foundation
import HealthwheelCore
import Store

/// A company's settings: how long a trainer may quietly correct a result, and the score below which a wheel
/// category is flagged. Every trainer reads them; an admin changes them.
public struct CompanyProfile: Sendable {
    let companies: any CompanyRepository

    public init(companies: any CompanyRepository) {
        self.companies = companies
    }

    public func settings(of company: UUID) async throws -> CompanySettings {
        try await companies.settings(of: company)
    }

    /// Applies `edit` to the settings of the admin's company.
    public func updateSettings(with edit: CompanySettings.Edit, by admin: Trainer) async throws -> CompanySettings {
        guard admin.role == .admin else { throw ServiceError.forbidden(detail: "only an admin can change the company's settings") }
        guard let settings = try await companies.updateSettings(of: admin.companyId, { try edit.apply(to: &$0) }) else {
            throw ServiceError.notFound("company")
        }
        return settings
    }
}
