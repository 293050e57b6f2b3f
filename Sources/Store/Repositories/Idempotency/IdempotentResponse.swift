import Foundation

/// A response kept for an `Idempotency-Key`, so a retried request gets the first answer.
public struct IdempotentResponse: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}
