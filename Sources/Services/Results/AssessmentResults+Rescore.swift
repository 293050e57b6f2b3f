import Foundation
import HealthwheelCore

extension AssessmentResults {
    /// Re-scores every result of a client with the current pack versions (after a corrected script, or once a
    /// missing birth date or sex is recorded). Changed results keep their earlier state in history.
    public func rescore(client id: UUID, by trainer: Trainer) async throws -> RescoreReport {
        // The client first: another company's id is a 404 to everyone, whatever their role.
        let client = try await client(id, in: trainer.companyId)
        try trainer.requireAdmin(to: "rescore a client")
        let results = try await self.results.all(client: client.client.id, in: trainer.companyId)
        var report = RescoreReport(checked: results.count)
        var changes: [(before: AssessmentResult, after: AssessmentResult)] = []
        for result in results {
            guard let entry = catalog.exercise(result.exerciseId, for: trainer.companyId) else {
                report.skipped.append((result, "the exercise is no longer in this company's packs"))
                continue
            }
            var rescored = result
            await scorer.apply(entry, client: client.client, to: &rescored)
            if rescored == result { report.unchanged += 1 } else { changes.append((result, rescored)) }
        }
        // Saved in batches: few disk syncs, yet no transaction long enough to hold up other writes.
        for start in stride(from: 0, to: changes.count, by: Self.rescoreBatch) {
            let batch = Array(changes[start..<min(start + Self.rescoreBatch, changes.count)])
            let saved = try await self.results.replace(batch, by: trainer.id, reason: .rescore, at: clock.now, keeping: nil)
            for (change, after) in zip(batch, saved) {
                if let after {
                    report.changed.append((change.before, after))
                } else {
                    report.skipped.append((change.before, "it was changed or deleted while being re-scored"))
                }
            }
        }
        return report
    }

    static let rescoreBatch = 500
}
