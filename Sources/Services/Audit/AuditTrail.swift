import Foundation
import HealthwheelCore
import StoreContract

/// The audit trail: each change writes its own line in its own transaction (the repositories do, given the
/// event); this is how admins read the trail and how an operator checks that no line was altered.
public struct AuditTrail: Sendable {
    let audit: any AuditRepository

    /// The trail over `store`.
    public init(store: Repositories) {
        self.audit = store.audit
    }

    /// The caller's company's trail, newest first, narrowed by `filter`. Admins only.
    public func list(
        _ filter: AuditFilter,
        after cursor: Cursor?,
        limit: Int,
        by trainer: Trainer
    ) async throws -> Page<StoredAuditEvent> {
        try trainer.requireAdmin(to: "read the audit trail")
        return try await audit.list(in: trainer.companyId, filter: filter, after: cursor, limit: limit)
    }

    /// Follows the hash chain over every line, then compares its end with `checkpoint` (`healthwheel audit verify`).
    public func verify(against checkpoint: AuditHead? = nil) async throws -> AuditVerification {
        try await audit.verify(against: checkpoint)
    }

    /// The newest line's place and hash (`healthwheel audit head`), what a checkpoint keeps.
    public func head() async throws -> AuditHead? {
        try await audit.head()
    }

    /// Keys the trail under the store's audit key, or refuses another (at every start, before any write).
    public func adoptKey() async throws -> AuditAdoption {
        try await audit.adoptKey()
    }
}
