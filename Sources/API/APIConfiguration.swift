import NIOCore

/// Where the HTTP server listens; the defaults are the production values. (How long a login lasts is the
/// use cases' `Sessions.Policy`.)
public struct APIConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// A connection that sends nothing for this long is closed, so idle or stalled clients cannot pile up; an
    /// upload stalled that long is dropped and leaves nothing behind.
    public var idleTimeout: TimeAmount = .seconds(60)
    /// The measuring window of `BodyRateGuard`: a request body must bring 10 KiB in each (so 1 KiB a second at
    /// 10 s) and be done within an hour, or its connection is closed.
    public var bodyRateWindow: TimeAmount = .seconds(10)
    /// Connections held at most (`ConnectionLimits`): at the cap a new one closes the connection that has waited
    /// longest for a request, so held connections never lock out a new client.
    public var maxConnections = 512
    /// How long a request's head may take to arrive, from the connection's opening or its previous response.
    public var headDeadline: TimeAmount = .seconds(30)

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        idleTimeout: TimeAmount = .seconds(60),
        bodyRateWindow: TimeAmount = .seconds(10),
        maxConnections: Int = 512,
        headDeadline: TimeAmount = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.idleTimeout = idleTimeout
        self.bodyRateWindow = bodyRateWindow
        self.maxConnections = maxConnections
        self.headDeadline = headDeadline
    }
}
