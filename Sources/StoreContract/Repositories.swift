import Foundation

/// Every repository, as protocols: what the use cases read and write through. One set of implementations
/// serves both databases (the embedded SQLCipher file and PostgreSQL): the Store module's
/// `Repositories(database:)`.
public struct Repositories: Sendable {
    /// Companies and their settings (correction window, flag threshold).
    public let companies: any CompanyRepository
    /// Trainers, their password hashes and the admin count that role rules need.
    public let trainers: any TrainerRepository
    /// Login sessions, looked up by the SHA-256 of the bearer token.
    public let sessions: any SessionRepository
    /// Failed logins per email and per client address, which the login rate limit counts (on every node alike).
    public let loginFailures: any LoginFailureRepository
    /// Clients, their photos and the screening facts each record carries; searched and paged.
    public let clients: any ClientRepository
    /// Screenings and the history of their amended answers.
    public let screenings: any ScreeningRepository
    /// Every version of every exercise pack, shipped or uploaded: old scores stay reproducible.
    public let exercisePacks: any ExercisePackRepository
    /// Assessment results, their revisions, and the newest results per exercise that wheels are made from.
    public let results: any ResultRepository
    /// Idempotency keys and the answers they replay, kept with the write they answer.
    public let idempotency: any IdempotencyRepository
    /// Each company's theme choice and logo.
    public let themes: any ThemeRepository
    /// The email outbox: deliveries with their encoded messages, and the daily allowance.
    public let deliveries: any DeliveryRepository
    /// Results' photos and videos as rows, with the keys their sealed bytes open with (`MediaStorage` holds those).
    public let media: any MediaRepository
    /// The audit trail: appended to with each change, listed for admins, checked as a hash chain.
    public let audit: any AuditRepository
    /// Webhook endpoints and the outbox of deliveries to them, written from the audit trail.
    public let webhooks: any WebhookRepository

    /// Repositories of any implementation; the Store module's `init(database:)` builds the SQL ones.
    public init(
        companies: any CompanyRepository,
        trainers: any TrainerRepository,
        sessions: any SessionRepository,
        loginFailures: any LoginFailureRepository,
        clients: any ClientRepository,
        screenings: any ScreeningRepository,
        exercisePacks: any ExercisePackRepository,
        results: any ResultRepository,
        idempotency: any IdempotencyRepository,
        themes: any ThemeRepository,
        deliveries: any DeliveryRepository,
        media: any MediaRepository,
        audit: any AuditRepository,
        webhooks: any WebhookRepository
    ) {
        self.companies = companies
        self.trainers = trainers
        self.sessions = sessions
        self.loginFailures = loginFailures
        self.clients = clients
        self.screenings = screenings
        self.exercisePacks = exercisePacks
        self.results = results
        self.idempotency = idempotency
        self.themes = themes
        self.deliveries = deliveries
        self.media = media
        self.audit = audit
        self.webhooks = webhooks
    }
}
