import StoreContract

extension Repositories {
    /// The SQL repositories on an open database: the embedded SQLCipher file or a shared PostgreSQL one.
    public init(database: any SQLDatabase) {
        let accounts = Generation()
        self.init(
            companies: SQLCompanyRepository(database: database),
            trainers: SQLTrainerRepository(database: database, accounts: accounts),
            sessions: SQLSessionRepository(database: database, accounts: accounts),
            loginFailures: SQLLoginFailureRepository(database: database),
            clients: SQLClientRepository(database: database),
            screenings: SQLScreeningRepository(database: database),
            exercisePacks: SQLExercisePackRepository(database: database),
            results: SQLResultRepository(database: database),
            idempotency: SQLIdempotencyRepository(database: database),
            themes: SQLThemeRepository(database: database),
            deliveries: SQLDeliveryRepository(database: database),
            media: SQLMediaRepository(database: database),
            audit: SQLAuditRepository(database: database),
            webhooks: SQLWebhookRepository(database: database)
        )
    }
}
