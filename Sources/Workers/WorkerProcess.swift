import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One running worker process (scoring, media) and the server's end of its socket (non-blocking). Owned and used
/// by one pool thread: nothing here is shared.
public final class WorkerProcess {
    public let pid: pid_t
    public let socket: Int32
    private var ended = false

    /// Why a worker did not start.
    public struct StartFailure: Error {}

    /// Starts `executable arguments…` (the server itself, `/proc/self/exe`, with a worker command first) with an
    /// empty environment (no key or secret of the server's), its socket as fd 0, /dev/null as fd 1 and the
    /// server's stderr as fd 2, and waits for its `ready` frame, which it sends once confined.
    public init(executable: String, arguments: [String], ready: [UInt8]) throws(StartFailure) {
        var ends: [Int32] = [-1, -1]
        // Close-on-exec from the start: a process another thread spawns meanwhile inherits neither end.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else { throw StartFailure() }
        defer { close(ends[1]) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)

        // No signal blocked and default handlers: the pool's thread inherited the server's mask.
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

        // The program's own path as its name (`ps` shows "/…/healthwheel score-worker", not "/proc/self/exe").
        let name = (try? FileManager.default.destinationOfSymbolicLink(atPath: executable)) ?? executable
        let argv = ([name] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var environment: [UnsafeMutablePointer<CChar>?] = [nil]
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, &attributes, argv, &environment) == 0 else {
            close(ends[0])
            throw StartFailure()
        }
        self.pid = pid
        socket = ends[0]
        guard awaitReady(ready) else {
            _ = stop(kill: true)
            throw StartFailure()
        }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
    }

    /// Waits (blocking, on the pool's thread) for the worker's `ready` frame, sent once it is confined.
    private func awaitReady(_ expected: [UInt8]) -> Bool {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: expected.count)
        var wanted = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let giveUp = ContinuousClock.now + Self.startUpLimit
        while received.count < expected.count {
            let left = ContinuousClock.now.duration(to: giveUp)
            guard left > .zero else { return false }
            let ready = poll(&wanted, 1, Int32(clamping: left.milliseconds + 1))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            let count = recv(socket, &chunk, expected.count - received.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            received += chunk[0..<count]
        }
        return received == expected
    }

    /// A worker that is not ready by then is not coming (a debug build on a loaded machine takes well under 1 s).
    public static let startUpLimit: Duration = .seconds(10)

    deinit {
        if !ended { _ = stop(kill: true) }
    }

    /// Whether the idle worker is gone (killed from outside, or crashed): an idle worker never writes, so a
    /// readable socket means its end closed. Asked before a batch is sent, so no call is lost to a dead worker.
    public var hasEnded: Bool {
        var state = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&state, 1, 0) != 0
    }

    /// Ends the worker (SIGKILL, or by closing its socket) and reaps it; says how it ended.
    public func stop(kill killing: Bool) -> String {
        if killing { kill(pid, SIGKILL) }
        close(socket)
        ended = true
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? "exit status \((status >> 8) & 0xff)" : "killed by signal \(signal)"
    }
}

extension WorkerProcess {
    /// How one request to a worker ended (`exchange`).
    public enum Exchange {
        /// The reply's payload (the frame without its length).
        case reply([UInt8])
        /// The deadline passed first; the worker is still running and must be killed.
        case timedOut
        /// The worker's socket closed or failed: it ended (a crash, a kill from outside).
        case ended
        /// A reply frame longer than allowed.
        case malformed
    }

    /// Sends one request frame and waits (blocking, on the pool's thread) for its whole reply, until `deadline`.
    /// For workers that answer one request at a time; the socket is non-blocking, so a large request and its
    /// reply never wait on each other.
    public func exchange(_ frame: [UInt8], until deadline: ContinuousClock.Instant, maximumReplyBytes: Int) -> Exchange {
        var written = 0
        var input: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            var wanted = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if written < frame.count { wanted.events |= Int16(POLLOUT) }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .timedOut }
            let ready = poll(&wanted, 1, Int32(clamping: left.milliseconds + 1))
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { return .ended }
            if wanted.revents & Int16(POLLOUT) != 0 {
                let count = frame[written...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count > 0 { written += count }
            }
            guard wanted.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
            let count = recv(socket, &chunk, chunk.count, 0)
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard count > 0 else { return .ended }
            input.append(contentsOf: chunk[0..<count])
            do {
                guard let length = try WorkerFrame.completeLength(in: input, from: 0, maximum: maximumReplyBytes) else { continue }
                // One request, one reply: anything after it is not a reply to anything.
                guard length == input.count else { return .malformed }
                return .reply(Array(input[4...]))
            } catch {
                return .malformed
            }
        }
    }
}
