import Foundation
import HealthwheelCore

/// Clients, always inside one company: another company's id is simply not found.
public protocol ClientRepository: Sendable {
    /// Inserts the client, appending `audit` in the same transaction (as every change here does).
    /// Stores a new client; `RecordIdTaken` when a record has their id already.
    func create(_ client: Client, audit: AuditEvent) async throws
    /// The client, if it is the company's. `knownVersion` is the company's list version as the request's session
    /// read found it (`Freshness.clientsVersion`): a record cached at that version is current.
    func find(_ id: UUID, in company: UUID, knownVersion: Int64?) async throws -> ClientRecord?
    /// Whether the company has this client, for routes that need nothing else of it.
    func exists(_ id: UUID, in company: UUID) async throws -> Bool
    /// Ordered by family then given name (folded), then id. With `query`, only clients each of whose words
    /// prefixes one of their names, email or phone digits.
    func list(in company: UUID, query: String?, after cursor: Cursor?, limit: Int) async throws -> Page<ClientRecord>
    /// All clients of the company in list order (for export).
    func all(in company: UUID) async throws -> [Client]
    /// A counter that moves whenever anything in the company's client list changes (kept by triggers).
    func listVersion(of company: UUID) async throws -> Int64
    /// Every client of the company in list order, each with its stored sort name, handed to `each` one at a time
    /// as read, unless the company has more than `maximum` clients (counted first, never read). Returns the list
    /// version the clients are at least as new as, and how many there are (counted up to `maximum + 1`). Reads the
    /// whole roster on the calling thread: call it from a thread of its own, never from Swift's cooperative pool.
    func scan(
        of company: UUID,
        ifAtMost maximum: Int,
        _ each: (ClientRecord, _ sortName: String) throws -> Void
    ) throws -> (version: Int64, count: Int)
    /// Loads the client in a write transaction, lets `change` edit it, saves it. Nil when absent.
    func update(_ id: UUID, in company: UUID, audit: AuditEvent, _ change: (inout Client) throws -> Void) async throws -> ClientRecord?
    /// Deletes the client with everything of theirs. False when absent.
    func delete(_ id: UUID, in company: UUID, audit: AuditEvent) async throws -> Bool
    /// Erases the client (GDPR Art. 17): deletes them with everything of theirs as `delete` does, and the answers
    /// kept for retried requests that name them; blanks whom the company's audit lines about them were about and
    /// appends `audit`, all in one transaction, with the deleted bytes overwritten. False when absent.
    func erase(_ id: UUID, in company: UUID, audit: AuditEvent) async throws -> Bool
    /// After an erasure (and the removals that follow it): makes sure no older copy of what was deleted stays in
    /// storage. SQLCipher copies its write-ahead log, whose old page images still hold them, back into the file
    /// and truncates it.
    func purgeErased() async throws
    func photo(of id: UUID, in company: UUID) async throws -> ClientPhoto?
    /// Sets (or with nil removes) the photo. False when the client is absent.
    func setPhoto(_ photo: ClientPhoto?, of id: UUID, in company: UUID, at now: Date, audit: AuditEvent) async throws -> Bool
    /// The company's clients that `keys` name, one per key (where several share one, the earliest created): an
    /// import matches a chunk of cards with a few statements, not three round trips per card.
    func matches(_ keys: Set<ClientMatchKey>, in company: UUID) async throws -> [ClientMatchKey: Client]
    /// Saves many clients at once, each on its own (one that fails is rolled back alone and its error is in its
    /// slot), sharing transactions so that an import of thousands pays a few disk syncs, not one each.
    func saveEach(_ saves: [ClientSave], at now: Date) async -> [Result<Void, any Error>]
}

extension ClientRepository {
    public func find(_ id: UUID, in company: UUID) async throws -> ClientRecord? {
        try await find(id, in: company, knownVersion: nil)
    }
}
