import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import Services
import StoreContract

/// `/v1/trainers`: admins manage their company's trainers; a trainer may read and edit their own profile.
/// Every lookup is scoped to the caller's company, so another company's id answers 404 like a missing one.
struct TrainersController {
    let accounts: TrainerAccounts

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("trainers", use: list)
        group.post("trainers", use: create)
        group.get("trainers/:id", use: show)
        group.patch("trainers/:id", use: update)
        group.delete("trainers/:id", use: delete)
    }

    // MARK: - Bodies

    struct NewTrainerRequest: StrictJSONBody {
        static let nullableKeys: Set<String>? = []
        var email: String
        var name: String
        var role: String
        var password: String
        enum CodingKeys: String, CodingKey, CaseIterable {
            case email, name, role, password
        }
    }

    struct TrainerChanges: StrictJSONBody {
        static let nullableKeys: Set<String>? = []
        var edit: TrainerEdit
        enum CodingKeys: String, CodingKey, CaseIterable {
            case email, name, role, password, currentPassword
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            edit = TrainerEdit(
                email: try container.decodeIfPresentNotNull(String.self, forKey: .email),
                name: try container.decodeIfPresentNotNull(String.self, forKey: .name),
                role: try container.decodeIfPresentNotNull(String.self, forKey: .role),
                password: try container.decodeIfPresentNotNull(String.self, forKey: .password),
                currentPassword: try container.decodeIfPresentNotNull(String.self, forKey: .currentPassword)
            )
        }
    }

    // MARK: - Handlers

    @Sendable func list(request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.requireAdmin(to: "list the company's trainers")
        let query = try ListQuery(request.uri)
        let page = try await accounts.list(by: context.trainer, after: query.cursor, limit: query.limit)
        return try .json(ListBody(items: page.items, nextCursor: page.nextCursor?.token))
    }

    @Sendable func create(request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.requireAdmin(to: "add trainers")
        let body = try await request.decodeJSON(NewTrainerRequest.self, context: context)
        let new = NewTrainer(email: body.email, name: body.name, role: body.role, password: body.password)
        let trainer = try await accounts.create(new, by: context.trainer)
        context.logger.info("trainer created", metadata: ["created.id": "\(trainer.id)"])
        return try .json(trainer, status: .created, headers: [.location: "/v1/trainers/\(trainer.id.uppercaseHyphenated)"])
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        try .json(try await accounts.profile(try context.id(of: "trainer"), by: context.trainer))
    }

    /// The profile is looked up (and access checked) before the body is read, so a caller learns nothing about
    /// a trainer they may not see from how their body is refused.
    @Sendable func update(request: Request, context: AuthenticatedContext) async throws -> Response {
        let target = try await accounts.profile(try context.id(of: "trainer"), by: context.trainer)
        let body = try await request.decodeJSON(TrainerChanges.self, context: context)
        return try .json(try await accounts.update(target, with: body.edit, by: context.trainer, session: context.tokenDigest))
    }

    @Sendable func delete(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let id = try context.id(of: "trainer")
        try await accounts.delete(id, by: context.trainer)
        context.logger.info("trainer deleted", metadata: ["deleted.id": "\(id)"])
        return .noContent
    }
}
