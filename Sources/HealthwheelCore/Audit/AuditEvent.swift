import Foundation

/// One line of the audit trail: who did what to which record, and when. It names records by id only: no health
/// value and no text a user entered is ever part of it, so the trail can be shown to an auditor as it is.
public struct AuditEvent: Sendable, Equatable {
    /// What was done.
    public enum Action: String, Sendable, CaseIterable {
        case created, changed, deleted, exported, erased
        /// A client's report was emailed (lines written before deliveries had lines of their own; now
        /// `delivery.created`).
        case emailed
        /// A report was drawn for someone to read (HTML or PDF).
        case viewedAsReport = "viewed-as-report"
        /// A screening was completed (and locked).
        case completed
        /// An emailed report reached the mail server, or failed for good.
        case sent, failed
    }

    /// The kind of record acted on.
    public enum Subject: String, Sendable, CaseIterable {
        case client, screening, result, media, trainer, theme, pack, company
        /// An emailed report on its way (the email outbox).
        case delivery
        /// A webhook endpoint of the company.
        case webhook
    }

    /// Who acted: a trainer (by id), the operator at the command line, or the server itself (the mail outbox
    /// sending what a trainer asked for).
    public enum Actor: Sendable, Equatable {
        case trainer(UUID)
        case operatorCommand
        case server
    }

    public var at: Date
    public var companyId: UUID
    public var actor: Actor
    public var action: Action
    public var subject: Subject
    /// The record's id (a pack's is its id text, such as `cardiovascular`); nil for the company's own settings.
    public var subjectId: String?
    /// The client the record belongs to, when it belongs to one: what `?clientId=` finds, and what erasure blanks.
    public var clientId: UUID?

    public init(
        at: Date,
        companyId: UUID,
        actor: Actor,
        action: Action,
        subject: Subject,
        subjectId: String?,
        clientId: UUID?
    ) {
        self.at = at
        self.companyId = companyId
        self.actor = actor
        self.action = action
        self.subject = subject
        self.subjectId = subjectId
        self.clientId = clientId
    }

    /// The name of the action on the wire and in the store: `client.created`, `result.viewed-as-report`, …
    public var name: String { "\(subject.rawValue).\(action.rawValue)" }
}

extension AuditEvent {
    /// What `actor` did to a record of `client` (the client themself, a result, a screening, …) in `company`.
    public static func about(
        _ client: UUID,
        in company: UUID,
        _ action: Action,
        _ subject: Subject,
        id: UUID,
        by actor: Actor,
        at: Date
    ) -> AuditEvent {
        AuditEvent(at: at, companyId: company, actor: actor, action: action, subject: subject, subjectId: id.lowercaseHyphenated, clientId: client)
    }

    /// What `trainer` did to a client of their company.
    public static func client(_ action: Action, _ client: UUID, by trainer: Trainer, at: Date) -> AuditEvent {
        about(client, in: trainer.companyId, action, .client, id: client, by: .trainer(trainer.id), at: at)
    }

    /// What the operator did at the command line to a client of `company`.
    public static func client(_ action: Action, _ client: UUID, byOperatorOf company: UUID, at: Date) -> AuditEvent {
        about(client, in: company, action, .client, id: client, by: .operatorCommand, at: at)
    }
}

extension AuditEvent {
    /// What `actor` did to a record of the company that belongs to no client: a trainer's account, the theme, an
    /// exercise pack, the settings (`id` nil for the company's own).
    public static func company(_ action: Action, _ subject: Subject, id: String?, in company: UUID, by actor: Actor, at: Date) -> AuditEvent {
        AuditEvent(at: at, companyId: company, actor: actor, action: action, subject: subject, subjectId: id, clientId: nil)
    }

    /// What `actor` did to the account of `trainer`.
    public static func trainer(_ action: Action, _ trainer: UUID, in company: UUID, by actor: Actor, at: Date) -> AuditEvent {
        .company(action, .trainer, id: trainer.lowercaseHyphenated, in: company, by: actor, at: at)
    }
}

extension AuditEvent.Actor {
    /// `trainer`, `operator` or `server`: how the store and the API name who acted.
    public var kind: String {
        switch self {
        case .trainer: "trainer"
        case .operatorCommand: "operator"
        case .server: "server"
        }
    }

    /// The trainer's id; nil for the operator and the server.
    public var id: UUID? {
        switch self {
        case .trainer(let id): id
        case .operatorCommand, .server: nil
        }
    }

    /// The actor `kind` and `id` name, or nil for a pair no line holds.
    public init?(kind: String, id: UUID?) {
        switch (kind, id) {
        case ("trainer", let id?): self = .trainer(id)
        case ("operator", nil): self = .operatorCommand
        case ("server", nil): self = .server
        default: return nil
        }
    }
}
