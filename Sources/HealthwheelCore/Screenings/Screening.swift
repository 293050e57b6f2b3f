import Foundation

/// One filled-in questionnaire of one client. Once completed it is locked, except the fields the form marks as
/// editable after completion; changing those makes it `amended` and each change is kept as a revision.
public struct Screening: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case draft, completed, amended
    }

    public var id: UUID
    public var clientId: UUID
    public var questionnaireId: String
    public var questionnaireVersion: Int
    public var status: Status
    public var answers: [String: JSONValue]
    /// Raised by the form's flag rules; fixed at completion and re-evaluated on amendment.
    public var flags: [String]
    public var createdAt: Date
    public var createdBy: UUID?
    public var updatedAt: Date
    public var completedAt: Date?
    public var completedBy: UUID?

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

    public var isLocked: Bool { status != .draft }
}

/// One change to a completed screening: who changed which answer, when, from what to what.
public struct AnswerRevision: Codable, Sendable, Equatable {
    public var field: String
    public var oldValue: JSONValue
    public var newValue: JSONValue
    public var changedBy: UUID?
    public var changedAt: Date

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
