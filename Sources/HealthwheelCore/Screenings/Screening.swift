import Foundation

/// One filled-in questionnaire of one client. Once completed it is locked, except the fields the form marks as
/// editable after completion; changing those makes it `amended` and each change is kept as a revision.
public struct Screening: Codable, Sendable, Equatable {
    /// A draft is being filled in; completed locks it; amended means a field editable after completion was changed since.
    public enum Status: String, Codable, Sendable {
        case draft, completed, amended
    }

    /// Random; scoped to the client, whose company scopes every read.
    public var id: UUID
    /// The client screened; a screening is deleted with its client.
    public var clientId: UUID
    /// The questionnaire it was started from (`screening`); answers are checked against that questionnaire.
    public var questionnaireId: String
    /// The questionnaire's version when the screening was started.
    public var questionnaireVersion: Int
    /// Moves draft → completed → amended, never back.
    public var status: Status
    /// The answers by field key, normalised (trimmed text, SI measurements, `YYYY-MM-DD` dates); unanswered keys are absent.
    public var answers: [String: JSONValue]
    /// Raised by the form's flag rules; fixed at completion and re-evaluated on amendment.
    public var flags: [String]
    /// When it was started.
    public var createdAt: Date
    /// The trainer who started it; the id stays after that trainer is deleted. Nil when none was given.
    public var createdBy: UUID?
    /// When an answer last changed, or when it was completed.
    public var updatedAt: Date
    /// When it was completed; nil while a draft.
    public var completedAt: Date?
    /// The trainer who completed it; nil while a draft.
    public var completedBy: UUID?

    /// A new draft of `questionnaire`, with `answers` prefilled from the client (`ScreeningRules.prefill(from:for:)`).
    public init(id: UUID = UUID(), clientId: UUID, questionnaire: Questionnaire, answers: [String: JSONValue], createdAt: Date, createdBy: UUID?) {
        self.id = id
        self.clientId = clientId
        self.questionnaireId = questionnaire.id
        self.questionnaireVersion = questionnaire.version
        self.status = .draft
        self.answers = answers
        self.flags = []
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.updatedAt = createdAt
    }

    /// Every field, as stored.
    public init(
        id: UUID,
        clientId: UUID,
        questionnaireId: String,
        questionnaireVersion: Int,
        status: Status,
        answers: [String: JSONValue],
        flags: [String],
        createdAt: Date,
        createdBy: UUID?,
        updatedAt: Date,
        completedAt: Date?,
        completedBy: UUID?
    ) {
        self.id = id
        self.clientId = clientId
        self.questionnaireId = questionnaireId
        self.questionnaireVersion = questionnaireVersion
        self.status = status
        self.answers = answers
        self.flags = flags
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.updatedAt = updatedAt
        self.completedAt = completedAt
        self.completedBy = completedBy
    }

    /// True once completed: only fields editable after completion may change, and each change is kept as a revision.
    public var isLocked: Bool { status != .draft }
}

/// One change to a completed screening: who changed which answer, when, from what to what.
public struct AnswerRevision: Codable, Sendable, Equatable {
    /// The field key of the answer that changed.
    public var field: String
    /// The answer before the change; `null` when it was unanswered.
    public var oldValue: JSONValue
    /// The answer after the change; `null` when it was cleared.
    public var newValue: JSONValue
    /// The trainer who changed it; the id stays after that trainer is deleted. Nil when none was given.
    public var changedBy: UUID?
    /// When it was changed.
    public var changedAt: Date

    /// Builds a revision in code; `ScreeningRules.apply` makes them for locked screenings.
    public init(field: String, oldValue: JSONValue, newValue: JSONValue, changedBy: UUID?, changedAt: Date) {
        self.field = field
        self.oldValue = oldValue
        self.newValue = newValue
        self.changedBy = changedBy
        self.changedAt = changedAt
    }
}

/// Where a client stands with screening, for the client overview.
public enum ScreeningStatusSummary: String, Codable, Sendable {
    /// Never screened: assessments are refused until a screening is completed.
    case none
    /// Started, not completed.
    case draft
    /// At least one screening is completed (amendments included).
    case completed
}

extension Screening {
    private enum CodingKeys: String, CodingKey {
        case id, clientId, questionnaireId, questionnaireVersion, status, answers, flags, createdAt, createdBy, updatedAt
        case completedAt, completedBy
    }

    /// As synthesised, except that the answers are written in key order (`JSONValue`'s object order), so the same
    /// screening reads the same every time; a dictionary's own order changes from one copy to the next.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(clientId, forKey: .clientId)
        try container.encode(questionnaireId, forKey: .questionnaireId)
        try container.encode(questionnaireVersion, forKey: .questionnaireVersion)
        try container.encode(status, forKey: .status)
        try container.encode(JSONValue.object(answers), forKey: .answers)
        try container.encode(flags, forKey: .flags)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(createdBy, forKey: .createdBy)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(completedAt, forKey: .completedAt)
        try container.encodeIfPresent(completedBy, forKey: .completedBy)
    }
}
