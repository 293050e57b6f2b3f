import ServiceLifecycle
import Services

/// Runs an outbox's sender (email, webhooks) beside the HTTP server, and stops it when the server shuts down
/// gracefully.
struct OutboxService: Service {
    let work: @Sendable () async -> Void

    func run() async throws {
        await cancelWhenGracefulShutdown { await work() }
    }
}
