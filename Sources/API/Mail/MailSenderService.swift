import ServiceLifecycle
import Services

/// Runs the outbox's sender beside the HTTP server, and stops it when the server shuts down gracefully.
struct MailSenderService: Service {
    let sender: MailSender

    func run() async throws {
        await cancelWhenGracefulShutdown { await sender.run() }
    }
}
