import Foundation
import Synchronization

/// The companies' in-memory client lists, within a memory budget.
///
/// A list is rebuilt when a request finds it older than the company's list version (which moves on every change)
/// or past its `validUntil`. The request that finds it so starts the rebuild in the background and is answered by
/// SQL, as is everyone else until the list is ready: nobody waits behind a rebuild, and only one runs per company.
///
/// What cannot be held is remembered, so that no request reads a whole roster again to find that out: a company
/// with more than `Limits.clientsPerCompany` clients (counted, never read) or a list larger than the whole budget
/// is too large until its list version moves; a list that finds no room is tried again only after
/// `Limits.retryAfterNoRoom`. A list makes room only by pushing out lists nobody has used for
/// `Limits.idleBeforeEviction`, so two busy companies never push each other out in turn: the second is answered
/// by SQL.
public final class ClientDirectoryCache: Sendable {
    /// How much the cache may hold.
    public struct Limits: Sendable {
        /// A company with more clients is answered by SQL.
        public var clientsPerCompany: Int
        /// The bytes all lists may hold together (a list of 100,000 clients takes about 45 MB).
        public var bytes: Int
        /// A list makes room for another only once unused this long.
        public var idleBeforeEviction: TimeInterval
        /// A list that found no room is built again no sooner than this (so is one whose build failed).
        public var retryAfterNoRoom: TimeInterval

        public init(
            clientsPerCompany: Int = 150_000,
            bytes: Int = 128 << 20,
            idleBeforeEviction: TimeInterval = 60,
            retryAfterNoRoom: TimeInterval = 60
        ) {
            self.clientsPerCompany = clientsPerCompany
            self.bytes = bytes
            self.idleBeforeEviction = idleBeforeEviction
            self.retryAfterNoRoom = retryAfterNoRoom
        }
    }

    /// What the cache knows of one company.
    private enum Slot {
        case held(ClientDirectory, lastUsed: Date)
        /// Too many clients at this list version (or any older one).
        case tooLarge(version: Int64)
        /// Not built again before this moment.
        case waiting(until: Date)
    }

    private struct State {
        var slots: [UUID: Slot] = [:]
        var heldBytes = 0
        var heldLists = 0
        /// The rebuilds under way, for `finishBuilding`.
        var building: [UUID: Task<Void, Never>] = [:]
        /// Builds started so far (each reads the company's clients, or counts them).
        var builds = 0
    }

    private let state = Mutex(State())
    let limits: Limits
    /// Hears how many lists and bytes are held whenever that changes (the API shows it in /metrics).
    private let onChange: @Sendable (_ lists: Int, _ bytes: Int) -> Void

    public init(limits: Limits = Limits(), onChange: @escaping @Sendable (_ lists: Int, _ bytes: Int) -> Void = { _, _ in }) {
        self.limits = limits
        self.onChange = onChange
    }

