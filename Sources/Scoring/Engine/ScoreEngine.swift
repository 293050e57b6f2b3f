/// Turns exercise results into 1–10 scores by running each exercise's Lua 5.4 conversion script (docs/ARCHITECTURE.md §6)
/// in a sandbox with an instruction budget, a time limit and a memory cap.
///
/// This is the engine inside each scoring worker process (`ScoringWorker`); the server calls it through
/// `ScoringWorkers`, never in its own process. Safe to share: concurrent calls each borrow their own Lua state
/// from a pool. Each state compiles a script
/// once per `ScriptID` and reuses it; every call gets fresh globals, and the libraries are read-only, so one
/// script (or one company's admin) cannot change what the next one sees.
public final class ScoreEngine: Sendable {
    private let pool: StatePool

    /// - Parameters:
    ///   - limits: what one evaluation may use.
    ///   - maximumIdleStates: Lua states kept between calls (each holds its own compiled chunks); more states
    ///     are made while more calls run at once, and closed when they come back to a full pool.
    public init(limits: ScoringLimits = ScoringLimits(), maximumIdleStates: Int = 8) {
        pool = StatePool(limits: limits, maximumIdle: maximumIdleStates)
    }

    /// Compiles `source` text-only without running it; the error says why it does not compile, with the line
    /// (`[exercise] line 2: unexpected symbol near '+'`).
    public func check(source: String) -> ScoringError? {
        guard let state = pool.take() else { return .unavailable }
        defer { pool.giveBack(state) }
        return state.check(source: source)
    }

    /// Runs the script; the result is the raw number in 0...10 (the caller rounds it), or why there is none.
    ///
    /// The script sees the globals `sex`, `age`, `height`, `mass` (nil when unknown), `value` (the primary
    /// field, nil when absent) and `values` (every field by key). `source` is compiled on the first call for
    /// `script` in a state and ignored after: a changed source needs a new version.
    public func score(
        _ script: ScriptID,
        source: String,
        subject: ScoringSubject,
        value: Double?,
        values: [String: Double]
    ) -> Result<Double, ScoringError> {
        guard let state = pool.take() else { return .failure(.unavailable) }
        defer { pool.giveBack(state) }
        return state.score(script, source: source, subject: subject, value: value, values: values)
    }
}
