import Foundation

/// A real HTTPS webhook receiver for a test: `Tests/WebhookReceiver/webhook_receiver.py` on a free loopback port,
/// with a self-signed certificate (`certificate`, for the sender to trust) and the `standardwebhooks` package from
/// PyPI checking each request's signature under `secret`, as a receiver would. Its paths choose its answers (see
/// the script).
public final class WebhookReceiver: Sendable {
    public let port: Int
    private let folder: TemporaryDirectory
    private let process: RunningProcess

    public init(secret: String) throws {
        folder = TemporaryDirectory()
        (process, port) = try PythonHelper.start(
            "Tests/WebhookReceiver/webhook_receiver.py",
            arguments: [folder.path, secret],
            folder: folder,
            what: "the webhook receiver"
        )
    }

    deinit {
        process.stop()
        _ = process.finish()
    }

    /// The PEM certificate the receiver serves: the CA a sender must trust.
    public var certificate: String { folder.url.appendingPathComponent("cert.pem").path }

    /// `https://localhost:<port><path>`.
    public func url(_ path: String, host: String = "localhost") -> String { "https://\(host):\(port)\(path)" }

    /// One request as the receiver saw it.
    public struct Request: Sendable, Decodable {
        public let path: String
        public let headers: [String: String]
        public let body: String
        /// Whether `standardwebhooks` verified its signature under one of the secrets.
        public let verified: Bool
        /// The secrets it verified under.
        public let verifiedWith: [String]
    }

    /// The secrets the receiver checks signatures under from now on (a server's, once it has made one).
    public func trust(secrets: [String]) throws {
        let file = folder.url.appendingPathComponent("secrets")
        try Data(secrets.joined(separator: "\n").utf8).write(to: file, options: .atomic)
    }

    /// The requests received so far, in order.
    public func requests() throws -> [Request] {
        guard let text = try? String(contentsOf: folder.url.appendingPathComponent("requests.jsonl"), encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }
}
