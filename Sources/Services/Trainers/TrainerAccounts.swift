import Foundation
import HealthwheelCore
import StoreContract

/// A company's trainers: admins add and remove them; a trainer reads and edits their own profile. Every lookup
/// is scoped to the actor's company, so another company's id is refused like a missing one.
public struct TrainerAccounts: Sendable {
    let trainers: any TrainerRepository
    let passwords: any PasswordHashing
    let clock: any WallClock

    let companies: any CompanyRepository

    /// One per process (`UseCases` builds it); the CLI builds its own for `healthwheel trainer create`.
    public init(store: Repositories, passwords: any PasswordHashing, clock: any WallClock) {
        trainers = store.trainers
        companies = store.companies
        self.passwords = passwords
        self.clock = clock
    }

    /// A page of the admin's company's trainers by name (case-insensitive), then id.
    public func list(by admin: Trainer, after cursor: Cursor?, limit: Int) async throws -> Page<Trainer> {
        try admin.requireAdmin(to: "list the company's trainers")
        return try await trainers.list(in: admin.companyId, after: cursor, limit: limit)
    }

    /// Every trainer of the company (any trainer may see their colleagues' names: a client's page names theirs),
    /// in name order.
    public func colleagues(of trainer: Trainer) async throws -> [Trainer] {
        var all: [Trainer] = []
        var cursor: Cursor?
        repeat {
            let page = try await trainers.list(in: trainer.companyId, after: cursor, limit: 200)
            all += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return all
    }

    /// Adds a trainer to the actor's company: an admin's decision.
    public func create(_ new: NewTrainer, by actor: Trainer) async throws -> Trainer {
        try actor.requireAdmin(to: "add trainers")
        return try await create(new, in: actor.companyId, by: .trainer(actor.id))
    }

    /// Adds a trainer to `company`: by the operator at the command line, or by an admin through `create(_:by:)`.
    public func create(_ new: NewTrainer, in company: UUID, by actor: AuditEvent.Actor) async throws -> Trainer {
        let trainer = try new.trainer(in: company, at: clock.now)
        guard try await companies.find(company) != nil else { throw ServiceError.notFound("company") }
        let hash = try await passwords.hash(new.password)
        let audit = AuditEvent.trainer(.created, trainer.id, in: company, by: actor, at: trainer.createdAt)
        try await mapEmailTaken { try await trainers.create(trainer, passwordHash: hash, audit: audit) }
        return trainer
    }

    /// The trainer `id` of the actor's company, if the actor may see and edit their profile.
    public func profile(_ id: UUID, by actor: Trainer) async throws -> Trainer {
        guard let target = try await trainers.find(id, in: actor.companyId) else { throw ServiceError.notFound("trainer") }
        try TrainerRules.checkProfileAccess(actor: actor, target: target)
        return target
    }

    /// Applies `edit` to `target` (from `profile`). A trainer's own new password needs the current one; a new
    /// password ends the target's other sessions, keeping `session` when the actor changes their own.
    public func update(_ target: Trainer, with edit: TrainerEdit, by actor: Trainer, session: [UInt8]) async throws -> Trainer {
        let isSelf = target.id == actor.id
        let checked = try edit.check(bySelf: isSelf)
        var newHash: String?
        if let password = checked.password {
            if isSelf && checked.currentPassword == nil {
                throw ServiceError.forbidden(
                    slug: "current-password-required",
                    detail: "changing your own password needs your current password",
                    errors: [FieldError("currentPassword", "is required to change your own password")]
                )
            }
            if let current = checked.currentPassword {
                let stored = try await trainers.credentials(id: target.id, in: target.companyId)
                guard try await passwords.verify(current, against: stored?.passwordHash) else {
                    throw ServiceError.forbidden(
                        slug: "wrong-password",
                        detail: "currentPassword is not correct",
                        errors: [FieldError("currentPassword", "is not correct")]
                    )
                }
            }
            newHash = try await passwords.hash(password)
        }
        let now = clock.now
        let updated = try await mapEmailTaken {
            try await trainers.update(
                target.id,
                in: actor.companyId,
                newPasswordHash: newHash,
                keepingSession: isSelf ? session : nil,
                audit: .trainer(.changed, target.id, in: actor.companyId, by: .trainer(actor.id), at: now)
            ) {
                trainer,
                adminCount in
                try checked.apply(to: &trainer, by: actor, adminCount: adminCount, at: now)
            }
        }
        guard let updated else { throw ServiceError.notFound("trainer") }
        return updated
    }

    /// Removes a trainer and their sessions: an admin's decision, which must leave the company an admin.
    public func delete(_ id: UUID, by actor: Trainer) async throws {
        let audit = AuditEvent.trainer(.deleted, id, in: actor.companyId, by: .trainer(actor.id), at: clock.now)
        let deleted = try await trainers.delete(id, in: actor.companyId, audit: audit) { target, adminCount in
            try TrainerRules.checkRemoval(actor: actor, target: target, adminCount: adminCount)
        }
        guard deleted else { throw ServiceError.notFound("trainer") }
    }

    private func mapEmailTaken<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch TrainerRepositoryError.emailTaken {
            throw ServiceError.conflict(
                slug: "email-taken",
                detail: "this email is already used by another account of this company",
                errors: [FieldError("email", "is already used by another account of this company")]
            )
        }
    }
}
