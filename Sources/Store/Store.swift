import Foundation

/// Everything the API needs from storage, as protocols: SQLCipher is the embedded default, and the seam for a
/// PostgreSQL backend later.
public struct Store: Sendable {
    public let companies: any CompanyRepository
    public let trainers: any TrainerRepository
    public let sessions: any SessionRepository
    public let clients: any ClientRepository
    public let screenings: any ScreeningRepository
    public let exercisePacks: any ExercisePackRepository
    public let results: any ResultRepository
    public let idempotency: any IdempotencyRepository
    public let themes: any ThemeRepository
    public let deliveries: any DeliveryRepository

    public init(
        companies: any CompanyRepository,
        trainers: any TrainerRepository,
        sessions: any SessionRepository,
        clients: any ClientRepository,
        screenings: any ScreeningRepository,
        exercisePacks: any ExercisePackRepository,
        results: any ResultRepository,
        idempotency: any IdempotencyRepository,
        themes: any ThemeRepository,
        deliveries: any DeliveryRepository
    ) {
        self.companies = companies
        self.trainers = trainers
        self.sessions = sessions
        self.clients = clients
        self.screenings = screenings
        self.exercisePacks = exercisePacks
        self.results = results
        self.idempotency = idempotency
        self.themes = themes
        self.deliveries = deliveries
    }

    /// The SQLCipher-backed store on an open database.
    public init(database: Database) {
        let accounts = Generation()
        self.init(
            companies: SQLCipherCompanyRepository(database: database),
            trainers: SQLCipherTrainerRepository(database: database, accounts: accounts),
            sessions: SQLCipherSessionRepository(database: database, accounts: accounts),
            clients: SQLCipherClientRepository(database: database),
            screenings: SQLCipherScreeningRepository(database: database),
            exercisePacks: SQLCipherExercisePackRepository(database: database),
            results: SQLCipherResultRepository(database: database),
            idempotency: SQLCipherIdempotencyRepository(database: database),
            themes: SQLCipherThemeRepository(database: database),
            deliveries: SQLCipherDeliveryRepository(database: database)
        )
    }
}
