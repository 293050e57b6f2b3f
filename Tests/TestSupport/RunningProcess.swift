import Foundation
import Synchronization

/// How a child process ended, and what it printed.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var output: String
    public var errors: String
}

/// A child process whose output is collected while it runs.
///
/// Spawned with `posix_spawn` rather than Foundation's `Process`: on Linux, `Process.run` over-reads a `dirent`
/// while it lists `/proc/self/fd` (swift-corelibs-foundation PR #5472) and crashed the test runner now and then.
public final class RunningProcess: Sendable {
    private let executable: URL
    private let arguments: [String]
    private let environment: [String: String]
    private let pid = Mutex<pid_t>(0)
    /// The exit status once reaped by `isRunning` or `finish`.
    private let exitStatus = Mutex<Int32?>(nil)
    private let output = Mutex(Data())
    private let errors = Mutex(Data())
    private let readersDone = DispatchGroup()

    /// `executable arguments…` with only `environment` set.
    public init(executable: URL, arguments: [String], environment: [String: String]) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }

    /// Launches take turns: a pipe is made close-on-exec only after it exists, and a child spawned by another
    /// test in that moment would keep it open (and its reader waiting for an end that never comes).
    private static let launches = Mutex(())

    public func start() throws {
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

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        // The child starts with no signal blocked and default handlers: the runner's threads block signals, and a
        // child inheriting that mask would never hear `stop()`'s SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let code = posix_spawn(&child, executable.path, &actions, &attributes, argv, envp)
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
    public var processIdentifier: pid_t { pid.withLock { $0 } }

    public var isRunning: Bool {
        if exitStatus.withLock({ $0 }) != nil { return false }
        var status: Int32 = 0
        guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else { return true }
        exitStatus.withLock { $0 = status }
        return false
    }

    public var outputText: String { output.withLock { String(decoding: $0, as: UTF8.self) } }

    public func stop() { kill(processIdentifier, SIGTERM) }

    /// Waits for the process to end and returns what it printed.
    public func finish() -> ProcessResult {
        if exitStatus.withLock({ $0 }) == nil {
            var status: Int32 = 0
            while waitpid(processIdentifier, &status, 0) < 0 && errno == EINTR {}
            exitStatus.withLock { $0 = status }
        }
        readersDone.wait()
        let status = exitStatus.withLock { $0 } ?? 0
        // Like Process.terminationStatus: the exit code, or the signal that ended the process.
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : status & 0x7f
        return ProcessResult(status: exitCode, output: outputText, errors: errors.withLock { String(decoding: $0, as: UTF8.self) })
    }

    /// Polls the output until `pattern` appears (or `timeout` passes); returns the first capture group.
    public func waitFor(_ pattern: String, timeout: TimeInterval = 60) throws -> String? {
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

extension RunningProcess {
    /// Runs `executable arguments…` to completion (killed after `timeout` seconds).
    public static func run(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String] = [:],
        timeout: TimeInterval = 60
    ) throws -> ProcessResult {
        let process = RunningProcess(executable: executable, arguments: arguments, environment: environment)
        try process.start()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.stop() }
        return process.finish()
    }
}
