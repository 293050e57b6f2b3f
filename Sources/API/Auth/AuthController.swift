import Credentials
import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import Store

/// `POST /v1/auth/login` and `POST /v1/auth/logout`.
struct AuthController {
    let store: Store
    let passwords: PasswordService
    let limiter: LoginRateLimiter
    let clock: any WallClock
    let tokenLifetime: TimeInterval

    func addRoutes(public group: RouterGroup<AppRequestContext>, authenticated: RouterGroup<AuthenticatedContext>) {
        group.post("auth/login", use: login)
        authenticated.post("auth/logout", use: logout)
    }

    struct LoginBody: StrictJSONBody {
        var email: String
        var password: String
        enum CodingKeys: String, CodingKey, CaseIterable {
            case email, password
        }
    }

    struct LoginResult: Encodable {
        var token: String
        var expiresAt: Date
        var trainer: Trainer
    }

    @Sendable func login(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(LoginBody.self, context: context)
        let email = body.email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let address = context.clientAddress
        let now = clock.now
        if let seconds = limiter.retryAfter(email: email, address: address, now: now) {
            var problem = Problem(.tooManyRequests, slug: "rate-limited", detail: "too many failed logins; try again in \(seconds) s")
            problem.headers[.retryAfter] = String(seconds)
            throw problem
        }
        let credentials = try await store.trainers.credentials(email: email)
        guard try await passwords.verify(body.password, against: credentials?.passwordHash), let trainer = credentials?.trainer else {
            limiter.recordFailure(email: email, address: address, now: now)
            context.logger.notice("login failed")
            throw Problem(.unauthorized, slug: "login-failed", detail: "the email or the password is not correct")
        }
        limiter.recordSuccess(email: email)
        let token = AccessToken.generate()
        let expiresAt = now.addingTimeInterval(tokenLifetime)
        try await store.sessions.purgeExpired(at: now)
        try await store.sessions.create(tokenDigest: token.digest, trainer: trainer.id, createdAt: now, expiresAt: expiresAt)
        context.logger.info("login", metadata: ["trainer.id": "\(trainer.id)"])
        return try .json(LoginResult(token: token.value, expiresAt: expiresAt, trainer: trainer))
    }

    @Sendable func logout(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await store.sessions.delete(tokenDigest: context.tokenDigest)
        return .noContent
    }
}
