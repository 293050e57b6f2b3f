import Foundation

/// A key and the answer to keep for it, handed to the write that does the request's work: the answer is stored
/// in the same transaction as the work, so after a crash either both are there (a retry is answered from the
/// key) or neither is (a retry does the work). There is no "in progress" state that a dead process could leave.
public struct IdempotencyRecord: Sendable, Equatable {
    /// Keys are per trainer: two trainers may send the same key without meeting.
    public var trainer: UUID
    /// The `Idempotency-Key` header as sent: 1–255 visible ASCII characters.
    public var key: String
    /// A digest of the request, so a key reused for another request is refused, not answered.
    public var fingerprint: String
    /// The answer a retry with this key and fingerprint gets, replayed as it was.
    public var response: IdempotentResponse
    /// When the first request was made; the key is remembered for 24 hours from then.
    public var createdAt: Date

    /// A record to hand to the write that does the work; the API makes one per request that carries a key.
    public init(trainer: UUID, key: String, fingerprint: String, response: IdempotentResponse, createdAt: Date) {
        self.trainer = trainer
        self.key = key
        self.fingerprint = fingerprint
        self.response = response
        self.createdAt = createdAt
    }
}
