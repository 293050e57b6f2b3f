import Foundation
import HealthwheelCore
import StoreContract

extension AssessmentResults {
    /// Records a result once the client's screening is completed, or with `amendRecent` corrects the trainer's
    /// result of the same exercise recorded within the company's correction window (kept in its history). Under
    /// an id the app chose (`NewResult.id`), a retry of the same result answers it as stored (`replayed`).
    ///
    /// `keeping` is called with the result as it will be saved, before the write, and whether it amends one: the
    /// record it gives (the answer to an `Idempotency-Key`) is stored in the same transaction as the result, so a
    /// crash leaves both or neither. It is not called when a correction changes nothing, as nothing is written.
    /// `freshness`: what the session's read found, the company's client list version among it (`Freshness.clientsVersion`).
    public func record(
        _ new: NewResult,
        by trainer: Trainer,
        freshness: Freshness = .unknown,
        keeping: (AssessmentResult, _ amended: Bool) throws -> IdempotencyRecord? = { _, _ in nil }
    ) async throws -> (result: AssessmentResult, amended: Bool, replayed: Bool) {
        let company = trainer.companyId
        let client = try await AppChosenIds.requireClient(new.clientId, in: company, audit: audit) {
            try await self.client(new.clientId, in: company, knownVersion: freshness.clientsVersion)
        }
        guard let entry = catalog.exercise(new.exerciseId, for: company) else {
            throw ServiceError.unknownReference(field: "exerciseId", message: "is not an exercise of this company (GET /v1/exercises)")
        }
        try ServiceError.requireFitting(new.edit.values, of: entry.exercise, partial: false)
        let now = clock.now
        var new = new
        if let takenAt = new.takenAt {
            try AppChosenIds.requireDeviceTime(takenAt, field: "takenAt", now: now)
            if case .set(let recordedAt) = new.edit.recordedAt, recordedAt != takenAt {
                throw ServiceError.invalid("takenAt", "must be recordedAt when both are sent")
            }
            new.edit.recordedAt = .set(takenAt)
        }
        if let id = new.id {
            if new.amendRecent { throw ServiceError.invalid("amendRecent", "cannot be sent with an id: change the result by its id instead") }
            if let stored = try await results.find(id, in: company) {
                var edited = stored
                try new.edit.apply(to: &edited, exercise: entry.exercise, now: now)
                let same =
                    stored.clientId == client.client.id && stored.exerciseId == entry.exercise.id && edited.values == stored.values
                    && edited.observations == stored.observations && edited.recordedAt == stored.recordedAt
                guard same else { throw AppChosenIds.taken("result") }
                return (stored, false, true)
            }
            if try await audit.wasRemoved(.result, id, client: client.client.id, in: company) { throw AppChosenIds.removed("result") }
        }
        try ScreeningGate.requireCompletedScreening(client, at: new.takenAt)
        if new.amendRecent {
            let window = try await companies.settings(of: company).correctionWindow
            let recent: AssessmentResult?
            if let takenAt = new.takenAt {
                // The trainer's entry as it was when this one was taken: one taken within the window before it.
                recent = try await results.latest(
                    client: client.client.id,
                    exerciseId: entry.exercise.id,
                    trainer: trainer.id,
                    takenWithin: takenAt.addingTimeInterval(-window)...takenAt
                )
            } else {
                recent = try await results.latest(
                    client: client.client.id,
                    exerciseId: entry.exercise.id,
                    trainer: trainer.id,
                    createdSince: now.addingTimeInterval(-window)
                )
            }
            if let recent {
                let amended = try await change(recent, with: new.edit, entry: entry, client: client.client, reason: .correction, by: trainer) {
                    try keeping($0, true)
                }
                return (amended, true, false)
            }
        }
        var result = AssessmentResult(
            id: new.id,
            clientId: client.client.id,
            companyId: company,
            exerciseOwner: entry.owner,
            exerciseId: entry.exercise.id,
            categoryId: entry.pack.id,
            packVersion: entry.pack.version,
            trainerId: trainer.id,
            values: [:],
            observations: nil,
            recordedAt: now,
            createdAt: now
        )
        try new.edit.apply(to: &result, exercise: entry.exercise, now: now)
        try Self.requireAfterBirth(new.edit, of: client.client, in: result)
        await scorer.apply(entry, client: client.client, to: &result)
        if new.id != nil {
            do {
                try await results.createWithAppId(result)
            } catch is RecordIdTaken {
                throw AppChosenIds.taken("result")
            }
        } else {
            try await results.create(result, keeping: try keeping(result, false))
        }
        return (result, false, false)
    }

    /// A result dated before the stored client's birth date conflicts with that record (409), whatever the body.
    static func requireAfterBirth(_ edit: ResultEdit, of client: Client, in result: AssessmentResult) throws {
        if let problem = edit.before(birthDate: client.birthDate, in: result) {
            throw ServiceError.conflict(slug: "before-birth", detail: "recordedAt \(problem.message)", errors: [problem])
        }
    }
}
