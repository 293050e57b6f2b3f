import Foundation
import HealthwheelCore
import Store
import StoreContract
import TestSupport
import Testing

/// Saving result changes: each keeps the earlier state, and a change based on a stale read is refused.
@Suite struct ResultRepositoryTests {
    static func setUp(in folder: TemporaryDirectory = TemporaryDirectory()) async throws -> (StoreFixture, AssessmentResult) {
        let fixture = try StoreFixture(folder: folder)
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        let client = Client(companyId: company.id, createdAt: fixture.clock.now)
        try await fixture.store.clients.create(client, audit: .client(.created, client.id, byOperatorOf: client.companyId, at: client.createdAt))
        let result = pushUps(for: client, by: trainer, at: fixture.clock.now)
        try await fixture.store.results.create(result, keeping: nil)
        return (fixture, result)
    }

    /// Results recorded at once, one of them for a client that is gone: only that one fails; every other is
    /// stored, counted and audited (PostgreSQL commits results that wait together, SQLite's writer its batches).
    @Test func resultsRecordedAtOnceFailAloneWhenTheirClientIsGone() async throws {
        let (fixture, first) = try await Self.setUp()
        let before = try await fixture.store.audit.verify().rowsChecked
        let count = 40
        let failed = await withTaskGroup(of: Int?.self) { group in
            for index in 0..<count {
                group.addTask {
                    var result = first
                    result.id = UUID()
                    result.values = ["count": Double(index)]
                    if index == count / 2 { result.clientId = UUID() }
                    do {
                        try await fixture.store.results.create(result, keeping: nil)
                        return nil
                    } catch {
                        return index
                    }
                }
            }
            return await group.reduce(into: [Int]()) { if let index = $1 { $0.append(index) } }
        }
        #expect(failed == [count / 2])
        let stored: Int64 = try await fixture.database.read {
            try await $0.scalar("SELECT count(*) FROM results WHERE client_id = ?", first.clientId)
        }
        let version: Int64 = try await fixture.database.read {
            try await $0.scalar("SELECT version FROM client_results_versions WHERE client_id = ?", first.clientId)
        }
        #expect(stored == Int64(count) && version == Int64(count), "the first result and the 39 others")
        let verification = try await fixture.store.audit.verify()
        #expect(verification.firstAltered == nil && verification.rowsChecked == before + count - 1)
    }

    @Test func aReplacementKeepsTheEarlierStateAsARevision() async throws {
        let (fixture, result) = try await Self.setUp()
        var after = result
        after.values = ["count": 25]
        after.score = 7
        fixture.clock.advance(by: 60)
        let saved = try await fixture.store.results.replace(
            [(result, after)],
            by: result.trainerId,
            reason: .edit,
            at: fixture.clock.now,
            keeping: nil
        )
        #expect(saved.first??.revision == 2)
        #expect(try await fixture.store.results.find(result.id, in: result.companyId)?.values == ["count": 25])
        let revisions = try await fixture.store.results.revisions(of: result.id)
        #expect(revisions.map(\.values) == [["count": 20]])
        #expect(revisions.first?.replacedAt == fixture.clock.now)
    }

    @Test func aChangeBasedOnAStaleReadOrAnotherCompanyIsLeftAlone() async throws {
        let (fixture, result) = try await Self.setUp()
        var first = result
        first.score = 8
        _ = try await fixture.store.results.replace([(result, first)], by: result.trainerId, reason: .edit, at: fixture.clock.now, keeping: nil)
        var stale = result
        stale.score = 1
        var foreign = result
        foreign.companyId = UUID()
        let saved = try await fixture.store.results.replace(
            [(result, stale), (foreign, stale)],
            by: result.trainerId,
            reason: .rescore,
            at: fixture.clock.now,
            keeping: nil
        )
        #expect(saved.count == 2 && saved.allSatisfy { $0 == nil })
        #expect(try await fixture.store.results.find(result.id, in: result.companyId)?.score == 8)
        #expect(try await fixture.store.results.revisions(of: result.id).count == 1)
    }

    @Test func valuesComeBackExactlyWhateverTheirKeysAndDigits() async throws {
        let (fixture, stored) = try await Self.setUp()
        var result = stored
        result.id = UUID()
        result.values = ["heartRate": 62, "a \"quoted\\ key\n": 0.1 + 0.2, "tiny": 1e-300, "huge": 1.7976931348623157e308, "negative": -3.25]
        try await fixture.store.results.create(result, keeping: nil)
        #expect(try await fixture.store.results.find(result.id, in: result.companyId)?.values == result.values)
    }
}
