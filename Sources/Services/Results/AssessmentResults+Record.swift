import Foundation
import HealthwheelCore
import StoreContract

extension AssessmentResults {
    /// Records a result once the client's screening is completed, or with `amendRecent` corrects the trainer's
    /// result of the same exercise recorded within the company's correction window (kept in its history).
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
    ) async throws -> (result: AssessmentResult, amended: Bool) {
        let client = try await client(new.clientId, in: trainer.companyId, knownVersion: freshness.clientsVersion)
        try ScreeningGate.requireCompletedScreening(client)
        let company = trainer.companyId
        guard let entry = catalog.exercise(new.exerciseId, for: company) else {
            throw ServiceError.unknownReference(field: "exerciseId", message: "is not an exercise of this company (GET /v1/exercises)")
        }
        try ServiceError.requireFitting(new.edit.values, of: entry.exercise, partial: false)
        let now = clock.now
        if new.amendRecent {
            let window = try await companies.settings(of: company).correctionWindow
            let since = now.addingTimeInterval(-window)
            if let recent = try await results.latest(
                client: client.client.id,
                exerciseId: entry.exercise.id,
                trainer: trainer.id,
                createdSince: since
            ) {
                let amended = try await change(recent, with: new.edit, entry: entry, client: client.client, reason: .correction, by: trainer) {
                    try keeping($0, true)
                }
                return (amended, true)
            }
        }
        var result = AssessmentResult(
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
        try await results.create(result, keeping: try keeping(result, false))
        return (result, false)
    }

    /// A result dated before the stored client's birth date conflicts with that record (409), whatever the body.
    static func requireAfterBirth(_ edit: ResultEdit, of client: Client, in result: AssessmentResult) throws {
        if let problem = edit.before(birthDate: client.birthDate, in: result) {
            throw ServiceError.conflict(slug: "before-birth", detail: "recordedAt \(problem.message)", errors: [problem])
        }
    }
}
