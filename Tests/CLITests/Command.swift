import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `healthwheel` executable built next to this test bundle, run as a real child process.
enum Command {
    static let executable: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("healthwheel")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return RepositoryRoot.url.appendingPathComponent(".build/debug/healthwheel")
    }()

    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `healthwheel arguments…` to completion (killed after `timeout` seconds) with only `environment` set.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> Result {
        let process = RunningProcess(arguments, environment: environment)
        try process.start()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.stop() }
        return process.finish()
    }
}

/// A child process whose output is collected while it runs.
final class RunningProcess: Sendable {
    private let process: Mutex<Process>
    private let output = Mutex(Data())
    private let errors = Mutex(Data())
    private let outPipe = Pipe()
    private let errPipe = Pipe()

    init(_ arguments: [String], environment: [String: String]) {
        let process = Process()
        process.executableURL = Command.executable
        process.arguments = arguments
        // Resources are found through the variable, wherever the test runs from.
        process.environment = environment.merging(["HEALTHWHEEL_RESOURCES_DIR": RepositoryRoot.url.path]) { own, _ in own }
        process.standardOutput = outPipe
        process.standardError = errPipe
        self.process = Mutex(process)
    }

    /// Foundation's `Process.run` on Linux is not safe to call from several threads at once (a test run crashed
    /// inside it with two launches in parallel), so launches take turns.
    private static let launches = Mutex(())

    func start() throws {
        try Self.launches.withLock { _ in try launch() }
    }

    private func launch() throws {
        outPipe.fileHandleForReading.readabilityHandler = { [self] handle in
            let chunk = handle.availableData
            self.output.withLock { $0.append(chunk) }
        }
        errPipe.fileHandleForReading.readabilityHandler = { [self] handle in
            let chunk = handle.availableData
            self.errors.withLock { $0.append(chunk) }
        }
        try process.withLock { try $0.run() }
    }

    var isRunning: Bool { process.withLock { $0.isRunning } }
    /// The child's process id, for a test that signals it itself (`kill(pid, SIGKILL)`).
    var processIdentifier: Int32 { process.withLock { $0.processIdentifier } }
    var outputText: String { output.withLock { String(decoding: $0, as: UTF8.self) } }

    func stop() { process.withLock { $0.terminate() } }

    /// Waits for the process to end and returns what it printed.
    func finish() -> Command.Result {
        process.withLock { $0.waitUntilExit() }
        outPipe.fileHandleForReading.readabilityHandler = nil
        errPipe.fileHandleForReading.readabilityHandler = nil
        let restOut = outPipe.fileHandleForReading.readDataToEndOfFile()
        let restErr = errPipe.fileHandleForReading.readDataToEndOfFile()
        output.withLock { $0.append(restOut) }
        errors.withLock { $0.append(restErr) }
        return Command.Result(
            status: process.withLock { $0.terminationStatus },
            output: outputText,
            errors: errors.withLock { String(decoding: $0, as: UTF8.self) }
        )
    }

    /// Polls the output until `pattern` appears (or `timeout` passes); returns the first capture group.
    func waitFor(_ pattern: String, timeout: TimeInterval = 60) throws -> String? {
        let regex = try Regex(pattern)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let match = try regex.firstMatch(in: outputText) {
                return match.output.count > 1 ? match.output[1].substring.map(String.init) : String(match.output[0].substring ?? "")
            }
            if !isRunning { return nil }
            usleep(50_000)
        }
        return nil
    }
}

/// A small HTTP client for the spawned server.
enum HTTP {
    static func post(_ url: String, json: [String: String]) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: json)
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, object)
    }
}
