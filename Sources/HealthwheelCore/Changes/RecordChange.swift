import Foundation

/// What a company's changes feed says of one line of its audit trail: which record changed, and whether it is
/// gone. The audit trail is the feed's log: every change is audited in its own transaction, and the trail's order
/// is the order the changes committed in, on both stores and from every node, so the feed needs no writes of
/// its own. A client's tombstone (deleted or erased) stands for everything of theirs too: their screenings,
/// results and media went with them, and an erasure leaves no line that names them.
public struct RecordChange: Sendable, Equatable {
    /// The kinds of record the feed carries.
    public enum Kind: String, Sendable, CaseIterable {
        case client, screening, result, media, trainer, theme
    }

    public var kind: Kind
    /// The record's id; the company's id for its theme (one per company).
    public var id: String
    /// Deleted or erased: the feed shows a tombstone (the kind and id, nothing else).
    public var removed: Bool

    public init(kind: Kind, id: String, removed: Bool) {
        self.kind = kind
        self.id = id
        self.removed = removed
    }

    /// The change `event` records, or nil for a line that changes no record the feed carries: an export, a
    /// report viewed or emailed, an exercise pack, the company's settings, or a line blanked by an erasure.
    public init?(_ event: AuditEvent) {
        let removed: Bool
        switch event.action {
        case .created, .changed: removed = false
        case .deleted, .erased: removed = true
        case .exported, .emailed, .viewedAsReport: return nil
        }
        let kind: Kind
        switch event.subject {
        case .client: kind = .client
        case .screening: kind = .screening
        case .result: kind = .result
        case .media: kind = .media
        case .trainer: kind = .trainer
        case .theme:
            self.init(kind: .theme, id: event.companyId.lowercaseHyphenated, removed: removed)
            return
        case .pack, .company: return nil
        }
        guard let id = event.subjectId else { return nil }
        self.init(kind: kind, id: id, removed: removed)
    }
}
