import CSeccomp

#if canImport(Glibc)
import Glibc
#endif

/// The scoring worker's side: a process that holds nothing but the call in hand, confined before it reads its
/// first request (see `WorkerConfinement`), answering requests on fd 0 in order until the server closes it.
///
/// Any executable that links Scoring can host it (`healthwheel score-worker`, `scoring-bench score-worker`): its
/// `main` calls `run(arguments:)` first thing when its first argument is `command`.
public enum ScoringWorker {
    /// The first argument that makes an executable a scoring worker.
    public static let command = "score-worker"

    /// Serves the server on fd 0 and exits when it closes the socket. `arguments` are those after `command`, as
    /// `ScoringLimits.workerArguments` writes them.
    public static func run(arguments: [String]) -> Never {
        // Whatever the server had open and not marked close-on-exec is not the worker's business.
        _ = hw_close_from(3)
        guard let limits = ScoringLimits(workerArguments: arguments) else {
            fail("usage: \(command) --instruction-budget N --memory-bytes N --time-limit-ms N")
        }
        let engine = ScoreEngine(limits: limits, maximumIdleStates: 1)
        // Builds the first Lua state and its sandbox before the filter is on, so the filter is tried on a warm heap.
        guard engine.check(source: "return 1") == nil else { fail("no Lua state could be created") }
        do {
            try WorkerConfinement.apply()
        } catch {
            fail("could not confine the worker: \(error)")
        }
        send(WorkerMessage.frame(.ready))
        serve(engine)
    }

    /// Reads as many requests as have arrived and answers each in turn, writing each answer before it starts the
    /// next call: the server's deadline for a call runs from the answer to the one before it, so an answer held
    /// back would have the server blame the wrong call.
    private static func serve(_ engine: ScoreEngine) -> Never {
        var input: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = read(0, &chunk, chunk.count)
            if count == 0 { _exit(0) }
            if count < 0 {
                if errno == EINTR { continue }
                _exit(1)
            }
            input.append(contentsOf: chunk[0..<count])
            var start = 0
            while true {
                let complete: Int?
                do { complete = try WorkerMessage.completeFrameLength(in: input, from: start) } catch { fail("a request frame is too long") }
                guard let length = complete else { break }
                guard let request = try? WorkerMessage.request(input[(start + 4)..<(start + length)]) else { fail("a malformed request") }
                start += length
                send(WorkerMessage.frame(answer(request, engine)))
            }
            input.removeFirst(start)
        }
    }

    private static func answer(_ request: WorkerRequest, _ engine: ScoreEngine) -> WorkerReply {
        switch request {
        case .score(let script, let source, let subject, let value, let values):
            switch engine.score(script, source: source, subject: subject, value: value, values: values) {
            case .success(let score): .score(score)
            case .failure(let error): .failure(error)
            }
        case .check(let source):
            engine.check(source: source).map(WorkerReply.failure) ?? .compiles
        }
    }

    private static func send(_ output: [UInt8]) {
        var sent = 0
        while sent < output.count {
            let count = output[sent...].withUnsafeBytes { write(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { _exit(1) }
            sent += count
        }
    }

    private static func fail(_ message: String) -> Never {
        let line = Array("healthwheel \(command): \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        _exit(2)
    }
}

extension ScoringLimits {
    /// The limits as a worker's command line.
    var workerArguments: [String] {
        ["--instruction-budget", "\(instructionBudget)", "--memory-bytes", "\(memoryBytes)", "--time-limit-ms", "\(timeLimit.milliseconds)"]
    }

    /// Reads `workerArguments`; nil for anything else.
    init?(workerArguments arguments: [String]) {
        guard arguments.count == 6, arguments[0] == "--instruction-budget", arguments[2] == "--memory-bytes",
            arguments[4] == "--time-limit-ms", let budget = Int(arguments[1]), let memory = Int(arguments[3]),
            let milliseconds = Int64(arguments[5]), budget > 0, memory > 0, milliseconds > 0
        else { return nil }
        self.init(instructionBudget: budget, memoryBytes: memory, timeLimit: .milliseconds(milliseconds))
    }
}
