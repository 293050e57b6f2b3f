import API
import ArgumentParser
import Console
import Foundation
import HealthwheelCore
import Hummingbird
import Media
import Reports
import Scoring
import Services
import Store
import StoreContract
import Workers

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the HTTP server.")

    @OptionGroup var data: DataOptions
    @Option(help: "Address to listen on (default: $HEALTHWHEEL_HOST, else 127.0.0.1).")
    var host: String?
    @Option(help: "Port to listen on (default: $HEALTHWHEEL_PORT, else 8080).")
    var port: Int?
    @Flag(help: "Leave an empty database empty: no demo company or sample clients (also $HEALTHWHEEL_NO_DEMO=1).")
    var noDemo = false

    /// PostgreSQL connections: the statements this node has in flight at once (a quarter more, at least one, for the
    /// callers that block a thread while they wait: roster scans, media files).
    static var connections: Int {
        Environment.value("HEALTHWHEEL_DATABASE_CONNECTIONS").flatMap(Int.init).map { max(1, min($0, 256)) } ?? 16
    }

    func run() async throws {
        ProcessMemory.keepFreedMemoryFromPiling()
        let logger = Log.bootstrap()
        let directory = data.directory
        let resources = try Resources.locate()
        let mailSettings = try MailEnvironment.settings(data: directory)
        let webhookSettings = try WebhookEnvironment.settings()
        // Shipped data is checked before the database is opened: a broken file changes nothing.
        let questionnaires = try QuestionnaireCatalog.load(from: resources.questionnaires)
        let themes = try ThemeCatalog.load(from: resources.themes)
        try ReportHTML.checkTemplate()
        // Tenant scripts run in confined worker processes (this binary, as `healthwheel score-worker`).
        let scorer = ExerciseScorer(workers: ScoringWorkers(report: { logger.warning("\($0)") }))
        defer { scorer.workers.shutdown() }
        // Tenants' pictures are read and decoded in confined worker processes too (`healthwheel media-worker`).
        let mediaWorkers = MediaWorkers(report: { logger.warning("\($0)") })
        defer { mediaWorkers.shutdown() }
        let shippedPacks = try await ExercisePackImport.readFiles(at: resources.exercises, scorer: scorer)
        let database = try data.openStoreDatabase(readers: 4, connections: Self.connections, resources: resources, logger: logger)
        defer { database.close() }
        let store = try await data.keyedStore(over: database) { logger.notice("\($0)") }
        var clientLists = ClientDirectoryCache.Limits()
        if let megabytes = try Environment.value("HEALTHWHEEL_CLIENT_LISTS_MIB").map(Self.mebibytes) { clientLists.bytes = megabytes << 20 }
        let mediaQuota = try Environment.value("HEALTHWHEEL_MEDIA_QUOTA").map(Self.bytes) ?? ResultMedia.defaultQuota
        let useCases = UseCases(
            store: store,
            questionnaires: questionnaires,
            themes: themes,
            exercises: ExerciseCatalog(folder: resources.exercises),
            scorer: scorer,
            mediaWorkers: mediaWorkers,
            mail: mailSettings,
            webhooks: webhookSettings,
            // Media live where every node reaches them: in PostgreSQL when the store is there.
            mediaStorage: try database.mediaStorage(folder: directory.mediaFolder),
            mediaQuota: mediaQuota,
            logger: logger,
            clientLists: clientLists,
            onClientListsChange: clientListMetrics,
            renderClient: clientListRendering,
            renderChanges: changesRendering
        )
        // Shipped packs are (re)imported on every start: a new version in Exercises/ becomes current, earlier
        // versions stay stored, and a file changed without a new version stops start-up with nothing imported.
        try await useCases.exercises.packImport.reloadCatalog()
        try await useCases.exercises.packImport.importFiles(shippedPacks, owner: ExerciseCatalog.everyCompany, at: Date()) { file, outcome in
            if outcome == .imported { logger.info("imported exercise pack \(file)") }
        }
        // What a crash left of media: unfinished uploads, files whose rows are gone.
        let swept = try await useCases.media.files.sweep()
        if swept > 0 { logger.info("removed \(swept) media files left by an interrupted upload or delete") }
        try await useCases.clients.erasure.finishInterrupted()

        var configuration = APIConfiguration()
        configuration.host = host ?? Environment.value("HEALTHWHEEL_HOST") ?? "127.0.0.1"
        configuration.port = try port ?? Environment.value("HEALTHWHEEL_PORT").map(Self.port) ?? 8080
        if let maximum = Environment.value("HEALTHWHEEL_MAX_CONNECTIONS") {
            guard let value = Int(maximum), (1...100_000).contains(value) else {
                throw ValidationError("HEALTHWHEEL_MAX_CONNECTIONS must be a whole number from 1 to 100000")
            }
            configuration.maxConnections = value
        }
        let publicURL = try Self.publicURL()
        if !noDemo && Environment.value("HEALTHWHEEL_NO_DEMO") != "1" {
            let shown = configuration.host == "0.0.0.0" || configuration.host == "::" ? "127.0.0.1" : configuration.host
            let address = publicURL?.absoluteString ?? "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(configuration.port)"
            try await DemoCompany.createIfEmpty(useCases, consoleAddress: address)
        }
        if database.isShared {
            logger.info("database \(database.location) (health data sealed under the data key); shipped data from \(resources.root.path)")
        } else {
            logger.info("data folder \(directory.url.path) (database encrypted with SQLCipher); shipped data from \(resources.root.path)")
        }
        logger.info("loaded questionnaires: \(questionnaires.questionnaires.keys.sorted().joined(separator: ", "))")
        logger.info("loaded themes: \(themes.entries.keys.sorted().joined(separator: ", "))")
        let categories = useCases.exercises.catalog.categories(for: UUID()).map(\.pack.id)
        logger.info("exercise categories: \(categories.joined(separator: ", "))")
        logger.info("\(MailEnvironment.describe(mailSettings))")
        logger.info("\(WebhookEnvironment.describe(webhookSettings))")
        // The audit trail's head, kept outside the database every few minutes and once more on the way out.
        let checkpointFile = AuditCheckpointFile(path: directory.auditHeadPath, key: try directory.resolveAuditKey())
        let checkpoints = AuditCheckpoints(trail: useCases.audit, file: checkpointFile) { logger.notice("\($0)") }
        let checkpointing = Task { await checkpoints.run() }
        let console = try Console(useCases: useCases, configuration: ConsoleConfiguration(publicURL: publicURL))
        let app = buildApplication(useCases: useCases, configuration: configuration, logger: logger, alongside: console.addRoutes)
        let deadline = StopDeadline.arm(seconds: 8) { logger.warning("\($0)") }
        defer { for source in deadline { source.cancel() } }
        try await app.runService()
        checkpointing.cancel()
        await checkpointing.value
    }

    /// `HEALTHWHEEL_PUBLIC_URL`: where browsers reach the server (its scheme decides whether cookies are `Secure`).
    static func publicURL() throws -> URL? {
        guard let text = Environment.value("HEALTHWHEEL_PUBLIC_URL") else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("HEALTHWHEEL_PUBLIC_URL must be an http or https URL, such as https://healthwheel.example.com")
        }
        return url
    }

    /// `HEALTHWHEEL_MEDIA_QUOTA`: bytes per company, as a number with an optional KiB, MiB or GiB.
    static func bytes(_ text: String) throws -> Int {
        let units: [(String, Int)] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10), ("", 1)]
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            let number = trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
            if let value = Int(number), value >= 0, value <= Int.max / scale { return value * scale }
        }
        throw ValidationError("HEALTHWHEEL_MEDIA_QUOTA must be a number of bytes, optionally with KiB, MiB or GiB (5GiB)")
    }

    static func mebibytes(_ text: String) throws -> Int {
        guard let value = Int(text), (0...1 << 20).contains(value) else {
            throw ValidationError("HEALTHWHEEL_CLIENT_LISTS_MIB must be a number of MiB (0 answers every list by SQL)")
        }
        return value
    }

    static func port(_ text: String) throws -> Int {
        guard let port = Int(text), (0...65_535).contains(port) else { throw ValidationError("HEALTHWHEEL_PORT must be a port number") }
        return port
    }
}
