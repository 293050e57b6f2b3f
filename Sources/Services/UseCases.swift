import Foundation
import HealthwheelCore
import Logging
import Media
import StoreContract

/// Every use case of a running server, built once over one store: the HTTP app takes this value, and so does
/// the CLI's `serve` (its demo company included), so each feature has one instance, and one cache, per process.
///
/// Doors (HTTP, CLI) reach data only through these: nothing outside Services holds the store.
public struct UseCases: Sendable {
    /// Login, logout and the bearer-token lookup every authenticated request starts with.
    public let sessions: Sessions
    /// The company's settings (correction window, flag threshold); the CLI creates companies through it.
    public let companies: CompanyProfile
    /// Adding, listing, editing and removing trainers, under the admin rules.
    public let trainers: TrainerAccounts
    /// Clients: the in-memory roster, search, create, edit, delete, photos.
    public let clients: ClientRoster
    /// Erasing a client at their request, leaving nothing of them but one audit line.
    public let erasure: ClientErasure
    /// Clients' records and the shipped questionnaires in HL7 FHIR R4.
    public let fhir: ClientFHIR
    /// Everything held about one client, for them to take away.
    public let export: ClientExport
    /// The shipped screening questionnaires, loaded and checked at start-up.
    public let questionnaires: QuestionnaireCatalog
    /// Starting, answering, completing and amending clients' screenings.
    public let screenings: ClientScreenings
    /// The shipped themes (`Themes/`), loaded and checked at start-up.
    public let themeCatalog: ThemeCatalog
    /// Each company's theme and logo; what reports and wheel pictures are drawn with.
    public let themes: CompanyThemes
    /// Which exercise packs each company sees, in memory; reloaded after an import.
    public let exercises: ExerciseCatalog
    /// Scores results with the pack's script in the scoring workers (docs/ARCHITECTURE.md §3).
    public let scorer: ExerciseScorer
    /// Imports packs (shipped ones at start-up, a company's upload over HTTP), checking every example first.
    public let packImport: ExercisePackImport
    /// Recording, editing, deleting and rescoring assessment results.
    public let results: AssessmentResults
    /// Looks up `Idempotency-Key`s before a retried POST repeats its work.
    public let idempotency: IdempotencyKeys
    /// Photos and videos on results, sealed in `mediaStorage`, under each company's quota.
    public let media: ResultMedia
    /// Thumbnails of result photos and poster cards of videos, cached.
    public let mediaThumbnails: MediaThumbnails
    /// Removes media files whose rows are gone; `serve` sweeps with it at start-up.
    public let mediaFiles: MediaFileRemover
    /// Clients' health wheels as data, cached per client.
    public let wheels: ClientWheels
    /// The clients a trainer should look at first (flags, screening due, gone quiet).
    public let attention: ClientAttention
    /// A client's page in one call: the client, the wheel, the year's results, the latest photos.
    public let overview: ClientOverview
    /// Clients' wheels drawn as SVG or PNG in the company's theme.
    public let wheelPictures: WheelPictures
    /// Clients' progress reports (HTML, PDF), drawn from their results and wheel.
    public let reports: ClientReports
    /// Where report emails go (an SMTP server, or a folder of `.eml` files), the sender's address, the daily allowance.
    public let mailSettings: MailSettings
    /// Delivers the outbox in the background; the door runs it as a service for as long as it serves.
    public let mailSender: MailSender
    /// Emails a client's report: accepted into the outbox at once, delivered by `mailSender`.
    public let emails: ReportEmails
    /// Reads and decodes tenants' pictures and videos in confined worker processes (docs/ARCHITECTURE.md §3).
    public let mediaWorkers: MediaWorkers
    /// The clock every use case reads; tests pass a fixed one.
    public let clock: any WallClock
    /// The audit trail: read by admins, checked by the operator.
    public let audit: AuditTrail

