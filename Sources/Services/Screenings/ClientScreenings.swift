import Foundation
import HealthwheelCore
import StoreContract

/// A client's screenings: started from a shipped questionnaire (prefilled from the client), answered, completed
/// (which locks them, except the fields that stay editable) and amended, each change kept in their history.
/// Answers that mirror a client field (name, birth date…) change the client in the same transaction.
public struct ClientScreenings: Sendable {
    let clients: any ClientRepository
    let screenings: any ScreeningRepository
    let audit: any AuditRepository
    let catalog: QuestionnaireCatalog
    let clock: any WallClock

    /// One per process (`UseCases` builds it).
    public init(store: Repositories, catalog: QuestionnaireCatalog, clock: any WallClock) {
        self.clients = store.clients
        self.screenings = store.screenings
        self.audit = store.audit
        self.catalog = catalog
        self.clock = clock
    }

    /// The client's screenings, newest first.
    public func list(client: UUID, in company: UUID) async throws -> [Screening] {
        guard try await clients.exists(client, in: company) else { throw ServiceError.notFound("client") }
        return try await screenings.list(client: client, in: company)
    }

    /// Starts a screening of `client` from the questionnaire `questionnaireId`.
    public func start(_ questionnaireId: String, client: UUID, by trainer: Trainer) async throws -> Screening {
        try await start(questionnaireId, id: nil, client: client, by: trainer).record
    }

    /// Starts a screening, under `id` when an app chose it (`AppChosenIds`): a retry is the screening as stored
    /// (its answers as they are now), another questionnaire under the id is `id-taken`, and a screening or client
    /// deleted meanwhile is gone.
    public func start(_ questionnaireId: String, id: UUID?, client: UUID, by trainer: Trainer) async throws -> AppChosenIds.Outcome<Screening> {
        let company = trainer.companyId
        let record = try await AppChosenIds.requireClient(client, in: company, audit: audit) {
            guard let record = try await clients.find(client, in: company) else { throw ServiceError.notFound("client") }
            return record
        }
        guard let questionnaire = catalog[questionnaireId] else {
            throw ServiceError.invalid("questionnaireId", "is not a questionnaire of this server (GET /v1/questionnaires)")
        }
        if let id {
            if let stored = try await screenings.find(id, client: client, in: company) {
                guard stored.questionnaireId == questionnaire.id else { throw AppChosenIds.taken("screening") }
                return .replayed(stored)
            }
            if try await audit.wasRemoved(.screening, id, client: client, in: company) { throw AppChosenIds.removed("screening") }
        }
        let screening = Screening(
            id: id ?? UUID(),
            clientId: client,
            questionnaire: questionnaire,
            answers: ScreeningRules.prefill(from: record.client, for: questionnaire),
            createdAt: clock.now,
            createdBy: trainer.id
        )
        let audit = AuditEvent.about(
            client,
            in: trainer.companyId,
            .created,
            .screening,
            id: screening.id,
            by: .trainer(trainer.id),
            at: screening.createdAt
        )
        do {
            guard try await screenings.create(screening, in: company, audit: audit) else { throw ServiceError.notFound("client") }
        } catch is RecordIdTaken {
            throw AppChosenIds.taken("screening")
        }
        return .created(screening)
    }

    /// The screening, if it is one of this client's and the client is one of `company`'s; else `notFound("screening")`.
    public func screening(_ id: UUID, client: UUID, in company: UUID) async throws -> Screening {
        guard let screening = try await screenings.find(id, client: client, in: company) else {
            throw ServiceError.notFound("screening")
        }
        return screening
    }

