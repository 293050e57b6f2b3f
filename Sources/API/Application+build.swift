import Foundation
import HealthwheelCore
import Hummingbird
import Logging
import NIOCore
import Services
import Store

/// Every route of the API on one router, with the middleware every request passes through.
public func buildRouter(
    store: Store,
    questionnaires: QuestionnaireCatalog,
    themes: ThemeCatalog,
    exercises: ExerciseCatalog,
    scorer: ExerciseScorer,
    mail: Mail,
    configuration: APIConfiguration,
    clock: any WallClock = SystemClock()
) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: ProblemMiddleware())

    SystemController(metrics: MetricsRegistry.shared, openAPIDocument: OpenAPIDocument.load()).addRoutes(to: router)

    let passwords = PasswordService()
    let v1 = router.group("v1")
    let authenticated = v1.group()
        .add(middleware: AuthenticationMiddleware(sessions: store.sessions, clock: clock))
        .group(context: AuthenticatedContext.self)

    let sessions = Sessions(
        store: store,
        passwords: passwords,
        limits: configuration.loginLimits,
        clock: clock,
        tokenLifetime: configuration.tokenLifetime
    )
    AuthController(sessions: sessions).addRoutes(public: v1, authenticated: authenticated)
    MeController().addRoutes(to: authenticated)
    CompanyController(profile: CompanyProfile(companies: store.companies)).addRoutes(to: authenticated)
    TrainersController(accounts: TrainerAccounts(trainers: store.trainers, passwords: passwords, clock: clock)).addRoutes(to: authenticated)
    ClientsController(store: store, clock: clock, directoryLimits: configuration.clientDirectories).addRoutes(to: authenticated)
    QuestionnairesController(catalog: questionnaires).addRoutes(to: authenticated)
    let companyThemes = CompanyThemes(themes: store.themes, catalog: themes, clock: clock)
    ThemeController(themes: companyThemes).addRoutes(to: authenticated)
    ScreeningsController(screenings: ClientScreenings(store: store, catalog: questionnaires, clock: clock)).addRoutes(to: authenticated)
    ExercisesController(
        catalog: exercises,
        importer: ExercisePackImport(store: store, catalog: exercises, scorer: scorer),
        scorer: scorer,
        clock: clock
    ).addRoutes(to: authenticated)
    ResultsController(
        store: store,
        results: AssessmentResults(store: store, catalog: exercises, scorer: scorer, clock: clock),
        catalog: exercises,
        clock: clock
    ).addRoutes(to: authenticated)
    let wheels = ClientWheels(store: store, catalog: exercises)
    WheelController(wheels: wheels, pictures: WheelPictures(wheels: wheels, themes: companyThemes), clock: clock).addRoutes(to: authenticated)
    let reports = ClientReports(store: store, catalog: exercises, wheels: wheels, themes: companyThemes, clock: clock)
    ReportController(reports: reports).addRoutes(to: authenticated)
    DeliveryController(
        emails: ReportEmails(store: store, reports: reports, settings: mail.settings, sender: mail.sender, clock: clock),
        idempotency: IdempotentRequests(repository: store.idempotency, clock: clock)
    ).addRoutes(to: authenticated)
    return router
}

/// How the application sends email, and the sender that delivers its outbox.
public struct Mail: Sendable {
    public let settings: MailSettings
    public let sender: MailSender

    public init(settings: MailSettings, store: Store, clock: any WallClock = SystemClock(), logger: Logger) {
        self.settings = settings
        sender = MailSender(deliveries: store.deliveries, settings: settings, clock: clock, logger: logger)
    }
}

/// The HTTP application on `configuration.host:port`.
public func buildApplication(
    store: Store,
    questionnaires: QuestionnaireCatalog,
    themes: ThemeCatalog,
    exercises: ExerciseCatalog,
    scorer: ExerciseScorer,
    mail: Mail,
    configuration: APIConfiguration,
    clock: any WallClock = SystemClock(),
    logger: Logger,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        router: buildRouter(
            store: store,
            questionnaires: questionnaires,
            themes: themes,
            exercises: exercises,
            scorer: scorer,
            mail: mail,
            configuration: configuration,
            clock: clock
        ),
        // Connections that send nothing for a minute are closed, so idle or stalled clients cannot pile up. Clients
        // that send `Expect: 100-continue` hear `100 Continue` at once instead of waiting to send their body.
        server: .http1(configuration: .init(additionalChannelHandlers: [ExpectContinueHandler()], idleTimeout: .seconds(60))),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "healthwheel"),
        services: [MailSenderService(sender: mail.sender)],
        onServerRunning: onServerRunning,
        logger: logger
    )
}
