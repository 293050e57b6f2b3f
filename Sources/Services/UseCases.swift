import Foundation
import HealthwheelCore
import Logging
import Store

/// Every use case of a running server, built once over one store: the HTTP app takes this value, and so does
/// the CLI's `serve` (its demo company included), so each feature has one instance, and one cache, per process.
///
/// Doors (HTTP, CLI) reach data only through these: nothing outside Services holds the store.
public struct UseCases: Sendable {
    public let sessions: Sessions
    public let companies: CompanyProfile
    public let trainers: TrainerAccounts
    public let clients: ClientRoster
    public let questionnaires: QuestionnaireCatalog
    public let screenings: ClientScreenings
    public let themeCatalog: ThemeCatalog
    public let themes: CompanyThemes
    public let exercises: ExerciseCatalog
    public let scorer: ExerciseScorer
    public let packImport: ExercisePackImport
    public let results: AssessmentResults
    public let idempotency: IdempotencyKeys
    public let wheels: ClientWheels
    public let wheelPictures: WheelPictures
    public let reports: ClientReports
    public let mailSettings: MailSettings
    /// Delivers the outbox in the background; the door runs it as a service for as long as it serves.
    public let mailSender: MailSender
    public let emails: ReportEmails
    public let clock: any WallClock

    /// - Parameters:
    ///   - renderClient: how the door keeps each client of an in-memory roster, ready to send (the API: its JSON).
    public init(
        store: Store,
        questionnaires: QuestionnaireCatalog,
        themes themeCatalog: ThemeCatalog,
        exercises: ExerciseCatalog,
        scorer: ExerciseScorer,
        mail mailSettings: MailSettings,
        sessionPolicy: Sessions.Policy = Sessions.Policy(),
        clock: any WallClock = SystemClock(),
        logger: Logger,
        renderClient: @escaping @Sendable (ClientRecord, Date) throws -> [UInt8]
    ) {
        let passwords = PasswordService()
        sessions = Sessions(store: store, passwords: passwords, policy: sessionPolicy, clock: clock)
        companies = CompanyProfile(store: store)
        trainers = TrainerAccounts(store: store, passwords: passwords, clock: clock)
        clients = ClientRoster(store: store, clock: clock, render: renderClient)
        self.questionnaires = questionnaires
        screenings = ClientScreenings(store: store, catalog: questionnaires, clock: clock)
        self.themeCatalog = themeCatalog
        themes = CompanyThemes(themes: store.themes, catalog: themeCatalog, clock: clock, logger: logger)
        self.exercises = exercises
        self.scorer = scorer
        packImport = ExercisePackImport(store: store, catalog: exercises, scorer: scorer)
        results = AssessmentResults(store: store, catalog: exercises, scorer: scorer, clock: clock)
        idempotency = IdempotencyKeys(repository: store.idempotency)
        wheels = ClientWheels(store: store, catalog: exercises)
        wheelPictures = WheelPictures(wheels: wheels, themes: themes)
        reports = ClientReports(store: store, catalog: exercises, wheels: wheels, themes: themes, clock: clock)
        self.mailSettings = mailSettings
        mailSender = MailSender(deliveries: store.deliveries, settings: mailSettings, clock: clock, logger: logger)
        emails = ReportEmails(store: store, reports: reports, settings: mailSettings, sender: mailSender, clock: clock)
        self.clock = clock
    }
}
