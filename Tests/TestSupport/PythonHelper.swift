import Foundation

/// The tests' Python servers (the SMTP sink, the webhook receiver): started from the virtual environment
/// `scripts/test` makes, each writing the port it listens on into its folder once it is ready.
public enum PythonHelper {
    /// Starts `script` (a path under the repository) with `arguments`, and waits up to 30 s for `folder/port`.
    public static func start(_ script: String, arguments: [String], folder: TemporaryDirectory, what: String) throws -> (RunningProcess, Int) {
        guard FileManager.default.isExecutableFile(atPath: SMTPSink.python.path) else {
            let python = SMTPSink.python.path
            throw SMTPSink.SinkError("no Python with aiosmtpd at \(python): run the tests with scripts/test (make test), which makes it")
        }
        let process = RunningProcess(
            executable: SMTPSink.python,
            arguments: [RepositoryRoot.url.appendingPathComponent(script).path] + arguments,
            environment: ["PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"]
        )
        try process.start()
        let portFile = folder.url.appendingPathComponent("port")
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: portFile.path) {
            guard process.isRunning, Date() < deadline else {
                let result = process.finish()
                throw SMTPSink.SinkError("\(what) did not start: \(result.errors)")
            }
            usleep(20_000)
        }
        return (process, Int(try String(contentsOf: portFile, encoding: .utf8)) ?? 0)
    }
}
