import Foundation

/// A response kept for an `Idempotency-Key`, so a retried request gets the first answer.
public struct IdempotentResponse: Sendable, Equatable {
    /// The HTTP status code first answered (201, say).
    public var status: Int
    /// The response body first sent, byte for byte (JSON).
    public var body: [UInt8]

    /// A response to keep; the API makes it from the reply it is about to send.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}
