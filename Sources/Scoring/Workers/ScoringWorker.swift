import Workers

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
        WorkerLoop.begin(.scoring)
        guard let limits = ScoringLimits(workerArguments: arguments) else {
            fail("usage: \(command) --instruction-budget N --memory-bytes N --time-limit-ms N")
        }
        let engine = ScoreEngine(limits: limits, maximumIdleStates: 1)
        // Builds the first Lua state and its sandbox before the filter is on, so the filter is tried on a warm heap.
        guard engine.check(source: "return 1") == nil else { fail("no Lua state could be created") }
        do {
            try WorkerConfinement.scoring.apply()
        } catch {
            fail("could not confine the worker: \(error)")
        }
        WorkerLoop.send(WorkerMessage.frame(.ready))
        WorkerLoop.serve(command: command, maximumFrameBytes: WorkerMessage.maximumFrameBytes) { payload in
            (try? WorkerMessage.request(payload)).map { WorkerMessage.frame(answer($0, engine)) }
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

    private static func fail(_ message: String) -> Never {
        WorkerLoop.fail(command: command, message)
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
