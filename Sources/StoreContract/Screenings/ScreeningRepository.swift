import Foundation
import HealthwheelCore

/// Screenings of clients. Every lookup goes through the client's company.
public protocol ScreeningRepository: Sendable {
    /// Saves a new screening with its audit line. False when the client is absent; `RecordIdTaken` when a record
    /// has its id already.
    func create(_ screening: Screening, in company: UUID, audit: AuditEvent) async throws -> Bool
    func find(_ id: UUID, client: UUID, in company: UUID) async throws -> Screening?
    /// Newest first.
    func list(client: UUID, in company: UUID) async throws -> [Screening]
    /// In one write transaction: loads the screening and its client, lets `change` decide the new screening, the
    /// revisions to keep and the client's new state, and saves them all with `audit`. Nil when either is absent.
    func update(
        _ id: UUID,
        client: UUID,
        in company: UUID,
        audit: AuditEvent,
        _ change: (Screening, Client) throws -> (screening: Screening, revisions: [AnswerRevision], client: Client?)
    ) async throws -> Screening?
    /// Oldest first.
    func history(of id: UUID, client: UUID, in company: UUID) async throws -> [AnswerRevision]?
}
