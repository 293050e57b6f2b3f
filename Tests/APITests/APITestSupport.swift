import Console
import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import HummingbirdTesting
import Logging
import Media
import NIOCore
import Scoring
import Services
import Store
import StoreContract
import Synchronization
import TestSupport
import Testing

@testable import API
@testable import Credentials

/// A real server on a real database (an encrypted file in a temp folder, or a PostgreSQL database of its own:
/// `TestBackend`), driven over real HTTP.
final class Fixture: Sendable {
    let folder: TemporaryDirectory
    let opened: TestDatabase
    var database: any SQLDatabase { opened.database }
    let store: Repositories
    /// Sealed media: files under `data/media` as an embedded server keeps them, or chunk rows in PostgreSQL.
    let mediaStorage: any MediaStorage
    let clock: ManualClock

    convenience init() throws {
        let folder = TemporaryDirectory()
        try self.init(folder: folder, opened: TestDatabase(folder), clock: ManualClock())
    }

    /// A second node of a cluster: another server (its own caches, connections, folder) on the first one's
    /// PostgreSQL database, reading the same clock.
    #if PostgreSQL
    convenience init(secondNodeOf first: Fixture) throws {
        let database = try #require(first.database as? PostgreSQLDatabase, "a second node needs PostgreSQL")
        try self.init(folder: TemporaryDirectory(), opened: TestDatabase(secondNodeOf: database), clock: first.clock)
    }
    #endif

    private init(folder: TemporaryDirectory, opened: TestDatabase, clock: ManualClock) throws {
        self.folder = folder
        self.opened = opened
        self.clock = clock
        store = Repositories(database: opened.database)
        mediaStorage = try opened.database.mediaStorage(folder: folder.dataDirectory.mediaFolder)
    }

    static let password = "correct horse battery staple"

    /// Media as stored, one element per stored file: the files under the media folder (embedded), or each blob's
    /// sealed chunks joined (PostgreSQL). An upload still coming in counts.
    func storedMedia() throws -> [[UInt8]] {
        guard database.dialect == .postgres else { return try filesUnder(folder.dataDirectory.mediaFolder) }
        return try database.readBlocking { db in
            var blobs: [String: [UInt8]] = [:]
            let rows = try await db.query(
                """
                SELECT b.media_id || '.' || b.variant AS blob, c.sealed FROM media_blobs b
                LEFT JOIN media_chunks c ON c.media_id = b.media_id AND c.variant = b.variant ORDER BY b.media_id, b.variant, c.chunk_index
                """
            )
            for row in rows { blobs[try row["blob"], default: []] += try row["sealed"] as [UInt8]? ?? [] }
            return Array(blobs.values)
        }
    }

    /// The embedded default: messages written to `outbox/` in the fixture's folder. The sender looks for due mail
    /// once a second, as a server does (and at once when an email is accepted): hundreds of test servers asking
    /// PostgreSQL twenty times a second filled a slow machine's cores on their own. Tests of retries, which move
    /// the clock on, set a shorter tick of their own.
    var outbox: MailSettings {
        MailSettings(route: .folder(folder.url.appendingPathComponent("outbox")), from: "reports@healthwheel.test")
    }

    struct Account: Sendable {
        let trainer: Trainer
        let password: String
        var email: String { trainer.email }
    }

    func company(_ name: String = "Company \(UUID().uuidString.prefix(6))") async throws -> Company {
        let company = Company(name: name, createdAt: clock.now)
        try await store.companies.create(company)
        return company
    }

    func trainer(in company: Company, role: Role = .trainer, name: String? = nil) async throws -> Account {
        let trainer = Trainer(
            companyId: company.id,
            email: "t-\(UUID().uuidString.prefix(8).lowercased())@example.com",
            name: name ?? "Trainer \(UUID().uuidString.prefix(4))",
            role: role,
            createdAt: clock.now,
            updatedAt: clock.now
        )
        try await store.trainers.create(trainer, passwordHash: try PasswordHasher().hash(Self.password), audit: .byTest)
        return Account(trainer: trainer, password: Self.password)
    }
}

/// Builds the application on a new fixture (or `fixture`, to start a server again on the same data) and runs
/// `test` against it over a live HTTP connection. Email goes to `mail`, by default the fixture's outbox folder.
func withAPI(
    limits: LoginRateLimiter.Policy = .init(),
    logs: LogRecorder? = nil,
    fixture existing: Fixture? = nil,
    mail: (@Sendable (Fixture) -> MailSettings)? = nil,
    scorer: ExerciseScorer = Shipped.scorer,
    mediaWorkers: MediaWorkers = Shipped.mediaWorkers,
    mediaQuota: Int = ResultMedia.defaultQuota,
    idleTimeout: TimeAmount = .seconds(60),
    bodyRateWindow: TimeAmount = .seconds(10),
    maxConnections: Int = 512,
    headDeadline: TimeAmount = .seconds(30),
    webhooks: WebhookSettings = WebhookSettings(),
    _ test: @Sendable (Fixture, any TestClientProtocol) async throws -> Void
) async throws {
    let fixture = try existing ?? Fixture()
    var logger = Logger(label: "healthwheel-test")
    logger.logLevel = .critical
    if let logs { logger = Logger(label: "healthwheel-test") { _ in RecordingLogHandler(recorder: logs) } }
    let useCases = try testUseCases(
        fixture,
        logger: logger,
        loginLimits: limits,
        mail: mail?(fixture),
        scorer: scorer,
        mediaWorkers: mediaWorkers,
        mediaQuota: mediaQuota,
        webhooks: webhooks
    )
    // As `serve` starts: what is stored already (a second node's packs, imported by the first) is the catalog.
    try await useCases.exercises.packImport.reloadCatalog()
    try await useCases.exercises.packImport.importFiles(
        try await ExercisePackImport.readFiles(at: RepositoryRoot.url.appendingPathComponent("Exercises"), scorer: Shipped.scorer),
        owner: ExerciseCatalog.everyCompany,
        at: fixture.clock.now
    ) { _, _ in }
    let app = buildApplication(
        useCases: useCases,
        configuration: APIConfiguration(
            host: "127.0.0.1",
            port: 0,
            idleTimeout: idleTimeout,
            bodyRateWindow: bodyRateWindow,
            maxConnections: maxConnections,
            headDeadline: headDeadline
        ),
        logger: logger,
        alongside: try Console(useCases: useCases).addRoutes
    )
    try await app.test(.live) { client in try await test(fixture, client) }
}

