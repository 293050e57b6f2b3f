import Credentials
import Foundation
import HealthwheelCore
import StoreContract

/// Logging in and out. A login checks the password (as slowly for an unknown email as for a wrong password),
/// counts failures per email and per client address, and opens a session whose token is stored only as its
/// SHA-256 digest.
public struct Sessions: Sendable {
    let companies: any CompanyRepository
    let exercisePacks: any ExercisePackRepository
    let loginFailures: any LoginFailureRepository
    let sessions: any SessionRepository
    let trainers: any TrainerRepository
    /// The exercise catalog that each request's session read keeps current (nil for tools that score nothing).
    let catalog: ExerciseCatalog?
    let passwords: any PasswordHashing
    let limiter: LoginRateLimiter
    let clock: any WallClock
    let tokenLifetime: TimeInterval
    let idleLimit: TimeInterval

    /// How long a login lasts, and how many failed logins the limiter lets through.
    public struct Policy: Sendable {
        /// Seconds a session lasts from login (12 hours by default): a working day, then log in again.
        public var tokenLifetime: TimeInterval
        /// The failed-login limits (`LoginRateLimiter.Policy`).
        public var loginLimits: LoginRateLimiter.Policy
        /// Seconds a sliding session (the web console's) lasts unused (30 minutes by default); each use moves its
        /// end on, up to `tokenLifetime` after login.
        public var idleLimit: TimeInterval

        /// Defaults: 12-hour sessions, 30 minutes idle for sliding ones, 5 failures per email and 30 per address
        /// in 15 minutes.
        public init(tokenLifetime: TimeInterval = 12 * 60 * 60, idleLimit: TimeInterval = 30 * 60, loginLimits: LoginRateLimiter.Policy = .init()) {
            self.tokenLifetime = tokenLifetime
            self.idleLimit = idleLimit
            self.loginLimits = loginLimits
        }
    }

    /// One per process (`UseCases` builds it); the failed-login counts live in the store, shared by every node.
    public init(store: Repositories, passwords: any PasswordHashing, policy: Policy, clock: any WallClock, catalog: ExerciseCatalog? = nil) {
        self.companies = store.companies
        self.exercisePacks = store.exercisePacks
        self.loginFailures = store.loginFailures
        self.sessions = store.sessions
        self.trainers = store.trainers
        self.catalog = catalog
        self.passwords = passwords
        self.limiter = LoginRateLimiter(policy: policy.loginLimits, failures: loginFailures)
        self.clock = clock
        self.tokenLifetime = policy.tokenLifetime
        self.idleLimit = policy.idleLimit
    }

    /// Who holds the bearer `token` now (nil when it names no live session), and the token's digest, which
    /// names the session: one indexed read, usually served from memory; no password hashing per request. A
    /// request about one client names it, so that its stamps come with that read (`Freshness.namedClient`).
    /// A `sliding` session (`login(sliding:)`) is kept for another `Policy.idleLimit` by this use; its end is
    /// written at most once a minute.
    public func principal(
        bearing token: String,
        naming client: UUID? = nil,
        sliding: Bool = false
    ) async throws -> (principal: Principal, tokenDigest: [UInt8])? {
        let digest = AccessToken(value: token).digest
        let now = clock.now
        guard var principal = try await sessions.principal(tokenDigest: digest, at: now, naming: client) else { return nil }
        if sliding {
            let end = min(now.addingTimeInterval(idleLimit), principal.session.start.addingTimeInterval(tokenLifetime))
            if end.timeIntervalSince(principal.session.end) >= Self.slideStep {
                try await sessions.extend(tokenDigest: digest, until: end)
                principal.session.end = end
            }
        }
        // Before the request is served: a pack another node stored counts at once.
        try await catalog?.reloadIfBehind(principal.freshness.catalogVersion ?? 0, from: exercisePacks)
        return (principal, digest)
    }

    /// How far a sliding session's end must move before it is written: one write a minute at most per session.
    static let slideStep: TimeInterval = 60

    /// An open session: the token (shown once, never stored), when it expires, and whose it is.
    public struct Login: Sendable {
        /// The bearer token (base64url of 32 random bytes): shown in the login answer only; the store keeps its digest.
        public let token: String
        /// When the session ends: `Policy.tokenLifetime` after login.
        public let expiresAt: Date
        /// The trainer who logged in, as stored.
        public let trainer: Trainer
    }

    /// Why a login was refused. None says whether the email belongs to an account.
    public enum Refusal: Error, Equatable, Sendable {
        /// Too many recent failures for this email or this address: try again after this many seconds.
        case rateLimited(retryAfter: Int)
        case wrongCredentials
        /// The email and password open an account in each of these companies: log in again naming one.
        /// Only companies whose account the password opened are named.
        case companyRequired([Company])
    }

    /// How many accounts with one email a login checks; a login always hashes this many times (decoys make up
    /// the rest), so its time tells no one how many companies have an account with that email. A person with
    /// more accounts names the company (`companyId`).
    static let accountsPerEmail = 4

    /// Opens a session for the trainer with this email and password; `address` is the client's, for the limits.
    /// An email is unique within a company only: the password picks the account, and when it opens several,
    /// `company` must name one (else `Refusal.companyRequired`).
    /// A `sliding` session (the web console's) ends after `Policy.idleLimit` unused, and at the latest
    /// `Policy.tokenLifetime` after login; an API session lasts `tokenLifetime` whether used or not.
    public func login(
        email rawEmail: String,
        password: String,
        company: UUID? = nil,
        from address: String,
        sliding: Bool = false
    ) async throws -> Login {
        let email = rawEmail.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let now = clock.now
        let counts = try await limiter.check(email: email, address: address, now: now)
        if let seconds = counts.retryAfter { throw Refusal.rateLimited(retryAfter: seconds) }
        let accounts = try await trainers.credentials(email: email, in: company, limit: Self.accountsPerEmail)
        var opened: [Trainer] = []
        let padded = accounts.map(Optional.some) + Array(repeating: nil, count: Self.accountsPerEmail - accounts.count)
        for account in padded {
            if try await passwords.verify(password, against: account?.passwordHash), let account { opened.append(account.trainer) }
        }
        guard let trainer = opened.first else {
            try await limiter.recordFailure(email: email, address: address, now: now)
            throw Refusal.wrongCredentials
        }
        // A write only when there is something to clear: most logins follow no failure.
        if counts.emailFailed { try await limiter.recordSuccess(email: email) }
        guard opened.count == 1 else {
            var companies: [Company] = []
            for account in opened { if let found = try await self.companies.find(account.companyId) { companies.append(found) } }
            throw Refusal.companyRequired(companies)
        }
        let token = AccessToken.generate()
        let expiresAt = now.addingTimeInterval(sliding ? min(idleLimit, tokenLifetime) : tokenLifetime)
        try await sessions.purgeExpired(at: now)
        try await sessions.create(tokenDigest: token.digest, trainer: trainer.id, createdAt: now, expiresAt: expiresAt)
        return Login(token: token.value, expiresAt: expiresAt, trainer: trainer)
    }

    /// Ends the session whose token has this digest; its token stops working at once.
    public func logout(tokenDigest: [UInt8]) async throws {
        try await sessions.delete(tokenDigest: tokenDigest)
    }
}
