import Foundation
import Services

/// What the HTTP layer can be tuned with; the defaults are the production values.
public struct APIConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// How long a login token lives.
    public var tokenLifetime: TimeInterval = 12 * 60 * 60
    var loginLimits = LoginRateLimiter.Policy()
    /// What the in-memory client lists may hold.
    public var clientDirectories = ClientDirectoryCache.Limits()

    public init(host: String = "127.0.0.1", port: Int = 8080) {
        self.host = host
        self.port = port
    }
}
