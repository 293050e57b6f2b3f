import Foundation
import StoreContract

/// The answers kept for `Idempotency-Key`s: what an earlier request with a key left. The answer itself is kept
/// by the write that does the request's work (an `IdempotencyRecord` handed to it), in the same transaction.
public struct IdempotencyKeys: Sendable {
    let repository: any IdempotencyRepository

    init(repository: any IdempotencyRepository) {
        self.repository = repository
    }

    /// Nothing yet (do the work), the same request done (its answer), or the key used for another request.
    public func earlier(trainer: UUID, key: String, fingerprint: String, at now: Date) async throws -> IdempotencyLookup {
        try await repository.find(trainer: trainer, key: key, fingerprint: fingerprint, at: now)
    }
}
