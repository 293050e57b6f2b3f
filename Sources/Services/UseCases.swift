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
    /// Trainers and their company: logins, accounts, the company's settings.
    public struct Trainers: Sendable {
        /// Login, logout and the bearer-token lookup every authenticated request starts with.
        public let sessions: Sessions
        /// Adding, listing, editing and removing trainers, under the admin rules.
        public let accounts: TrainerAccounts
        /// The company's settings (correction window, flag threshold); the CLI creates companies through it.
        public let company: CompanyProfile
    }

    /// Clients and what is done with a client as a whole.
    public struct Clients: Sendable {
        /// The in-memory roster, search, create, edit, delete, photos.
        public let roster: ClientRoster
        /// Erasing a client at their request, leaving nothing of them but one audit line.
        public let erasure: ClientErasure
        /// Clients' records and the shipped questionnaires in HL7 FHIR R4.
        public let fhir: ClientFHIR
        /// Everything held about one client, for them to take away.
        public let export: ClientExport
        /// A client's page in one call: the client, the wheel, the year's results, the latest photos.
        public let overview: ClientOverview
        /// The clients a trainer should look at first (flags, screening due, gone quiet).
        public let attention: ClientAttention
    }

    /// Screening questionnaires and clients' answers to them.
    public struct Screenings: Sendable {
        /// The shipped screening questionnaires, loaded and checked at start-up.
        public let questionnaires: QuestionnaireCatalog
        /// Starting, answering, completing and amending clients' screenings.
        public let answers: ClientScreenings
    }

    /// Themes: the shipped ones and each company's choice.
    public struct Themes: Sendable {
        /// The shipped themes (`Themes/`), loaded and checked at start-up.
        public let catalog: ThemeCatalog
        /// Each company's theme and logo; what reports and wheel pictures are drawn with.
        public let companies: CompanyThemes
    }

    /// Exercise packs and their scoring.
    public struct Exercises: Sendable {
        /// Which exercise packs each company sees, in memory; reloaded after an import.
        public let catalog: ExerciseCatalog
        /// Scores results with the pack's script in the scoring workers (docs/ARCHITECTURE.md §3).
        public let scorer: ExerciseScorer
        /// Imports packs (shipped ones at start-up, a company's upload over HTTP), checking every example first.
        public let packImport: ExercisePackImport
    }

    /// Photos and videos on results.
    public struct Media: Sendable {
        /// Uploading, listing, captioning, downloading and deleting media, sealed, under each company's quota.
        public let library: ResultMedia
        /// Thumbnails of result photos and poster cards of videos, cached.
        public let thumbnails: MediaThumbnails
        /// Removes media files whose rows are gone; `serve` sweeps with it at start-up.
        public let files: MediaFileRemover
        /// Reads and decodes tenants' pictures and videos in confined worker processes (docs/ARCHITECTURE.md §3).
        public let workers: MediaWorkers
    }

    /// Health wheels.
    public struct Wheels: Sendable {
        /// Clients' health wheels as data, cached per client.
        public let data: ClientWheels
        /// Clients' wheels drawn as SVG or PNG in the company's theme.
        public let pictures: WheelPictures
    }

    /// Email.
    public struct Mail: Sendable {
        /// Where report emails go (an SMTP server, or a folder of `.eml` files), the sender's address, the daily allowance.
        public let settings: MailSettings
        /// Delivers the outbox in the background; the door runs it as a service for as long as it serves.
        public let sender: MailSender
        /// Emails a client's report: accepted into the outbox at once, delivered by `sender`.
        public let emails: ReportEmails
    }

    /// Webhooks: a company's endpoints, and the outbox that delivers its events to them.
    public struct Webhooks: Sendable {
        /// Registering, changing, rotating and deleting endpoints; their delivery logs and replays (admins).
        public let endpoints: WebhookEndpoints
        /// Delivers the outbox in the background; the door runs it as a service for as long as it serves.
        public let sender: WebhookSender
    }

    public let trainers: Trainers
    public let clients: Clients
    public let screenings: Screenings
    public let themes: Themes
    public let exercises: Exercises
    /// Recording, editing, deleting and rescoring assessment results.
    public let results: AssessmentResults
    /// Looks up `Idempotency-Key`s before a retried POST repeats its work.
    public let idempotency: IdempotencyKeys
    public let media: Media
    public let wheels: Wheels
    /// Clients' progress reports (HTML, PDF), drawn from their results and wheel.
    public let reports: ClientReports
    public let mail: Mail
    /// The audit trail: read by admins, checked by the operator.
    public let audit: AuditTrail
    /// Each company's changes, in the order they committed, for apps that keep a copy (read from the audit trail).
    public let changes: ChangesFeed
    public let webhooks: Webhooks
    /// The clock every use case reads; tests pass a fixed one.
    public let clock: any WallClock

    /// - Parameters:
    ///   - clientLists: what the in-memory client lists may hold; `onClientListsChange` hears how many lists
    ///     and bytes they hold (the API: its metrics).
    ///   - renderClient: how the door keeps each client of an in-memory roster, ready to send (the API: its JSON).
    ///   - renderChanges: how the door keeps a page of the changes feed, ready to send (the API: its JSON).
    public init(
        store: Repositories,
        questionnaires: QuestionnaireCatalog,
        themes themeCatalog: ThemeCatalog,
        exercises: ExerciseCatalog,
        scorer: ExerciseScorer,
        mediaWorkers: MediaWorkers,
        mail mailSettings: MailSettings,
        webhooks webhookSettings: WebhookSettings = WebhookSettings(),
        mediaStorage: any MediaStorage,
        mediaQuota: Int = ResultMedia.defaultQuota,
        sessionPolicy: Sessions.Policy = Sessions.Policy(),
        clock: any WallClock = SystemClock(),
        logger: Logger,
        clientLists: ClientDirectoryCache.Limits = .init(),
        onClientListsChange: @escaping @Sendable (_ lists: Int, _ bytes: Int) -> Void = { _, _ in },
        renderClient: @escaping @Sendable (ClientRecord, Date) throws -> [UInt8],
        renderChanges: @escaping @Sendable (ChangesFeed.Page, Date) throws -> [UInt8]
    ) {
        let passwords = PasswordService()
        let mediaFiles = MediaFileRemover(store: store, storage: mediaStorage, clock: clock)
        let library = ResultMedia(
            store: store,
            storage: mediaStorage,
            remover: mediaFiles,
            mediaWorkers: mediaWorkers,
            quota: mediaQuota,
            clock: clock
        )
        let thumbnails = MediaThumbnails(media: library)
        media = Media(library: library, thumbnails: thumbnails, files: mediaFiles, workers: mediaWorkers)
        trainers = Trainers(
            sessions: Sessions(store: store, passwords: passwords, policy: sessionPolicy, clock: clock, catalog: exercises),
            accounts: TrainerAccounts(store: store, passwords: passwords, clock: clock),
            company: CompanyProfile(store: store)
        )
        let roster = ClientRoster(
            store: store,
            clock: clock,
            mediaWorkers: mediaWorkers,
            limits: clientLists,
            onHeldChange: onClientListsChange,
            mediaFiles: mediaFiles,
            render: renderClient
        )
        screenings = Screenings(questionnaires: questionnaires, answers: ClientScreenings(store: store, catalog: questionnaires, clock: clock))
        let companyThemes = CompanyThemes(
            themes: store.themes,
            catalog: themeCatalog,
            exercises: exercises,
            mediaWorkers: mediaWorkers,
            clock: clock,
            logger: logger
        )
        themes = Themes(catalog: themeCatalog, companies: companyThemes)
        self.exercises = Exercises(
            catalog: exercises,
            scorer: scorer,
            packImport: ExercisePackImport(store: store, catalog: exercises, scorer: scorer)
        )
        results = AssessmentResults(store: store, catalog: exercises, scorer: scorer, clock: clock, mediaFiles: mediaFiles)
        idempotency = IdempotencyKeys(repository: store.idempotency)
        let wheelData = ClientWheels(store: store, catalog: exercises)
        wheels = Wheels(data: wheelData, pictures: WheelPictures(wheels: wheelData, themes: companyThemes))
        reports = ClientReports(store: store, catalog: exercises, wheels: wheelData, themes: companyThemes, thumbnails: thumbnails, clock: clock)
        let sender = MailSender(deliveries: store.deliveries, settings: mailSettings, clock: clock, logger: logger)
        mail = Mail(
            settings: mailSettings,
            sender: sender,
            emails: ReportEmails(store: store, reports: reports, settings: mailSettings, sender: sender, clock: clock)
        )
        self.clock = clock
        audit = AuditTrail(store: store)
        let fhir = ClientFHIR(store: store, questionnaires: questionnaires, catalog: exercises, clock: clock)
        clients = Clients(
            roster: roster,
            erasure: ClientErasure(
                store: store,
                roster: roster,
                wheels: wheelData,
                results: results,
                thumbnails: thumbnails,
                mediaFiles: mediaFiles,
                mail: mailSettings,
                clock: clock
            ),
            fhir: fhir,
            export: ClientExport(store: store, fhir: fhir, reports: reports, media: library, clock: clock),
            overview: ClientOverview(store: store, wheels: wheelData, clock: clock),
            attention: ClientAttention(roster: roster, wheels: wheelData)
        )
        let webhookSender = WebhookSender(webhooks: store.webhooks, settings: webhookSettings, clock: clock, logger: logger)
        webhooks = Webhooks(
            endpoints: WebhookEndpoints(store: store, settings: webhookSettings, sender: webhookSender, clock: clock),
            sender: webhookSender
        )
        changes = ChangesFeed(
            store: store,
            roster: roster,
            screenings: screenings.answers,
            results: results,
            media: library,
            emails: mail.emails,
            accounts: trainers.accounts,
            themes: companyThemes,
            clock: clock,
            render: renderChanges
        )
    }
}
