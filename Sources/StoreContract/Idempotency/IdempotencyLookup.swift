import Foundation

/// What an earlier request with the same key left.
public enum IdempotencyLookup: Sendable, Equatable {
    /// Nothing: do the work.
    case new
    /// The same request was done: answer with its response.
    case done(IdempotentResponse)
    /// The key was used with a different request.
    case mismatch
}
