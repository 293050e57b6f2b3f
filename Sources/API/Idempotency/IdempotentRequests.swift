import Credentials
import Cryptography
import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import Services
import StoreContract

/// `Idempotency-Key` on a POST: a retry with the same key (gym Wi-Fi drops the answer, the app sends again) gets
/// the first answer and changes nothing. The answer is kept in the same transaction as the work (the work's
/// write is handed a `Ticket`), so the two are durable together: a crash leaves either both or neither, and a
/// concurrent retry that loses the race finds the key answered and replays it. A failed request keeps nothing.
struct IdempotentRequests {
    let keys: IdempotencyKeys
    let clock: any WallClock

    static let header = HTTPField.Name("Idempotency-Key")!
    /// Set on a replayed answer, so an app can tell a retry's echo from a fresh result.
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!
    static let maxKeyLength = 255

    /// The request's key, for the work's write to keep the answer under.
    struct Ticket: Sendable {
        let trainer: UUID
        let key: String
        let fingerprint: String
        let createdAt: Date

        /// The record that the work's write keeps, holding `reply`.
        func record(_ reply: JSONReply) -> IdempotencyRecord {
            IdempotencyRecord(
                trainer: trainer,
                key: key,
                fingerprint: fingerprint,
                response: IdempotentResponse(status: Int(reply.status.code), body: reply.body),
                createdAt: createdAt
            )
        }
    }

    /// Runs `work` once per key and trainer; without the header, simply runs it (with no ticket).
    func run(
        _ request: Request,
        body: Data,
        context: AuthenticatedContext,
        _ work: (Ticket?) async throws -> JSONReply
    ) async throws -> Response {
        guard let key = request.headers[Self.header] else { return try await work(nil).response }
        guard (1...Self.maxKeyLength).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Problem.invalid(Self.header.rawName, "must be 1 to \(Self.maxKeyLength) visible ASCII characters")
        }
        let fingerprint = SHA256.digest(Array("\(request.method.rawValue) \(request.uri)\n".utf8) + Array(body)).hexString
        let ticket = Ticket(trainer: context.trainer.id, key: key, fingerprint: fingerprint, createdAt: clock.now)
        do {
            let earlier = try await keys.earlier(trainer: ticket.trainer, key: key, fingerprint: fingerprint, at: ticket.createdAt)
            if earlier != .new { throw IdempotencyKeyUsed(earlier: earlier) }
            return try await work(ticket).response
        } catch let used as IdempotencyKeyUsed {
            switch used.earlier {
            case .done(let kept):
                var headers = HTTPFields()
                headers[Self.replayedHeader] = "true"
                return JSONReply(status: .init(code: kept.status), body: kept.body, headers: headers).response
            case .mismatch, .new:
                throw Problem.invalid(Self.header.rawName, "was used for a different request; send a new key with a new request")
            }
        }
    }
}
