import Cryptography
import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Services
import Store
import StoreContract
import Testing

@testable import API
@testable import Credentials

@Suite struct AuthTests {
    @Test func loginReturnsATokenThatAuthenticatesMe() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company("Peak Performance")
            let admin = try await fixture.trainer(in: company, role: .admin, name: "Ada Admin")

            let login = try await client.login(admin.email.uppercased(), admin.password)
            #expect(login.status == .ok)
            let token = try #require(login.object["token"] as? String)
            #expect((login.object["trainer"] as? [String: Any])?["email"] as? String == admin.email)
            let expiresAt = try #require(login.object["expiresAt"] as? String)
            #expect(try Date(expiresAt, strategy: .iso8601) == fixture.clock.now.addingTimeInterval(12 * 3600))

            let me = try await client.send(.get, "/v1/me", token: token)
            #expect(me.status == .ok)
            #expect((me.object["trainer"] as? [String: Any])?["name"] as? String == "Ada Admin")
            #expect((me.object["company"] as? [String: Any])?["name"] as? String == "Peak Performance")
        }
    }

    @Test func meAnswersWithTheTrainerAndCompanyAsTheyAreNow() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company("Peak Performance")
            let admin = try await fixture.trainer(in: company, role: .admin, name: "Ada Admin")
            let token = try await client.token(for: admin)
            #expect((try await client.send(.get, "/v1/me", token: token).object["trainer"] as? [String: Any])?["name"] as? String == "Ada Admin")
            // Renamed after the first answer was kept: the next answer names them as they are now.
            let renamed = try await client.send(.patch, "/v1/trainers/\(admin.trainer.id)", token: token, json: #"{"name": "Ada Lovelace"}"#)
            #expect(renamed.status == .ok)
            let me = try await client.send(.get, "/v1/me", token: token)
            #expect((me.object["trainer"] as? [String: Any])?["name"] as? String == "Ada Lovelace")
            #expect((me.object["company"] as? [String: Any])?["name"] as? String == "Peak Performance")
            // Another trainer of the company gets their own answer.
            let other = try await fixture.trainer(in: company, name: "Bo Trainer")
            let theirs = try await client.send(.get, "/v1/me", token: try await client.token(for: other))
            #expect((theirs.object["trainer"] as? [String: Any])?["name"] as? String == "Bo Trainer")
        }
    }

    @Test func theSchemeIsCaseInsensitiveAndBlanksAroundTheTokenAreIgnored() async throws {
        try await withAPI { fixture, client in
            let account = try await fixture.trainer(in: try await fixture.company())
            let token = try await client.token(for: account)
            for header in ["bearer \(token)", "BEARER  \(token)\t", "Bearer \t\(token) "] {
                #expect(try await client.send(.get, "/v1/me", headers: [.authorization: header]).status == .ok, "\(header)")
            }
            for header in ["Bearer \(token)x", "Bearer \(token.dropLast())", "Bearer", "Bearer  "] {
                expectProblem(try await client.send(.get, "/v1/me", headers: [.authorization: header]), .unauthorized)
            }
        }
    }

    @Test func theBearerTokenIsReadFromTheHeaderAlone() {
        #expect(AuthenticationMiddleware.bearerToken(in: "Bearer abc") == "abc")
        #expect(AuthenticationMiddleware.bearerToken(in: "bEaReR \t a b \t") == "a b")
        #expect(AuthenticationMiddleware.bearerToken(in: "Bearer   ") == "")
        for header in ["Bearer", "Bearerabc", "Basic abc", "Bearer\tabc", "Béarer abc", "bearer"] {
            #expect(AuthenticationMiddleware.bearerToken(in: header) == nil, "\(header)")
        }
    }

    @Test func onlyTheTokensDigestIsStored() async throws {
        try await withAPI { fixture, client in
            let account = try await fixture.trainer(in: try await fixture.company())
            let token = try await client.token(for: account)
            let stored: [[UInt8]] = try fixture.database.readBlocking { db in
                try await db.query("SELECT token_hash FROM sessions").map { try $0["token_hash"] }
            }
            #expect(stored == [SHA256.digest(Array(token.utf8))])
        }
    }

    @Test func requestsWithoutAValidTokenAre401() async throws {
        try await withAPI { _, client in
            expectProblem(try await client.send(.get, "/v1/me"), .unauthorized)
            expectProblem(try await client.send(.get, "/v1/me", token: "not-a-token"), .unauthorized)
            expectProblem(try await client.send(.get, "/v1/me", headers: [.authorization: "Basic YWxhZGRpbjpvcGVuc2VzYW1l"]), .unauthorized)
        }
    }

    @Test func logoutRevokesTheToken() async throws {
        try await withAPI { fixture, client in
            let account = try await fixture.trainer(in: try await fixture.company())
            let token = try await client.token(for: account)
            let other = try await client.token(for: account)
            // Used once first, so a cached principal must be dropped by the logout.
            #expect(try await client.send(.get, "/v1/me", token: token).status == .ok)
            #expect(try await client.send(.post, "/v1/auth/logout", token: token).status == .noContent)
            expectProblem(try await client.send(.get, "/v1/me", token: token), .unauthorized)
            #expect(try await client.send(.get, "/v1/me", token: other).status == .ok)
        }
    }

    @Test func tokensExpireAfterTwelveHours() async throws {
        try await withAPI { fixture, client in
            let account = try await fixture.trainer(in: try await fixture.company())
            let token = try await client.token(for: account)
            fixture.clock.advance(by: 12 * 3600 - 1)
            #expect(try await client.send(.get, "/v1/me", token: token).status == .ok)
            fixture.clock.advance(by: 1)
            expectProblem(try await client.send(.get, "/v1/me", token: token), .unauthorized)
        }
    }

    @Test func wrongPasswordAndUnknownEmailGetTheSameAnswer() async throws {
        try await withAPI { fixture, client in
            let account = try await fixture.trainer(in: try await fixture.company())
            let wrongPassword = try await client.login(account.email, "not the password at all")
            let unknownEmail = try await client.login("nobody@example.com", "not the password at all")
            expectProblem(wrongPassword, .unauthorized)
            expectProblem(unknownEmail, .unauthorized)
            #expect(wrongPassword.text == unknownEmail.text)
        }
    }

    @Test func failedLoginsAreRateLimitedPerEmail() async throws {
        let limits = LoginRateLimiter.Policy(window: 600, failuresPerEmail: 3, failuresPerAddress: 100)
        try await withAPI(limits: limits) { fixture, client in
            let account = try await fixture.trainer(in: try await fixture.company())
            for _ in 0..<3 { expectProblem(try await client.login(account.email, "wrong password!!"), .unauthorized) }

            let limited = try await client.login(account.email, account.password)
            expectProblem(limited, .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "600")
            // The same answer for an email that does not exist, once it is over the limit too.
            for _ in 0..<3 { _ = try await client.login("ghost@example.com", "wrong password!!") }
            let ghost = try await client.login("ghost@example.com", "wrong password!!")
            expectProblem(ghost, .tooManyRequests)

            fixture.clock.advance(by: 600)
            #expect(try await client.login(account.email, account.password).status == .ok)
        }
    }

    @Test func failedLoginsAreRateLimitedPerAddress() async throws {
        let limits = LoginRateLimiter.Policy(window: 600, failuresPerEmail: 100, failuresPerAddress: 4)
        try await withAPI(limits: limits) { fixture, client in
            let account = try await fixture.trainer(in: try await fixture.company())
            for index in 0..<4 { _ = try await client.login("spray\(index)@example.com", "wrong password!!") }
            let limited = try await client.login(account.email, account.password)
            expectProblem(limited, .tooManyRequests)
            #expect(Int(limited.headers[.retryAfter] ?? "") ?? 0 > 0)
        }
    }

    @Test func aSuccessfulLoginClearsTheEmailsFailures() async throws {
        let limits = LoginRateLimiter.Policy(window: 600, failuresPerEmail: 3, failuresPerAddress: 100)
        try await withAPI(limits: limits) { fixture, client in
            let account = try await fixture.trainer(in: try await fixture.company())
            for _ in 0..<2 { _ = try await client.login(account.email, "wrong password!!") }
            #expect(try await client.login(account.email, account.password).status == .ok)
            for _ in 0..<2 { _ = try await client.login(account.email, "wrong password!!") }
            #expect(try await client.login(account.email, account.password).status == .ok)
        }
    }

    /// The same person trains in three gyms: two accounts share a password, the third has its own.
    @Test func thePasswordPicksTheAccountAndAnAmbiguousOneAsksForTheCompany() async throws {
        try await withAPI { fixture, client in
            let email = "coach@example.com"
            var companies: [Company] = []
            for (name, password) in [("North Gym", "shared password 1"), ("South Gym", "shared password 1"), ("East Gym", "own password 22")] {
                let company = try await fixture.company(name)
                let trainer = Trainer(
                    companyId: company.id,
                    email: email,
                    name: "Coach",
                    role: .trainer,
                    createdAt: fixture.clock.now,
                    updatedAt: fixture.clock.now
                )
                try await fixture.store.trainers.create(trainer, passwordHash: try PasswordHasher().hash(password), audit: .byTest)
                companies.append(company)
            }
            let east = try await client.login(email, "own password 22")
            #expect(east.status == .ok)
            #expect((east.object["trainer"] as? [String: Any])?["companyId"] as? String == companies[2].id.uuidString)

            let ambiguous = try await client.login(email, "shared password 1")
            expectProblem(ambiguous, .conflict, fields: ["companyId"])
            #expect(ambiguous.object["type"] as? String == "urn:healthwheel:problem:company-required")
            let offered = (ambiguous.object["companies"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(offered.sorted() == ["North Gym", "South Gym"])
            #expect(!ambiguous.text.contains(companies[2].id.uuidString) && !ambiguous.text.contains("East Gym"))

            func login(_ password: String, in company: Company) async throws -> TestResponse {
                try await client.send(
                    .post,
                    "/v1/auth/login",
                    json: jsonString(["email": email, "password": password, "companyId": company.id.uuidString])
                )
            }
            let south = try await login("shared password 1", in: companies[1])
            #expect(south.status == .ok)
            #expect((south.object["trainer"] as? [String: Any])?["companyId"] as? String == companies[1].id.uuidString)
            // The password of one account does not open another company's, even when named.
            expectProblem(try await login("shared password 1", in: companies[2]), .unauthorized)
            expectProblem(try await client.login(email, "no such password"), .unauthorized)
        }
    }

    @Test func loginBodyIsValidated() async throws {
        try await withAPI { _, client in
            expectProblem(
                try await client.send(.post, "/v1/auth/login", json: #"{"email":"a@b.example"}"#),
                .unprocessableContent,
                fields: ["password"]
            )
            expectProblem(
                try await client.send(.post, "/v1/auth/login", json: #"{"email":"a@b.example","password":"x","remember":true}"#),
                .unprocessableContent,
                fields: ["remember"]
            )
        }
    }
}
