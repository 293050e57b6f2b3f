import Foundation
import HealthwheelCore
import StoreContract
import TestSupport
import Testing

@testable import Store

/// The caches on the hot path (client records, list versions, wheel stamps) are kept while nothing they are read
/// from was written, and never serve a value older than the last write of this process.
@Suite(.sqlcipherOnly) struct ReadCacheInvalidationTests {
    @Test func aCommitMovesTheStampsOfTheTablesItChangedAndNoOthers() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        let database = fixture.database
        func stamps() -> (clients: Int, results: Int) {
            (database.changeStamp(of: ["clients"])!, database.changeStamp(of: ["results"])!)
        }

        let beforeClient = stamps()
        let client = Client(companyId: company.id, createdAt: fixture.clock.now)
        try await fixture.store.clients.create(client, audit: .client(.created, client.id, byOperatorOf: client.companyId, at: client.createdAt))
        let afterClient = stamps()
        #expect(afterClient.clients != beforeClient.clients)
        #expect(afterClient.results == beforeClient.results)

        try await fixture.store.results.create(pushUps(for: client, by: trainer, at: fixture.clock.now), keeping: nil)
        let afterResult = stamps()
        #expect(afterResult.results != afterClient.results)
        #expect(afterResult.clients == afterClient.clients, "a result must not evict cached client records")

        // A write that fails changes nothing, so it moves nothing.
        await #expect(throws: (any Error).self) {
            try await database.write { db in
                try await db.run("INSERT INTO clients (id) VALUES (?)", UUID())
            }
        }
        #expect(stamps() == afterResult)
    }

    @Test func rowsChangedByTriggersAndCascadesAreSeen() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        let client = Client(companyId: company.id, createdAt: fixture.clock.now)
        try await fixture.store.clients.create(client, audit: .client(.created, client.id, byOperatorOf: client.companyId, at: client.createdAt))
        try await fixture.store.results.create(pushUps(for: client, by: trainer, at: fixture.clock.now), keeping: nil)
        let database = fixture.database
        let results = database.changeStamp(of: ["results"])
        let companies = database.changeStamp(of: ["companies"])

        #expect(
            try await fixture.store.clients.delete(
                client.id,
                in: company.id,
                audit: .client(.deleted, client.id, byOperatorOf: company.id, at: Date())
            )
        )
        // The result went with its client (ON DELETE CASCADE), and a trigger moved the company's list version.
        #expect(database.changeStamp(of: ["results"]) != results)
        #expect(database.changeStamp(of: ["companies"]) != companies)
    }

    @Test func aCachedClientRecordNeverOutlivesAChangeToIt() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        var client = Client(companyId: company.id, createdAt: fixture.clock.now)
        client.givenName = "Ana"
        try await fixture.store.clients.create(client, audit: .client(.created, client.id, byOperatorOf: client.companyId, at: client.createdAt))
        let clients = fixture.store.clients

        #expect(try await clients.find(client.id, in: company.id)?.client.givenName == "Ana")
        #expect(try await clients.find(client.id, in: company.id)?.client.givenName == "Ana")
        _ = try await clients.update(client.id, in: company.id, audit: .client(.changed, client.id, byOperatorOf: company.id, at: Date())) {
            $0.givenName = "Bea"
        }
        #expect(try await clients.find(client.id, in: company.id)?.client.givenName == "Bea")

        #expect(try await clients.find(client.id, in: company.id)?.hasPhoto == false)
        #expect(
            try await clients.setPhoto(
                ClientPhoto(contentType: "image/png", bytes: [1, 2, 3]),
                of: client.id,
                in: company.id,
                at: fixture.clock.now,
                audit: .client(.changed, client.id, byOperatorOf: company.id, at: fixture.clock.now)
            )
        )
        #expect(try await clients.find(client.id, in: company.id)?.hasPhoto == true)

        // Another company never sees it, cached or not.
        let other = try await fixture.makeCompany("Other")
        #expect(try await clients.find(client.id, in: other.id) == nil)
        #expect(try await clients.exists(client.id, in: other.id) == false)

        #expect(try await clients.exists(client.id, in: company.id))
        #expect(try await clients.delete(client.id, in: company.id, audit: .client(.deleted, client.id, byOperatorOf: company.id, at: Date())))
        #expect(try await clients.find(client.id, in: company.id) == nil)
        #expect(try await clients.exists(client.id, in: company.id) == false)
    }

    @Test func aWheelStampMovesWithItsOwnClientsResultsOnly() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        let first = Client(companyId: company.id, createdAt: fixture.clock.now)
        let second = Client(companyId: company.id, createdAt: fixture.clock.now)
        try await fixture.store.clients.create(first, audit: .client(.created, first.id, byOperatorOf: first.companyId, at: first.createdAt))
        try await fixture.store.clients.create(second, audit: .client(.created, second.id, byOperatorOf: second.companyId, at: second.createdAt))
        let results = fixture.store.results

        let firstBefore = try #require(try await results.wheelStamp(client: first.id, in: company.id))
        let secondBefore = try #require(try await results.wheelStamp(client: second.id, in: company.id))
        let recorded = pushUps(for: first, by: trainer, at: fixture.clock.now)
        try await results.create(recorded, keeping: nil)
        let firstAfter = try #require(try await results.wheelStamp(client: first.id, in: company.id))
        #expect(firstAfter.resultsVersion > firstBefore.resultsVersion)
        #expect(try await results.wheelStamp(client: second.id, in: company.id) == secondBefore)

        var changed = recorded
        changed.score = 8
        _ = try await results.replace([(recorded, changed)], by: trainer.id, reason: .edit, at: fixture.clock.now, keeping: nil)
        let afterEdit = try #require(try await results.wheelStamp(client: first.id, in: company.id))
        #expect(afterEdit.resultsVersion > firstAfter.resultsVersion)

        #expect(try await results.delete(recorded.id, in: company.id, by: recorded.trainerId, at: Date()))
        let afterDelete = try #require(try await results.wheelStamp(client: first.id, in: company.id))
        #expect(afterDelete.resultsVersion > afterEdit.resultsVersion)

        // The company's threshold is part of the stamp.
        _ = try await fixture.store.companies.updateSettings(of: company.id, audit: .byTest) { $0.wheelFlagBelow = 3 }
        #expect(try await results.wheelStamp(client: second.id, in: company.id)?.flagBelow == 3)

        #expect(
            try await fixture.store.clients.delete(first.id, in: company.id, audit: .client(.deleted, first.id, byOperatorOf: company.id, at: Date()))
        )
        #expect(try await results.wheelStamp(client: first.id, in: company.id) == nil)
    }

    @Test func aKeyedGenerationNeverRepeatsANumberForAKey() {
        let generation = KeyedGeneration<Int>(capacity: 3)
        var seen: [Int: Set<Int>] = [:]
        for round in 0..<20 {
            let key = round % 5
            seen[key, default: []].insert(generation.current(key))
            generation.advance([key])
            #expect(!seen[key, default: []].contains(generation.current(key)), "key \(key) repeated a number in round \(round)")
        }

        let roomy = KeyedGeneration<Int>()
        let untouched = roomy.current(1)
        roomy.advance([2])
        #expect(roomy.current(1) == untouched, "advancing one key must leave the others' cached values alone")
        #expect(roomy.current(2) != untouched)
    }
}