    /// Applies answers (`null` clears one); answers that mirror a client field change the client too.
    public func answer(_ changes: [String: JSONValue], screening id: UUID, client: UUID, by trainer: Trainer) async throws -> Screening {
        let now = clock.now
        let catalog = self.catalog
        let audit = AuditEvent.about(client, in: trainer.companyId, .changed, .screening, id: id, by: .trainer(trainer.id), at: now)
        let updated = try await screenings.update(id, client: client, in: trainer.companyId, audit: audit) { screening, client in
            let questionnaire = try Self.questionnaire(of: screening, in: catalog)
            let outcome = try ScreeningRules.apply(changes, to: screening, questionnaire: questionnaire, by: trainer.id, at: now)
            var changedClient = client
            if !outcome.mirrored.isEmpty {
                do {
                    try ScreeningRules.clientEdit(for: outcome.mirrored).apply(to: &changedClient, today: CalendarDate(now))
                } catch let error as ValidationError {
                    throw ServiceError.invalid(Self.answerErrors(error.errors, questionnaire: questionnaire))
                }
                let blankedName = outcome.mirrored[.givenName] == .null ? "givenName" : "familyName"
                let answer = Self.answerErrors([FieldError(blankedName, "")], questionnaire: questionnaire)[0].field
                try ClientRoster.requireName(changedClient, field: answer)
                changedClient.updatedAt = now
            }
            return (outcome.screening, outcome.revisions, changedClient)
        }
        guard let updated else { throw ServiceError.notFound("screening") }
        return updated
    }

    /// Completes the screening once every required answer is there; from then on it is locked.
    /// `completedAt`: when an app completed it offline (within the last month); the results it took after that
    /// pass the screening gate as they would have then. Nil: now.
    public func complete(screening id: UUID, client: UUID, by trainer: Trainer, completedAt: Date? = nil) async throws -> Screening {
        let now = clock.now
        if let completedAt { try AppChosenIds.requireDeviceTime(completedAt, field: "completedAt", now: now) }
        let catalog = self.catalog
        let audit = AuditEvent.about(client, in: trainer.companyId, .completed, .screening, id: id, by: .trainer(trainer.id), at: now)
        let completed = try await screenings.update(id, client: client, in: trainer.companyId, audit: audit) { screening, _ in
            guard !screening.isLocked else {
                throw ServiceError.conflict(slug: "already-completed", detail: "this screening was completed already")
            }
            let questionnaire = try Self.questionnaire(of: screening, in: catalog)
            do {
                var completed = try ScreeningRules.complete(screening, questionnaire: questionnaire, by: trainer.id, at: now)
                if let completedAt { completed.completedAt = completedAt }
                return (completed, [], nil)
            } catch let error as ValidationError {
                // The request is well formed; the screening as it stands cannot be completed yet (409, as for a
                // completed one), and each unanswered question is named.
                throw ServiceError.conflict(
                    slug: "screening-incomplete",
                    detail: "answer every required question before completing the screening",
                    errors: error.errors.map { FieldError("answers.\($0.field)", $0.message) }
                )
            }
        }
        guard let completed else { throw ServiceError.notFound("screening") }
        return completed
    }

    /// Every change made to the screening's answers, oldest first.
    public func history(of id: UUID, client: UUID, in company: UUID) async throws -> [AnswerRevision] {
        guard let revisions = try await screenings.history(of: id, client: client, in: company) else {
            throw ServiceError.notFound("screening")
        }
        return revisions
    }

    private static func questionnaire(of screening: Screening, in catalog: QuestionnaireCatalog) throws -> Questionnaire {
        guard let questionnaire = catalog[screening.questionnaireId] else {
            throw ServiceError.conflict(
                slug: "questionnaire-missing",
                detail: "the questionnaire \(screening.questionnaireId) is no longer on this server"
            )
        }
        return questionnaire
    }

    /// Client-field errors from mirrored answers, renamed to the answers that caused them.
    static func answerErrors(_ errors: [FieldError], questionnaire: Questionnaire) -> [FieldError] {
        errors.map { error in
            let clientField = error.field.split(separator: ".").first.map(String.init) ?? error.field
            let key = questionnaire.allFields.first { $0.field.mirrors?.rawValue == clientField }?.field.key ?? clientField
            return FieldError("answers.\(key)", error.message)
        }
    }
}
