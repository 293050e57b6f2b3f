import Foundation

/// What a company's changes feed says of one line of its audit trail: which record changed, and whether it is
/// gone. The audit trail is the feed's log: every change is audited in its own transaction, and the trail's order
/// is the order the changes committed in, on both stores and from every node, so the feed needs no writes of
/// its own. A client's tombstone (deleted or erased) stands for everything of theirs too: their screenings,
/// results, media and deliveries went with them, and an erasure leaves no line that names them.
public struct RecordChange: Sendable, Hashable {
    /// The kinds of record the feed carries.
    public enum Kind: String, Sendable, CaseIterable {
        case client, screening, result, media, delivery, trainer, theme
    }

    public var kind: Kind
    /// The record's id; the company's id for its theme (one per company).
    public var id: String
    /// Deleted or erased: the feed shows a tombstone (the kind and id, nothing else).
    public var removed: Bool
    /// The client the record belongs to, when it belongs to one (a screening is read through its client).
    public var clientId: UUID?

    public init(kind: Kind, id: String, removed: Bool, clientId: UUID? = nil) {
        self.kind = kind
        self.id = id
        self.removed = removed
        self.clientId = clientId
    }

    /// The record's identity, the same for each of its changes.
    public var key: String { "\(kind.rawValue) \(id)" }

    /// The changes `event` records: none for a line that changes no record the feed carries (an export, a
    /// report viewed, an exercise pack, the company's settings, a line blanked by an erasure); two for a
    /// screening's line, since a client's record shows their screening's status and answers may mirror into the
    /// client's own fields; one otherwise.
    public static func changes(in event: AuditEvent) -> [RecordChange] {
        let removed: Bool
        switch event.action {
        case .created, .changed, .completed, .sent, .failed: removed = false
        case .deleted, .erased: removed = true
        case .exported, .emailed, .viewedAsReport: return []
        }
        let kind: Kind
        switch event.subject {
        case .client: kind = .client
        case .screening: kind = .screening
        case .result: kind = .result
        case .media: kind = .media
        case .delivery: kind = .delivery
        case .trainer: kind = .trainer
        case .theme: return [RecordChange(kind: .theme, id: event.companyId.lowercaseHyphenated, removed: removed)]
        case .pack, .company, .webhook: return []
        }
        guard let id = event.subjectId else { return [] }
        let change = RecordChange(kind: kind, id: id, removed: removed, clientId: event.clientId)
        if kind == .screening, let client = event.clientId {
            return [change, RecordChange(kind: .client, id: client.lowercaseHyphenated, removed: false, clientId: client)]
        }
        return [change]
    }
}
