import HealthwheelCore
import Hummingbird
import NIOCore
import Services
import StoreContract

/// The context every request starts with: the peer address (for rate limiting) and, once the authentication
/// middleware has run, the trainer the bearer token belongs to.
public struct AppRequestContext: RequestContext {
    /// Hummingbird's own per-request state: the logger, the matched route and its parameters.
    public var coreContext: CoreRequestContextStorage
    /// Kept so the peer address is looked up only by the routes that need it (login).
    private let channel: any Channel
    var principal: Principal?
    var tokenDigest: [UInt8]?

    /// Called by Hummingbird for each request on a channel; the principal stays nil until authentication runs.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// JSON bodies are small; uploads get their own, larger limits on their own routes.
    public var maxUploadSize: Int { 1 << 20 }

    /// The client's IP address, without the port.
    public var clientAddress: String { channel.remoteAddress?.ipAddress ?? "unknown" }
}
