import Foundation
import HealthwheelCore

/// The audit trail as stored: appended to in the transaction of each change (`AuditChain.append`), listed for a
/// company's admins, and checked link by link.
public protocol AuditRepository: Sendable {
    /// The company's events that match `filter`, newest first.
    func list(in company: UUID, filter: AuditFilter, after cursor: Cursor?, limit: Int) async throws -> Page<StoredAuditEvent>
    /// The company's events after `sequence`, oldest first, at most `limit`: the log the changes feed reads. The
    /// trail's order is the order its rows committed in (one writer on SQLite; on PostgreSQL each append takes the
    /// head's row lock, held to commit), so an event committed later never comes before one already read.
    func events(in company: UUID, after sequence: Int64, limit: Int) async throws -> [StoredAuditEvent]
    /// Where the company's part of the trail stands: its newest line's place, and the hash of its line at
    /// `sequence` (nil when it has none there). One read: what a changes feed checks a cursor against.
    func position(in company: UUID, checking sequence: Int64) async throws -> AuditPosition
    /// Whether the company's trail says the `subject` with `id`, of `client`, was deleted or erased (an erased
    /// client's own line keeps their id): what answers an app that sends again a record removed meanwhile.
    func wasRemoved(_ subject: AuditEvent.Subject, _ id: UUID, client: UUID, in company: UUID) async throws -> Bool
    /// Appends a line for an act that changes nothing else (an export, a report sent or viewed), in a
    /// transaction of its own; the act's answer waits for it, so no export leaves the server unrecorded.
    func record(_ event: AuditEvent) async throws
    /// Follows the hash chain from the first row: how many rows it checked, and the first that does not follow;
    /// then compares the trail's end with `checkpoint`, a head kept outside the database, naming rows missing.
    func verify(against checkpoint: AuditHead?) async throws -> AuditVerification
    /// The newest row's place and hash; nil while the trail is empty.
    func head() async throws -> AuditHead?
    /// Keys the trail under the database's audit key, or refuses another key (`AuditChain.adopt`): run once the
    /// store is migrated, before anything appends.
    func adoptKey() async throws -> AuditAdoption
}

/// What `GET /v1/audit` narrows the trail to; nil matches everything.
public struct AuditFilter: Sendable, Equatable {
    public var clientId: UUID?
    public var actorId: UUID?
    /// `subject.action`, as `AuditEvent.name` writes it.
    public var action: String?
    /// Both inclusive.
    public var from: Date?
    public var to: Date?

    public init(clientId: UUID? = nil, actorId: UUID? = nil, action: String? = nil, from: Date? = nil, to: Date? = nil) {
        self.clientId = clientId
        self.actorId = actorId
        self.action = action
        self.from = from
        self.to = to
    }
}

/// An audit event as stored: its place in the trail, and whether erasure has blanked whom it was about.
public struct StoredAuditEvent: Sendable, Equatable {
    /// 1, 2, … in the order events were written, across companies.
    public var sequence: Int64
    /// The event; `subjectId` and `clientId` are nil once the client it was about is erased.
    public var event: AuditEvent
    public var erased: Bool
    /// The line's link in the hash chain (kept through an erasure); read by `events(in:after:limit:)` only.
    public var hash: [UInt8]?

    public init(sequence: Int64, event: AuditEvent, erased: Bool, hash: [UInt8]? = nil) {
        self.sequence = sequence
        self.event = event
        self.erased = erased
        self.hash = hash
    }
}

/// Where a company's part of the audit trail stands (`AuditRepository.position(in:checking:)`).
public struct AuditPosition: Sendable, Equatable {
    /// The company's newest line's sequence; 0 while it has none.
    public var newest: Int64
    /// The hash of the company's line at the sequence asked about; nil when the company has no line there.
    public var hashAtSequence: [UInt8]?

    public init(newest: Int64, hashAtSequence: [UInt8]?) {
        self.newest = newest
        self.hashAtSequence = hashAtSequence
    }
}

/// What `AuditRepository.verify` found.
public struct AuditVerification: Sendable, Equatable {
    /// A row that does not follow from the ones before it, and why.
    public struct Alteration: Sendable, Equatable {
        public var sequence: Int64
        public var reason: String

        public init(sequence: Int64, reason: String) {
            self.sequence = sequence
            self.reason = reason
        }
    }

    /// Rows checked: all of them when none is altered, else up to the altered one.
    public var rowsChecked: Int
    /// The first altered row; nil when the chain holds.
    public var firstAltered: Alteration?

    public init(rowsChecked: Int, firstAltered: Alteration?) {
        self.rowsChecked = rowsChecked
        self.firstAltered = firstAltered
    }
}

/// The audit trail's newest row: its place and hash. Kept outside the database (a checkpoint), it shows rows cut
/// off the end, which leave a chain that still follows.
public struct AuditHead: Sendable, Equatable {
    public var sequence: Int64
    public var hash: [UInt8]

    public init(sequence: Int64, hash: [UInt8]) {
        self.sequence = sequence
        self.hash = hash
    }

    /// `ROW:HASH` (the hash in hex), as `healthwheel audit head` prints it and `audit verify --head` takes it.
    public var text: String { "\(sequence):\(hash.hexString)" }

    /// The head `text` spells, or nil when it is not one.
    public init?(text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let sequence = Int64(parts[0]), sequence > 0, let hash = [UInt8](hex: String(parts[1])), hash.count == 32 else {
            return nil
        }
        self.init(sequence: sequence, hash: hash)
    }
}

/// What opening the store did to the audit trail's key (`AuditRepository.adoptKey`).
public enum AuditAdoption: Sendable, Equatable {
    /// The trail was keyed under this key already.
    case unchanged
    /// The key's mark was stored: the trail was empty, or followed under the key already.
    case marked(rows: Int)
    /// A trail chained before keys existed was chained again under the key, row by row.
    case rekeyed(rows: Int)
    /// The trail follows under neither this key nor the unkeyed chain: left as it is, unmarked.
    case broken(AuditVerification)
}

extension AuditRepository {
    /// Follows the chain with no checkpoint to compare its end with.
    public func verify() async throws -> AuditVerification {
        try await verify(against: nil)
    }
}
