import Foundation
import Logging
import Synchronization

enum Log {
    /// Logs go to standard output; the level comes from `HEALTHWHEEL_LOG_LEVEL` (default `info`).
    static func bootstrap() -> Logger {
        let level = Environment.value("HEALTHWHEEL_LOG_LEVEL").flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in LineLogHandler(label: label, logLevel: level) }
        return Logger(label: "healthwheel")
    }
}

/// One line per message on standard output, as swift-log's `StreamLogHandler` writes them
/// (`2026-11-24T10:00:00+0000 info healthwheel: hb.request.id=… [API] result recorded`).
///
/// Unlike `StreamLogHandler`, which formats its metadata again every time a key is set, this one formats only
/// when a message is actually written: every request sets a request id and a trainer id on its logger, and
/// most requests log nothing at the production level.
struct LineLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, logLevel: Logger.Level) {
        self.label = label
        self.logLevel = logLevel
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadataProvider?.get() ?? [:]
        all.merge(metadata) { _, own in own }
        if let extra = event.metadata { all.merge(extra) { _, given in given } }
        let fields = all.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        let line = "\(Self.timestamp()) \(event.level) \(label):\(fields) [\(event.source)] \(event.message)\n"
        Self.output.withLock { _ in try? FileHandle.standardOutput.write(contentsOf: Data(line.utf8)) }
    }

    private static let output = Mutex(())

    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
