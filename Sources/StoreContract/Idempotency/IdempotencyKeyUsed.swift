import Foundation

/// Thrown by a write given an `IdempotencyRecord` whose key an earlier request (a concurrent retry) already
/// answered: the write stored nothing.
public struct IdempotencyKeyUsed: Error, Sendable, Equatable {
    /// What the earlier request left: its answer to replay, or `mismatch` when the key named another request.
    public var earlier: IdempotencyLookup

    /// Thrown by the store from inside the write, so the work and the key are refused together.
    public init(earlier: IdempotencyLookup) {
        self.earlier = earlier
    }
}
