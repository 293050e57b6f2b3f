import Foundation

/// Everything the API needs from storage, as protocols: SQLCipher is the embedded default, and the seam for a
/// PostgreSQL backend later.
public struct Store: Sendable {
    public let companies: any CompanyRepository
    public let trainers: any TrainerRepository
    public let sessions: any SessionRepository

    public init(companies: any CompanyRepository, trainers: any TrainerRepository, sessions: any SessionRepository) {
        self.companies = companies
        self.trainers = trainers
        self.sessions = sessions
    }

    /// The SQLCipher-backed store on an open database.
    public init(database: Database) {
        self.init(
            companies: SQLCipherCompanyRepository(database: database),
            trainers: SQLCipherTrainerRepository(database: database),
            sessions: SQLCipherSessionRepository(database: database)
        )
    }
}
