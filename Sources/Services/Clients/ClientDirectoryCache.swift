import Foundation
import Store
import Synchronization

/// The companies' in-memory client lists. A list is rebuilt by the first request that finds it older than the
/// company's list version (which triggers in the database move on every change) or past its `validUntil`; while
/// one request rebuilds it, the others are answered by SQL, so nobody waits behind a rebuild.
public final class ClientDirectoryCache: Sendable {
    private struct State {
        var directories: [UUID: ClientDirectory] = [:]
        var building: Set<UUID> = []
    }

    private enum Claim {
        case ready(ClientDirectory)
        case build
        case busy
    }

    private let state = Mutex(State())
    /// At most this many clients are held, over all companies; the largest lists go first when it is passed.
    private let maximumClients: Int
    /// How each client is kept, ready to send: the door's own format, made once per list version.
    private let render: @Sendable (ClientRecord, Date) throws -> [UInt8]

    public init(maximumClients: Int = 100_000, render: @escaping @Sendable (ClientRecord, Date) throws -> [UInt8]) {
        self.maximumClients = maximumClients
        self.render = render
    }

    /// The company's list if it is at least as new as `version` and still valid at `now`, rebuilt with `snapshot`
    /// when needed. Nil while another request is rebuilding it, or when it is too large to hold.
    public func directory(
        for company: UUID,
        version: Int64,
        now: Date,
        snapshot: () async throws -> (version: Int64, records: [ClientRecord])
    ) async throws -> ClientDirectory? {
        let claim = state.withLock { state -> Claim in
            if let directory = state.directories[company], directory.version >= version, now < directory.validUntil { return .ready(directory) }
            return state.building.insert(company).inserted ? .build : .busy
        }
        switch claim {
        case .ready(let directory): return directory
        case .busy: return nil
        case .build: break
        }
        defer { _ = state.withLock { $0.building.remove(company) } }
        let (builtVersion, records) = try await snapshot()
        guard records.count <= maximumClients else { return nil }
        let directory = try ClientDirectory(version: builtVersion, records: records, now: now, render: render)
        state.withLock { state in
            state.directories[company] = directory
            var held = state.directories.values.reduce(0) { $0 + $1.entries.count }
            while held > maximumClients, let largest = state.directories.max(by: { $0.value.entries.count < $1.value.entries.count }) {
                state.directories[largest.key] = nil
                held -= largest.value.entries.count
            }
        }
        return directory
    }
}
