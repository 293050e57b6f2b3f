/// Where the HTTP server listens; the defaults are the production values. (How long a login lasts is the
/// use cases' `Sessions.Policy`.)
public struct APIConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080

    public init(host: String = "127.0.0.1", port: Int = 8080) {
        self.host = host
        self.port = port
    }
}
