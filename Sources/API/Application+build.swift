import Foundation
import HealthwheelCore
import Hummingbird
import Logging
import NIOCore
import Services
import StoreContract

/// Every route of the API on one router, with the middleware every request passes through, and the routes
/// `alongside` adds beside the API's (the web console's). Controllers get the use cases they call, never the store.
public func buildRouter(useCases: UseCases, alongside: (Router<AppRequestContext>) -> Void = { _ in }) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: RequestMetricsMiddleware())
    router.add(middleware: ProblemMiddleware())

    let openAPI = OpenAPIDocument(exercises: useCases.exercises.catalog, questionnaires: useCases.screenings.questionnaires)
    SystemController(metrics: MetricsRegistry.shared, openAPIDocument: openAPI).addRoutes(to: router)

    let v1 = router.group("v1")
    let authenticated = v1.group()
        .add(middleware: AuthenticationMiddleware(sessions: useCases.trainers.sessions))
        .group(context: AuthenticatedContext.self)
    let clock = useCases.clock
    let idempotency = IdempotentRequests(keys: useCases.idempotency, clock: clock)

    AuthController(sessions: useCases.trainers.sessions).addRoutes(public: v1, authenticated: authenticated)
    MeController().addRoutes(to: authenticated)
    CompanyController(profile: useCases.trainers.company, clock: clock).addRoutes(to: authenticated)
    TrainersController(accounts: useCases.trainers.accounts).addRoutes(to: authenticated)
    ClientsController(clients: useCases.clients.roster, erasure: useCases.clients.erasure, clock: clock).addRoutes(to: authenticated)
    QuestionnairesController(catalog: useCases.screenings.questionnaires).addRoutes(to: authenticated)
    ThemeController(themes: useCases.themes.companies).addRoutes(to: authenticated)
    ScreeningsController(screenings: useCases.screenings.answers).addRoutes(to: authenticated)
    ExercisesController(
        catalog: useCases.exercises.catalog,
        themes: useCases.themes.companies,
        importer: useCases.exercises.packImport,
        scorer: useCases.exercises.scorer,
        clock: clock
    )
    .addRoutes(to: authenticated)
    ResultsController(results: useCases.results, idempotency: idempotency, catalog: useCases.exercises.catalog, clock: clock)
        .addRoutes(to: authenticated)
    WheelController(wheels: useCases.wheels.data, pictures: useCases.wheels.pictures, themes: useCases.themes.companies, clock: clock).addRoutes(
        to: authenticated
    )
    ReportController(reports: useCases.reports).addRoutes(to: authenticated)
    DeliveryController(emails: useCases.mail.emails, idempotency: idempotency).addRoutes(to: authenticated)
    MediaController(media: useCases.media.library, thumbnails: useCases.media.thumbnails).addRoutes(to: authenticated)
    AuditController(audit: useCases.audit).addRoutes(to: authenticated)
    ChangesController(changes: useCases.changes).addRoutes(to: authenticated)
    WebhooksController(endpoints: useCases.webhooks.endpoints).addRoutes(to: authenticated)
    FHIRController(fhir: useCases.clients.fhir).addRoutes(to: authenticated)
    ExportController(export: useCases.clients.export).addRoutes(to: authenticated)
    alongside(router)
    return router
}

/// What /metrics shows of the in-memory client lists: how many are held, and their bytes. The door's part of
/// `UseCases(onClientListsChange:)`.
public let clientListMetrics: @Sendable (_ lists: Int, _ bytes: Int) -> Void = { lists, bytes in
    ClientListGauges.held.set(Int64(lists))
    ClientListGauges.bytes.set(Int64(bytes))
}

private enum ClientListGauges {
    static let held = MetricsRegistry.shared.makeGauge(
        descriptor: .init(
            namespace: "healthwheel",
            metricName: "client_lists",
            unitName: "held",
            helpText: "Companies whose client list is held in memory"
        )
    )
    static let bytes = MetricsRegistry.shared.makeGauge(
        descriptor: .init(namespace: "healthwheel", metricName: "client_lists", unitName: "bytes", helpText: "Memory the held client lists take")
    )
}

/// How the API keeps each client of an in-memory roster, ready to send: its JSON in metric units, the answer
/// most asked for. The door's part of `UseCases(renderClient:)`.
public let clientListRendering: @Sendable (ClientRecord, Date) throws -> [UInt8] = { record, now in
    try ResponseJSONEncoder().encode(ClientBody(record, now: now, imperial: false))
}

/// The HTTP application on `configuration.host:port`: the API, and the routes `alongside` adds beside it.
public func buildApplication(
    useCases: UseCases,
    configuration: APIConfiguration,
    logger: Logger,
    alongside: (Router<AppRequestContext>) -> Void = { _ in },
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let connections = ConnectionLimits(maximum: configuration.maxConnections, headDeadline: configuration.headDeadline)
    return Application(
        router: buildRouter(useCases: useCases, alongside: alongside).refusingOtherMethods(),
        // Connections that send nothing for `idleTimeout` (a minute) are closed, so idle or stalled clients cannot pile
        // up, and so are those whose request head (`ConnectionGuard`) or body (`BodyRateGuard`) trickles in; at the
        // cap on connections, the one waiting longest for a request makes room. Clients that send
        // `Expect: 100-continue` hear `100 Continue` at once instead of waiting to send their body.
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [
                    ConnectionGuard(limits: connections), BodyRateGuard(rate: .init(window: configuration.bodyRateWindow)),
                    ExpectContinueHandler(),
                ],
                idleTimeout: configuration.idleTimeout
            )
        ),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "healthwheel"),
        services: [OutboxService(work: useCases.mail.sender.run), OutboxService(work: useCases.webhooks.sender.run)],
        onServerRunning: onServerRunning,
        logger: logger
    )
}
