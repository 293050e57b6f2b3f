import Foundation

/// What a webhook tells a receiver: which kind of thing happened, and to which record, by id and kind only. No
/// health value, no name, no text anyone entered: the receiver fetches what it may read with its own token.
public struct WebhookEvent: Sendable, Equatable {
    /// The events an endpoint may subscribe to.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case resultRecorded = "result.recorded"
        case resultCorrected = "result.corrected"
        case resultDeleted = "result.deleted"
        case screeningCompleted = "screening.completed"
        case clientCreated = "client.created"
        case clientErased = "client.erased"
        case reportEmailed = "report.emailed"
        case reportDelivered = "report.delivered"
        case reportFailed = "report.failed"
    }

    public var kind: Kind
    public var companyId: UUID
    /// The record's kind as the changes feed names it (`result`, `screening`, `client`, `delivery`) and its id.
    public var recordKind: String
    public var recordId: String
    /// The client the record belongs to; nil for a client's own events, whose record is the client.
    public var clientId: UUID?
    public var at: Date

    /// Which line of the audit trail each event is: one table, read both ways.
    private static let lines: [(subject: AuditEvent.Subject, action: AuditEvent.Action, kind: Kind)] = [
        (.result, .created, .resultRecorded), (.result, .changed, .resultCorrected), (.result, .deleted, .resultDeleted),
        (.screening, .completed, .screeningCompleted), (.client, .created, .clientCreated), (.client, .erased, .clientErased),
        (.delivery, .created, .reportEmailed), (.delivery, .sent, .reportDelivered), (.delivery, .failed, .reportFailed),
    ]

    /// The event an audit line is, or nil for a line no webhook carries (or blanked by an erasure).
    public init?(_ line: AuditEvent) {
        // Ids of these subjects are UUIDs the server wrote; anything else is no event (and never reaches the JSON).
        guard let id = line.subjectId, UUID(uuidString: id) != nil,
            let kind = Self.lines.first(where: { $0.subject == line.subject && $0.action == line.action })?.kind
        else { return nil }
        self.kind = kind
        companyId = line.companyId
        recordKind = line.subject.rawValue
        recordId = id
        clientId = line.subject == .client ? nil : line.clientId
        at = line.at
    }

    /// Each event with the audit action (`subject.action`, as the store writes it) that is it: what the outbox
    /// reads, keeping only the lines an endpoint hears.
    public static let kindsByAuditAction = lines.map { (action: "\($0.subject.rawValue).\($0.action.rawValue)", kind: $0.kind) }

    /// The body a receiver gets, in Standard Webhooks' shape: `{"type", "timestamp", "data": {"kind", "id",
    /// "clientId"}}`, keys in that order.
    public var payload: [UInt8] {
        var text = #"{"type":"\#(kind.rawValue)","timestamp":"\#(at.ISO8601Format())","data":{"kind":"\#(recordKind)","id":"\#(recordId)""#
        if let clientId { text += #","clientId":"\#(clientId.lowercaseHyphenated)""# }
        text += "}}"
        return Array(text.utf8)
    }
}
