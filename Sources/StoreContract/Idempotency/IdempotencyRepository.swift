import Foundation

/// Keys of retried POSTs per trainer, remembered for a day: long enough for any retry.
public protocol IdempotencyRepository: Sendable {
    /// Looks the key up before the work, so a retry of a finished request is answered at once.
    func find(trainer: UUID, key: String, fingerprint: String, at now: Date) async throws -> IdempotencyLookup
}
