import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import Services

/// `POST /v1/auth/login` and `POST /v1/auth/logout`.
struct AuthController {
    let sessions: Sessions

    func addRoutes(public group: RouterGroup<AppRequestContext>, authenticated: RouterGroup<AuthenticatedContext>) {
        group.post("auth/login", use: login)
        authenticated.post("auth/logout", use: logout)
    }

    struct LoginBody: StrictJSONBody {
        static let nullableKeys: Set<String>? = []
        var email: String
        var password: String
        /// Needed only when the email and password open accounts in several companies (409 `company-required`).
        var companyId: UUID?
        enum CodingKeys: String, CodingKey, CaseIterable {
            case email, password, companyId
        }
    }

    struct LoginResult: Encodable {
        var token: String
        var expiresAt: Date
        var trainer: Trainer
    }

    @Sendable func login(request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(LoginBody.self, context: context)
        do {
            let login = try await sessions.login(email: body.email, password: body.password, company: body.companyId, from: context.clientAddress)
            context.logger.info("login", metadata: ["trainer.id": "\(login.trainer.id)"])
            return try .json(LoginResult(token: login.token, expiresAt: login.expiresAt, trainer: login.trainer))
        } catch Sessions.Refusal.wrongCredentials {
            context.logger.notice("login failed")
            throw Sessions.Refusal.wrongCredentials
        }
    }

    @Sendable func logout(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await sessions.logout(tokenDigest: context.tokenDigest)
        return .noContent
    }
}