    /// The company's list if one at least as new as `version` and still valid at `now` is held. Otherwise nil, and
    /// unless it is known to be too large, or waiting, or already being built, `build` starts in the background with
    /// the most clients a list may hold.
    public func directory(
        for company: UUID,
        version: Int64,
        now: Date,
        build: @escaping @Sendable (_ maximumClients: Int) async throws -> ClientDirectory.Build
    ) -> ClientDirectory? {
        guard limits.bytes > 0, limits.clientsPerCompany > 0 else { return nil }
        let (directory, held) = state.withLock { state -> (ClientDirectory?, held: (lists: Int, bytes: Int)?) in
            var dropped = false
            switch state.slots[company] {
            case .held(let directory, _) where directory.version >= version && now < directory.validUntil:
                state.slots[company] = .held(directory, lastUsed: now)
                return (directory, nil)
            case .held:
                // Stale: of no use to anyone, so its memory goes before the new list is built.
                Self.drop(company, from: &state)
                dropped = true
            case .tooLarge(let counted) where counted >= version:
                return (nil, nil)
            case .waiting(let until) where now < until:
                return (nil, nil)
            case .tooLarge, .waiting, nil:
                break
            }
            let held = dropped ? (state.heldLists, state.heldBytes) : nil
            guard state.building[company] == nil else { return (nil, held) }
            state.builds += 1
            state.building[company] = Task {
                let outcome: Result<ClientDirectory.Build, any Error>
                do {
                    outcome = .success(try await build(self.limits.clientsPerCompany))
                } catch {
                    outcome = .failure(error)
                }
                let held = self.state.withLock { state in
                    state.building[company] = nil
                    switch outcome {
                    case .success(.built(let directory)): Self.admit(directory, for: company, at: now, into: &state, limits: self.limits)
                    case .success(.tooLarge(let version)): state.slots[company] = .tooLarge(version: version)
                    case .failure: state.slots[company] = .waiting(until: now.addingTimeInterval(self.limits.retryAfterNoRoom))
                    }
                    return (lists: state.heldLists, bytes: state.heldBytes)
                }
                self.onChange(held.lists, held.bytes)
            }
            return (nil, held)
        }
        if let held { onChange(held.lists, held.bytes) }
        return directory
    }

    /// Holds `directory` if it fits, pushing out lists unused for `idleBeforeEviction` (the least recently used
    /// first) only when that makes enough room.
    private static func admit(_ directory: ClientDirectory, for company: UUID, at now: Date, into state: inout State, limits: Limits) {
        drop(company, from: &state)
        guard directory.byteCount <= limits.bytes else {
            state.slots[company] = .tooLarge(version: directory.version)
            return
        }
        var excess = state.heldBytes + directory.byteCount - limits.bytes
        if excess > 0 {
            let idle = state.slots.compactMap { key, slot -> (key: UUID, bytes: Int, lastUsed: Date)? in
                guard case .held(let held, let lastUsed) = slot, now.timeIntervalSince(lastUsed) >= limits.idleBeforeEviction else { return nil }
                return (key, held.byteCount, lastUsed)
            }.sorted { $0.lastUsed < $1.lastUsed }
            var evicted: [UUID] = []
            for candidate in idle where excess > 0 {
                evicted.append(candidate.key)
                excess -= candidate.bytes
            }
            guard excess <= 0 else {
                state.slots[company] = .waiting(until: now.addingTimeInterval(limits.retryAfterNoRoom))
                return
            }
            for key in evicted { drop(key, from: &state) }
        }
        state.slots[company] = .held(directory, lastUsed: now)
        state.heldBytes += directory.byteCount
        state.heldLists += 1
    }

    /// Lets go of the company's list, after waiting for one being built (which may have read a client just
    /// erased): an erased client's bytes must not stay in memory until the next request.
    func forget(_ company: UUID) async {
        if let task = state.withLock({ $0.building[company] }) { await task.value }
        let held = state.withLock { state in
            Self.drop(company, from: &state)
            return (lists: state.heldLists, bytes: state.heldBytes)
        }
        onChange(held.lists, held.bytes)
    }

    /// Forgets what is known of the company, letting go of its list if one is held.
    private static func drop(_ company: UUID, from state: inout State) {
        if case .held(let directory, _) = state.slots[company] {
            state.heldBytes -= directory.byteCount
            state.heldLists -= 1
        }
        state.slots[company] = nil
    }

    /// Waits for the rebuilds under way (for tests: what a request finds next is then settled).
    func finishBuilding() async {
        while let task = state.withLock({ $0.building.values.first }) { await task.value }
    }

    /// Builds started so far and the bytes held (for tests).
    var statistics: (builds: Int, heldBytes: Int) {
        state.withLock { ($0.builds, $0.heldBytes) }
    }

    /// Whether the company's list is held, at whatever version (for tests).
    func isHeld(_ company: UUID) -> Bool {
        state.withLock { state in
            if case .held = state.slots[company] { return true }
            return false
        }
    }
}
