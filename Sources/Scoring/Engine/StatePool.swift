import Synchronization

/// Idle Lua states shared by concurrent calls: a call takes one (or makes one when none is idle) and gives it
/// back after, so each state serves one call at a time and keeps its compiled chunks across calls.
final class StatePool: Sendable {
    private let idle: Mutex<[ScoringState]>
    private let maximumIdle: Int
    private let limits: ScoringLimits

    init(limits: ScoringLimits, maximumIdle: Int) {
        self.limits = limits
        self.maximumIdle = max(0, maximumIdle)
        idle = Mutex([])
    }

    /// An idle state, or a new one; nil only when a new state cannot be allocated.
    func take() -> ScoringState? {
        if let state = idle.withLock({ $0.popLast() }) { return state }
        return ScoringState(limits: limits)
    }

    /// Keeps `state` for the next call unless it hit a limit or enough states are idle already; a state not
    /// kept is closed by the caller's last reference, outside the lock.
    func giveBack(_ state: ScoringState) {
        guard !state.isSpent else { return }
        idle.withLock { states in
            if states.count < maximumIdle { states.append(state) }
        }
    }
}
