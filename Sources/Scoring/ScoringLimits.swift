import Workers

/// What one evaluation of a script may use before it is stopped with a `ScoringError`.
public struct ScoringLimits: Sendable, Hashable {
    /// VM instructions per evaluation, counted by the count hook in steps of 100 and re-armed on every call.
    /// Library calls whose loops a script controls (`table.move`) are charged one instruction per element.
    public var instructionBudget: Int
    /// Bytes of live memory one evaluation may add to its Lua state. Garbage is collected before an allocation
    /// is refused, so only what the script keeps counts.
    public var memoryBytes: Int
    /// A backstop for work the instruction count cannot see, checked with the count: one instruction can
    /// compare two long strings, and one library call can sort a large table. Far above what the budget takes
    /// in plain Lua (a few milliseconds), so only scripts built to burn time reach it.
    public var timeLimit: Duration

    /// The limits docs/ARCHITECTURE.md §3 and Exercises/README.md promise: 200,000 instructions, 1 MiB, 100 ms.
    public init(instructionBudget: Int = 200_000, memoryBytes: Int = 1 << 20, timeLimit: Duration = .milliseconds(100)) {
        self.instructionBudget = instructionBudget
        self.memoryBytes = memoryBytes
        self.timeLimit = timeLimit
    }
}
