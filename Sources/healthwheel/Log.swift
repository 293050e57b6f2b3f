import Logging

enum Log {
    /// Logs go to standard output; the level comes from `HEALTHWHEEL_LOG_LEVEL` (default `info`).
    static func bootstrap() -> Logger {
        let level = Environment.value("HEALTHWHEEL_LOG_LEVEL").flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "healthwheel")
    }
}
