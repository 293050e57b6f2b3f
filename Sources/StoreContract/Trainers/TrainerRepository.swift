import Foundation
import HealthwheelCore

/// Trainers, always looked up inside one company: an id from another company is simply not found.
public protocol TrainerRepository: Sendable {
    /// Saves a new trainer with `audit`. Throws `TrainerRepositoryError.emailTaken` when the email is in use in the
    /// trainer's company.
    func create(_ trainer: Trainer, passwordHash: String, audit: AuditEvent) async throws
    func find(_ id: UUID, in company: UUID) async throws -> Trainer?
    /// The accounts with this email (one per company at most, ordered by company id; at most `limit`), or only
    /// the one in `company` when it is given.
    func credentials(email: String, in company: UUID?, limit: Int) async throws -> [TrainerCredentials]
    func credentials(id: UUID, in company: UUID) async throws -> TrainerCredentials?
    /// Ordered by name (case-insensitive), then id.
    func list(in company: UUID, after cursor: Cursor?, limit: Int) async throws -> Page<Trainer>
    /// Loads the trainer and the company's admin count in one write transaction, lets `change` check the rules and
    /// edit the trainer, then saves it with `audit`. A new password hash also ends every other session of that
    /// trainer. Returns nil when the trainer is not in the company.
    func update(
        _ id: UUID,
        in company: UUID,
        newPasswordHash: String?,
        keepingSession: [UInt8]?,
        audit: AuditEvent,
        _ change: (inout Trainer, _ adminCount: Int) throws -> Void
    ) async throws -> Trainer?
    /// Deletes the trainer (and their sessions) after `check` approved it, with `audit`, in one transaction. False
    /// if absent.
    func delete(_ id: UUID, in company: UUID, audit: AuditEvent, _ check: (Trainer, _ adminCount: Int) throws -> Void) async throws -> Bool
}
