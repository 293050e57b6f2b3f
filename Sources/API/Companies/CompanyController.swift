import Foundation
import HealthwheelCore
import Hummingbird
import Services

/// `/v1/company`: the caller's company and its scoring settings; an admin changes the settings.
struct CompanyController {
    let profile: CompanyProfile
    let clock: any WallClock

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("company", use: show)
        group.patch("company", use: update)
    }

    struct CompanyBody: Encodable {
        var id: UUID
        var name: String
        var createdAt: Date
        var correctionWindowSeconds: Int
        var wheelFlagBelow: Double

        init(_ company: Company, _ settings: CompanySettings) {
            id = company.id
            name = company.name
            createdAt = company.createdAt
            correctionWindowSeconds = settings.correctionWindowSeconds
            wheelFlagBelow = settings.wheelFlagBelow
        }
    }

    struct SettingsRequest: StrictJSONBody {
        static let nullableKeys: Set<String>? = []
        var edit: CompanySettings.Edit
        typealias CodingKeys = CompanySettings.Edit.CodingKeys

        init(from decoder: any Decoder) throws {
            edit = try CompanySettings.Edit(from: decoder)
        }
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        let company = context.principal.company
        return try .json(CompanyBody(company, try await profile.settings(of: company.id)))
    }

    @Sendable func update(request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.requireAdmin(to: "change the company's settings")
        let body = try await request.decodeJSON(SettingsRequest.self, context: context)
        let company = context.principal.company
        let settings = try await profile.updateSettings(with: body.edit, by: context.trainer, at: clock.now)
        context.logger.info(
            "company settings changed",
            metadata: ["correctionWindowSeconds": "\(settings.correctionWindowSeconds)", "wheelFlagBelow": "\(settings.wheelFlagBelow)"]
        )
        return try .json(CompanyBody(company, settings))
    }
}
