import Foundation

/// A key and the answer to keep for it, handed to the write that does the request's work: the answer is stored
/// in the same transaction as the work, so after a crash either both are there (a retry is answered from the
/// key) or neither is (a retry does the work). There is no "in progress" state that a dead process could leave.
public struct IdempotencyRecord: Sendable, Equatable {
    public var trainer: UUID
    public var key: String
    /// A digest of the request, so a key reused for another request is refused, not answered.
    public var fingerprint: String
    public var response: IdempotentResponse
    public var createdAt: Date

    public init(trainer: UUID, key: String, fingerprint: String, response: IdempotentResponse, createdAt: Date) {
        self.trainer = trainer
        self.key = key
        self.fingerprint = fingerprint
        self.response = response
        self.createdAt = createdAt
    }
}
