import HealthwheelCore
import Hummingbird
import NIOCore
import Store

/// The context every request starts with: the peer address (for rate limiting) and, once the authentication
/// middleware has run, the trainer the bearer token belongs to.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Kept so the peer address is looked up only by the routes that need it (login).
    private let channel: any Channel
    var principal: Principal?
    var tokenDigest: [UInt8]?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// JSON bodies are small; uploads get their own, larger limits on their own routes.
    public var maxUploadSize: Int { 1 << 20 }

    /// The client's IP address, without the port.
    var clientAddress: String { channel.remoteAddress?.ipAddress ?? "unknown" }
}

/// The context of routes behind authentication: a trainer is always present, so handlers need no checks.
struct AuthenticatedContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let principal: Principal
    let tokenDigest: [UInt8]

    /// The caller.
    var trainer: Trainer { principal.trainer }

    init(context: AppRequestContext) throws {
        guard let principal = context.principal, let digest = context.tokenDigest else { throw Problem.unauthenticated }
        self.coreContext = context.coreContext
        self.principal = principal
        self.tokenDigest = digest
    }

    var maxUploadSize: Int { 1 << 20 }

    /// Throws 403 unless the caller is an admin of their company.
    func requireAdmin() throws {
        guard trainer.role == .admin else { throw Problem.forbidden("this needs the admin role") }
    }
}
