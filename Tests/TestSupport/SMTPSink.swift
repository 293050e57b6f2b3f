import Foundation

/// A real SMTP server for a test: `Tests/SMTPSink/smtp_sink.py` (aiosmtpd, from PyPI, in the virtual environment
/// `scripts/test` makes) on a free loopback port. Every message it accepts is parsed by Python's email package
/// and described as a `Received`. Recipients named `bounce…` are refused (550), `busy…` put off (451), and
/// `flaky…` dropped mid-`DATA` on the first try of each message.
public final class SMTPSink: Sendable {
    public let port: Int
    private let folder: TemporaryDirectory
    private let process: RunningProcess

    /// The interpreter with aiosmtpd: `$HEALTHWHEEL_TEST_PYTHON`, else `.build/test-python/bin/python3`.
    public static var python: URL {
        if let path = ProcessInfo.processInfo.environment["HEALTHWHEEL_TEST_PYTHON"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return RepositoryRoot.url.appendingPathComponent(".build/test-python/bin/python3")
    }

    public init() throws {
        folder = TemporaryDirectory()
        (process, port) = try PythonHelper.start("Tests/SMTPSink/smtp_sink.py", arguments: [folder.path], folder: folder, what: "the SMTP sink")
    }

    deinit {
        process.stop()
        _ = process.finish()
    }

    /// `smtp://127.0.0.1:<port>`.
    public var url: String { "smtp://127.0.0.1:\(port)" }

    /// One accepted message: the raw bytes, and Python's reading of them.
    public struct Received: @unchecked Sendable {
        public let raw: Data
        public let summary: [String: Any]

        public var parts: [[String: Any]] { summary["parts"] as? [[String: Any]] ?? [] }
        public func part(_ contentType: String) -> [String: Any]? { parts.first { $0["contentType"] as? String == contentType } }
        public subscript(key: String) -> Any? { summary[key] }
    }

    /// How many connections clients have opened to the sink so far.
    public func connections() -> Int {
        (try? String(contentsOf: folder.url.appendingPathComponent("connections"), encoding: .utf8)).flatMap { Int($0) } ?? 0
    }

    /// The messages accepted so far, in order.
    public func received() throws -> [Received] {
        var messages: [Received] = []
        var index = 1
        while let json = try? Data(contentsOf: folder.url.appendingPathComponent("\(index).json")) {
            let summary = try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
            messages.append(Received(raw: try Data(contentsOf: folder.url.appendingPathComponent("\(index).eml")), summary: summary))
            index += 1
        }
        return messages
    }

    public struct SinkError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
