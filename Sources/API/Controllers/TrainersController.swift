import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import Store

/// `/v1/trainers`: admins manage their company's trainers; a trainer may read and edit their own profile.
/// Every lookup is scoped to the caller's company, so another company's id answers 404 like a missing one.
struct TrainersController {
    let trainers: any TrainerRepository
    let passwords: PasswordService
    let clock: any WallClock

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("trainers", use: list)
        group.post("trainers", use: create)
        group.get("trainers/:id", use: show)
        group.patch("trainers/:id", use: update)
        group.delete("trainers/:id", use: delete)
    }

    // MARK: - Bodies

    struct NewTrainer: StrictJSONBody {
        var email: String
        var name: String
        var role: String
        var password: String
        enum CodingKeys: String, CodingKey, CaseIterable {
            case email, name, role, password
        }
    }

    struct TrainerChanges: StrictJSONBody {
        var email: String?
        var name: String?
        var role: String?
        var password: String?
        /// Required when a trainer changes their own password.
        var currentPassword: String?
        enum CodingKeys: String, CodingKey, CaseIterable {
            case email, name, role, password, currentPassword
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            email = try container.decodeIfPresentNotNull(String.self, forKey: .email)
            name = try container.decodeIfPresentNotNull(String.self, forKey: .name)
            role = try container.decodeIfPresentNotNull(String.self, forKey: .role)
            password = try container.decodeIfPresentNotNull(String.self, forKey: .password)
            currentPassword = try container.decodeIfPresentNotNull(String.self, forKey: .currentPassword)
        }
    }

    // MARK: - Handlers

    @Sendable func list(request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.requireAdmin()
        let query = try ListQuery(request.uri)
        let page = try await trainers.list(in: context.trainer.companyId, after: query.cursor, limit: query.limit)
        return try .json(ListBody(items: page.items, nextCursor: page.nextCursor?.token))
    }

    @Sendable func create(request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.requireAdmin()
        let body = try await request.decodeJSON(NewTrainer.self, context: context)
        var problems = FieldErrorCollector()
        let email = problems.check { () throws(ValidationError) in try InputRules.email(body.email) }
        let name = problems.check { () throws(ValidationError) in try InputRules.name(body.name) }
        let role = problems.check { () throws(ValidationError) in try Self.role(body.role) }
        problems.check { () throws(ValidationError) in try InputRules.newPassword(body.password) }
        try problems.throwIfAny()  // from here on every checked value is present

        let now = clock.now
        let trainer = Trainer(companyId: context.trainer.companyId, email: email!, name: name!, role: role!, createdAt: now, updatedAt: now)
        let hash = try await passwords.hash(body.password)
        try await mapEmailTaken { try await trainers.create(trainer, passwordHash: hash) }
        context.logger.info("trainer created", metadata: ["created.id": "\(trainer.id)"])
        return try .json(trainer, status: .created, headers: [.location: "/v1/trainers/\(trainer.id.uuidString)"])
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        let target = try await findTarget(request, context)
        try TrainerRules.checkProfileAccess(actor: context.trainer, target: target)
        return try .json(target)
    }

    @Sendable func update(request: Request, context: AuthenticatedContext) async throws -> Response {
        let target = try await findTarget(request, context)
        try TrainerRules.checkProfileAccess(actor: context.trainer, target: target)
        let body = try await request.decodeJSON(TrainerChanges.self, context: context)

        var problems = FieldErrorCollector()
        let email = body.email.flatMap { value in problems.check { () throws(ValidationError) in try InputRules.email(value) } }
        let name = body.name.flatMap { value in problems.check { () throws(ValidationError) in try InputRules.name(value) } }
        let role = body.role.flatMap { value in problems.check { () throws(ValidationError) in try Self.role(value) } }
        if let password = body.password {
            problems.check { () throws(ValidationError) in try InputRules.newPassword(password) }
        }
        let isSelf = target.id == context.trainer.id
        if body.password != nil && isSelf && body.currentPassword == nil {
            problems.add("currentPassword", "is required to change your own password")
        }
        if body.currentPassword != nil && body.password == nil {
            problems.add("currentPassword", "is only used together with password")
        }
        try problems.throwIfAny()

        var newHash: String?
        if let password = body.password {
            if isSelf, let current = body.currentPassword {
                let stored = try await trainers.credentials(id: target.id, in: target.companyId)
                guard try await passwords.verify(current, against: stored?.passwordHash) else {
                    throw Problem(
                        .forbidden,
                        slug: "wrong-password",
                        detail: "currentPassword is not correct",
                        errors: [FieldError("currentPassword", "is not correct")]
                    )
                }
            }
            newHash = try await passwords.hash(password)
        }

        let actor = context.trainer
        let now = clock.now
        let updated = try await mapEmailTaken {
            try await trainers.update(
                target.id,
                in: actor.companyId,
                newPasswordHash: newHash,
                keepingSession: isSelf ? context.tokenDigest : nil
            ) { trainer, adminCount in
                if let role { try TrainerRules.checkRoleChange(actor: actor, target: trainer, to: role, adminCount: adminCount) }
                let before = trainer
                trainer.email = email ?? trainer.email
                trainer.name = name ?? trainer.name
                trainer.role = role ?? trainer.role
                if trainer != before || newHash != nil { trainer.updatedAt = now }
            }
        }
        guard let updated else { throw Problem.notFound("trainer") }
        return try .json(updated)
    }

    @Sendable func delete(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let id = try Self.id(request, context)
        let actor = context.trainer
        let deleted = try await trainers.delete(id, in: actor.companyId) { target, adminCount in
            try TrainerRules.checkRemoval(actor: actor, target: target, adminCount: adminCount)
        }
        guard deleted else { throw Problem.notFound("trainer") }
        context.logger.info("trainer deleted", metadata: ["deleted.id": "\(id)"])
        return .noContent
    }

    // MARK: - Helpers

    private func findTarget(_ request: Request, _ context: AuthenticatedContext) async throws -> Trainer {
        let id = try Self.id(request, context)
        guard let target = try await trainers.find(id, in: context.trainer.companyId) else { throw Problem.notFound("trainer") }
        return target
    }

    /// A path id that is not a UUID cannot name anything: 404, like any unknown id.
    private static func id(_ request: Request, _ context: AuthenticatedContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("trainer") }
        return id
    }

    private static func role(_ value: String) throws(ValidationError) -> Role {
        guard let role = Role(rawValue: value) else {
            throw ValidationError("role", "must be one of: \(Role.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return role
    }

    private func mapEmailTaken<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch TrainerRepositoryError.emailTaken {
            throw Problem.emailTaken
        }
    }
}

extension Problem {
    static let emailTaken = Problem(
        .conflict,
        slug: "email-taken",
        detail: "this email is already used by another account",
        errors: [FieldError("email", "is already used by another account")]
    )
}