    /// - Parameters:
    ///   - clientLists: what the in-memory client lists may hold; `onClientListsChange` hears how many lists
    ///     and bytes they hold (the API: its metrics).
    ///   - renderClient: how the door keeps each client of an in-memory roster, ready to send (the API: its JSON).
    public init(
        store: Repositories,
        questionnaires: QuestionnaireCatalog,
        themes themeCatalog: ThemeCatalog,
        exercises: ExerciseCatalog,
        scorer: ExerciseScorer,
        mediaWorkers: MediaWorkers,
        mail mailSettings: MailSettings,
        mediaStorage: any MediaStorage,
        mediaQuota: Int = ResultMedia.defaultQuota,
        sessionPolicy: Sessions.Policy = Sessions.Policy(),
        clock: any WallClock = SystemClock(),
        logger: Logger,
        clientLists: ClientDirectoryCache.Limits = .init(),
        onClientListsChange: @escaping @Sendable (_ lists: Int, _ bytes: Int) -> Void = { _, _ in },
        renderClient: @escaping @Sendable (ClientRecord, Date) throws -> [UInt8]
    ) {
        let passwords = PasswordService()
        mediaFiles = MediaFileRemover(store: store, storage: mediaStorage)
        self.mediaWorkers = mediaWorkers
        media = ResultMedia(store: store, storage: mediaStorage, remover: mediaFiles, mediaWorkers: mediaWorkers, quota: mediaQuota, clock: clock)
        mediaThumbnails = MediaThumbnails(media: media)
        sessions = Sessions(store: store, passwords: passwords, policy: sessionPolicy, clock: clock, catalog: exercises)
        companies = CompanyProfile(store: store)
        trainers = TrainerAccounts(store: store, passwords: passwords, clock: clock)
        clients = ClientRoster(
            store: store,
            clock: clock,
            mediaWorkers: mediaWorkers,
            limits: clientLists,
            onHeldChange: onClientListsChange,
            mediaFiles: mediaFiles,
            render: renderClient
        )
        self.questionnaires = questionnaires
        screenings = ClientScreenings(store: store, catalog: questionnaires, clock: clock)
        self.themeCatalog = themeCatalog
        themes = CompanyThemes(
            themes: store.themes,
            catalog: themeCatalog,
            exercises: exercises,
            mediaWorkers: mediaWorkers,
            clock: clock,
            logger: logger
        )
        self.exercises = exercises
        self.scorer = scorer
        packImport = ExercisePackImport(store: store, catalog: exercises, scorer: scorer)
        results = AssessmentResults(store: store, catalog: exercises, scorer: scorer, clock: clock, mediaFiles: mediaFiles)
        idempotency = IdempotencyKeys(repository: store.idempotency)
        wheels = ClientWheels(store: store, catalog: exercises)
        wheelPictures = WheelPictures(wheels: wheels, themes: themes)
        attention = ClientAttention(roster: clients, wheels: wheels)
        overview = ClientOverview(store: store, wheels: wheels, clock: clock)
        reports = ClientReports(store: store, catalog: exercises, wheels: wheels, themes: themes, thumbnails: mediaThumbnails, clock: clock)
        self.mailSettings = mailSettings
        mailSender = MailSender(deliveries: store.deliveries, settings: mailSettings, clock: clock, logger: logger)
        emails = ReportEmails(store: store, reports: reports, settings: mailSettings, sender: mailSender, clock: clock)
        self.clock = clock
        audit = AuditTrail(store: store)
        fhir = ClientFHIR(store: store, questionnaires: questionnaires, catalog: exercises, clock: clock)
        export = ClientExport(store: store, fhir: fhir, reports: reports, media: media, clock: clock)
        erasure = ClientErasure(
            store: store,
            roster: clients,
            wheels: wheels,
            results: results,
            thumbnails: mediaThumbnails,
            mediaFiles: mediaFiles,
            mail: mailSettings,
            clock: clock
        )
    }
}
