/// Why a script gave no score. `message` is for people (an admin fixing the script reads it next to the result);
/// `kind` is for code.
public struct ScoringError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What stopped the script, for code that treats limits, crashes and bad scripts differently.
    public enum Kind: Sendable, Hashable {
        /// The source does not compile (syntax error, bytecode, too large).
        case compile
        /// The script raised an error while running.
        case runtime
        /// The script finished but returned no number in 0…10.
        case invalidResult
        /// The script ran past `ScoringLimits.instructionBudget`.
        case instructionBudget
        /// The script ran past `ScoringLimits.timeLimit`.
        case timeLimit
        /// The script needed more than `ScoringLimits.memoryBytes`.
        case memoryLimit
        /// The engine could not create a Lua state (the process is out of memory), or no scoring worker could
        /// be started.
        case unavailable
        /// The scoring worker running the script died (a crash, its confinement, or a signal from outside).
        case workerStopped
    }

    /// What kind of failure this was.
    public var kind: Kind
    /// One sentence for the admin who fixes the script, stored as the result's `scoreError`: at most 500 characters
    /// (Lua's own message cut short), positions written `[exercise] line 3:`.
    public var message: String

    /// A `runtime` error with `message`: the kind a script's own `error("…")` gives.
    public init(message: String) {
        self.init(kind: .runtime, message: message)
    }

    /// An error of `kind`; the engine builds most through the named constructors below.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// `message` alone, as results and import problems show it.
    public var description: String { message }
}

extension ScoringError {
    /// The name Lua gives every script in its messages: `[exercise]:3:` becomes `[exercise] line 3:`.
    static let chunkName = "[exercise]"

    /// Messages are stored with results: a script must not fill that field with a megabyte of error text.
    static let maximumMessageLength = 500

    static let bytecode = ScoringError(kind: .compile, message: "the script is precompiled Lua bytecode; only Lua source text is accepted")
    static let noValue = ScoringError(kind: .invalidResult, message: "the script did not return a value")
    static let notANumber = ScoringError(kind: .invalidResult, message: "the script returned NaN")
    static let unavailable = ScoringError(kind: .unavailable, message: "no Lua state could be created (out of memory)")
    static let noWorker = ScoringError(kind: .unavailable, message: "no scoring worker could be started")

    /// `how` says what ended the worker: "killed by signal 9", "exit status 1".
    static func workerStopped(_ how: String) -> ScoringError {
        ScoringError(kind: .workerStopped, message: "the scoring worker stopped while running the script (\(how))")
    }

    /// The examples of a pack share one wall-clock budget, so a pack cannot hold a worker for long.
    static func packTimeLimit(_ budget: Duration) -> ScoringError {
        ScoringError(kind: .timeLimit, message: "the pack's scripts ran past their shared time limit of \(budget.milliseconds) ms")
    }

    static func instructionBudget(_ limits: ScoringLimits) -> ScoringError {
        ScoringError(kind: .instructionBudget, message: "the script ran past its budget of \(limits.instructionBudget) instructions")
    }

    static func timeLimit(_ limits: ScoringLimits) -> ScoringError {
        ScoringError(kind: .timeLimit, message: "the script ran past its time limit of \(limits.timeLimit.milliseconds) ms")
    }

    static func memoryLimit(_ limits: ScoringLimits) -> ScoringError {
        let bytes = limits.memoryBytes
        let size =
            if bytes % (1 << 20) == 0 {
                "\(bytes >> 20) MiB"
            } else if bytes % (1 << 10) == 0 {
                "\(bytes >> 10) KiB"
            } else {
                "\(bytes) bytes"
            }
        return ScoringError(kind: .memoryLimit, message: "the script used more than \(size) of memory")
    }

    /// `typeName` is Lua's: "nil", "string", "boolean", "table", "function".
    static func wrongType(_ typeName: String) -> ScoringError {
        let what = typeName == "nil" ? "nil" : "a \(typeName)"
        return ScoringError(kind: .invalidResult, message: "the script returned \(what), not a number")
    }

    static func outOfRange(_ number: String) -> ScoringError {
        ScoringError(kind: .invalidResult, message: "the script returned \(number), outside 0…10")
    }

    /// An error value that is neither a string nor a number (`error({})`).
    static func errorValue(_ typeName: String) -> ScoringError {
        ScoringError(kind: .runtime, message: "the script raised an error with a \(typeName) value instead of a message")
    }

    /// Lua's own message, with its position `[exercise]:3:` read as `[exercise] line 3:`, and cut short.
    static func lua(_ kind: Kind, _ message: String) -> ScoringError {
        var text = message
        let prefix = chunkName + ":"
        if text.hasPrefix(prefix) {
            let rest = text.dropFirst(prefix.count)
            let line = rest.prefix { $0.isASCII && $0.isNumber }
            if !line.isEmpty, rest.dropFirst(line.count).hasPrefix(":") {
                text = "\(chunkName) line \(line):" + rest.dropFirst(line.count + 1)
            }
        }
        if text.count > maximumMessageLength {
            text = String(text.prefix(maximumMessageLength)) + "…"
        }
        return ScoringError(kind: kind, message: text)
    }
}
