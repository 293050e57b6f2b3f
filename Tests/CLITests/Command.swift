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
///
/// Spawned with `posix_spawn` rather than Foundation's `Process`: on Linux, `Process.run` over-reads a `dirent`
/// while it lists `/proc/self/fd` (swift-corelibs-foundation PR #5472) and crashed the test runner now and then.
final class RunningProcess: Sendable {
    private let arguments: [String]
    private let environment: [String: String]
    private let pid = Mutex<pid_t>(0)
    /// The exit status once reaped by `isRunning` or `finish`.
    private let exitStatus = Mutex<Int32?>(nil)
    private let output = Mutex(Data())
    private let errors = Mutex(Data())
    private let readersDone = DispatchGroup()

    init(_ arguments: [String], environment: [String: String]) {
        self.arguments = arguments
        // Resources are found through the variable, wherever the test runs from.
        self.environment = environment.merging(["HEALTHWHEEL_RESOURCES_DIR": RepositoryRoot.url.path]) { own, _ in own }
    }

    /// Launches take turns: a pipe is made close-on-exec only after it exists, and a child spawned by another
    /// test in that moment would keep it open (and its reader waiting for an end that never comes).
    private static let launches = Mutex(())

    func start() throws {
        try Self.launches.withLock { _ in try launch() }
    }

    private func launch() throws {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw POSIXError(.EMFILE) }
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        // dup2 clears close-on-exec on 1 and 2 only; what else the runner has open is close-on-exec.

        let argv = ([Command.executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let code = posix_spawn(&child, Command.executable.path, &actions, nil, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard code == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        pid.withLock { $0 = child }
        collect(outPipe[0], isErrorStream: false)
        collect(errPipe[0], isErrorStream: true)
    }

    /// Reads `fd` to its end on a thread of its own, appending to the output or the errors.
    private func collect(_ fd: Int32, isErrorStream: Bool) {
        readersDone.enter()
        Thread.detachNewThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(fd, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                if isErrorStream {
                    errors.withLock { $0.append(contentsOf: chunk[0..<count]) }
                } else {
                    output.withLock { $0.append(contentsOf: chunk[0..<count]) }
                }
            }
            close(fd)
            readersDone.leave()
        }
    }

    /// The child's process id (for signals a test sends itself).
    var processIdentifier: pid_t { pid.withLock { $0 } }

    var isRunning: Bool {
        if exitStatus.withLock({ $0 }) != nil { return false }
        var status: Int32 = 0
        guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else { return true }
        exitStatus.withLock { $0 = status }
        return false
    }

    var outputText: String { output.withLock { String(decoding: $0, as: UTF8.self) } }

    func stop() { kill(processIdentifier, SIGTERM) }

    /// Waits for the process to end and returns what it printed.
    func finish() -> Command.Result {
        if exitStatus.withLock({ $0 }) == nil {
            var status: Int32 = 0
            while waitpid(processIdentifier, &status, 0) < 0 && errno == EINTR {}
            exitStatus.withLock { $0 = status }
        }
        readersDone.wait()
        let status = exitStatus.withLock { $0 } ?? 0
        // Like Process.terminationStatus: the exit code, or the signal that ended the process.
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : status & 0x7f
        return Command.Result(status: exitCode, output: outputText, errors: errors.withLock { String(decoding: $0, as: UTF8.self) })
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
