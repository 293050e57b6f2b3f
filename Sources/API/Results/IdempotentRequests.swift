import Credentials
import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import Store

/// `Idempotency-Key` on a POST: a retry with the same key (gym Wi-Fi drops the answer, the app sends again) gets
/// the first answer and changes nothing. The key is claimed before the work, so concurrent retries cannot both
/// do it; a failed request releases its key.
struct IdempotentRequests {
    let repository: any IdempotencyRepository
    let clock: any WallClock

    static let header = HTTPField.Name("Idempotency-Key")!
    /// Set on a replayed answer, so an app can tell a retry's echo from a fresh result.
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!
    static let maxKeyLength = 255

    /// Runs `work` once per key and trainer; without the header, simply runs it.
    func run(
        _ request: Request,
        body: Data,
        context: AuthenticatedContext,
        _ work: () async throws -> JSONReply
    ) async throws -> Response {
        guard let key = request.headers[Self.header] else { return try await work().response }
        guard (1...Self.maxKeyLength).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Problem.invalid(Self.header.rawName, "must be 1 to \(Self.maxKeyLength) visible ASCII characters")
        }
        let trainer = context.trainer.id
        let fingerprint = SHA256.digest(Array("\(request.method.rawValue) \(request.uri)\n".utf8) + Array(body)).hexString
        switch try await repository.claim(trainer: trainer, key: key, fingerprint: fingerprint, at: clock.now) {
        case .done(let kept):
            var headers = HTTPFields()
            headers[Self.replayedHeader] = "true"
            return JSONReply(status: .init(code: kept.status), body: kept.body, headers: headers).response
        case .inProgress:
            throw Problem(.conflict, slug: "idempotency-in-progress", detail: "a request with this Idempotency-Key is still running; retry shortly")
        case .mismatch:
            throw Problem.invalid(Self.header.rawName, "was used for a different request; send a new key with a new request")
        case .claimed:
            let reply: JSONReply
            do {
                reply = try await work()
            } catch {
                try? await repository.release(trainer: trainer, key: key)
                throw error
            }
            try await repository.complete(trainer: trainer, key: key, with: IdempotentResponse(status: Int(reply.status.code), body: reply.body))
            return reply.response
        }
    }
}
