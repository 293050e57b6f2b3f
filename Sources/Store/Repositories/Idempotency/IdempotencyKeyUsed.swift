import Foundation

/// Thrown by a write given an `IdempotencyRecord` whose key an earlier request (a concurrent retry) already
/// answered: the write stored nothing.
public struct IdempotencyKeyUsed: Error, Sendable, Equatable {
    public var earlier: IdempotencyLookup

    public init(earlier: IdempotencyLookup) {
        self.earlier = earlier
    }
}