/// `withAPI` for a test part that answers something (a setup a later server instance reuses).
func withAPIValue<T: Sendable>(
    fixture: Fixture,
    _ body: @Sendable @escaping (Fixture, any TestClientProtocol) async throws -> T
) async throws -> T {
    let value = Mutex<T?>(nil)
    try await withAPI(fixture: fixture) { fixture, client in
        let answer = try await body(fixture, client)
        value.withLock { $0 = answer }
    }
    return try #require(value.withLock { $0 })
}

/// The server's use cases over the fixture's store, with the shipped questionnaires and themes.
func testUseCases(
    _ fixture: Fixture,
    logger: Logger = Logger(label: "healthwheel-test"),
    loginLimits: LoginRateLimiter.Policy = .init(),
    mail: MailSettings? = nil,
    scorer: ExerciseScorer = Shipped.scorer,
    mediaWorkers: MediaWorkers = Shipped.mediaWorkers,
    mediaQuota: Int = ResultMedia.defaultQuota,
    webhooks: WebhookSettings = WebhookSettings()
) throws -> UseCases {
    UseCases(
        store: fixture.store,
        questionnaires: try QuestionnaireCatalog.load(from: RepositoryRoot.url.appendingPathComponent("Questionnaires")),
        themes: try ThemeCatalog.load(from: RepositoryRoot.url.appendingPathComponent("Themes")),
        exercises: ExerciseCatalog(folder: RepositoryRoot.url.appendingPathComponent("Exercises")),
        scorer: scorer,
        mediaWorkers: mediaWorkers,
        mail: mail ?? fixture.outbox,
        webhooks: webhooks,
        mediaStorage: fixture.mediaStorage,
        mediaQuota: mediaQuota,
        sessionPolicy: Sessions.Policy(loginLimits: loginLimits),
        clock: fixture.clock,
        logger: logger,
        renderClient: clientListRendering,
        renderChanges: changesRendering
    )
}

/// One pool of scoring workers for every test app, as one server has: compiled scripts are shared. Its
/// wall-clock limit is longer than a server's: tests running in parallel on two cores can leave a worker
/// descheduled for more than 100 ms. The instruction budget, which hostile scripts meet first, is the same.
enum Shipped {
    static let scorer = ExerciseScorer(
        workers: ScoringWorkers(executable: HealthwheelExecutable.url.path, limits: ScoringLimits(timeLimit: .seconds(2)))
    )
    /// Media workers for every test app, as one server has; with its deadline, like the scorer's, longer than a
    /// server's for tests running in parallel on two cores.
    static let mediaWorkers = MediaWorkers(executable: HealthwheelExecutable.url.path, deadline: .seconds(30))
}

extension TestClientProtocol {
    /// Sends one request; `json` is sent as the body with `Content-Type: application/json`.
    func send(
        _ method: HTTPRequest.Method,
        _ uri: String,
        token: String? = nil,
        json: String? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var fields = headers
        if let token { fields[.authorization] = "Bearer \(token)" }
        if json != nil && fields[.contentType] == nil { fields[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: fields, body: json.map { ByteBuffer(string: $0) }) { $0 }
    }

    func login(_ email: String, _ password: String) async throws -> TestResponse {
        try await send(.post, "/v1/auth/login", json: jsonString(["email": email, "password": password]))
    }

    /// Logs in and returns the token, failing the test if that does not work.
    func token(for account: Fixture.Account) async throws -> String {
        let response = try await login(account.email, account.password)
        #expect(response.status == .ok)
        return try #require(response.object["token"] as? String)
    }
}

extension TestResponse {
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:]
    }

    var text: String { String(buffer: body) }

    /// The field names of a problem document's `errors`.
    var problemFields: [String] {
        (object["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
    }

    /// The messages of a problem document's `errors`, in order.
    var problemMessages: [String] {
        (object["errors"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }
}

/// Checks the RFC 9457 shape of an error response, and that it names `fields` (when given).
func expectProblem(
    _ response: TestResponse,
    _ status: HTTPResponse.Status,
    fields: [String]? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response.status == status, "body: \(response.text)", sourceLocation: sourceLocation)
    #expect(response.headers[.contentType] == "application/problem+json", sourceLocation: sourceLocation)
    let body = response.object
    #expect(body["status"] as? Int == Int(status.code), sourceLocation: sourceLocation)
    #expect((body["type"] as? String)?.hasPrefix("urn:healthwheel:problem:") == true, sourceLocation: sourceLocation)
    #expect(body["title"] is String && body["detail"] is String, sourceLocation: sourceLocation)
    if let fields { #expect(response.problemFields == fields, "body: \(response.text)", sourceLocation: sourceLocation) }
}

func jsonString(_ object: [String: Any]) -> String {
    String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
}

/// Keeps every log line (level, message and all metadata) so a test can read what the server logged.
final class LogRecorder: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
}

struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        recorder.append("\(event.level) \(event.message) \(fields)")
    }
}
