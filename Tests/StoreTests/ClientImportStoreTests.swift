import Foundation
import HealthwheelCore
import Store
import StoreContract
import TestSupport
import Testing

/// What a large vCard import needs from storage: matches that are index seeks, and saves that share transactions.
@Suite struct ClientImportStoreTests {
    @Test(.sqlcipherOnly) func everyMatchQueryIsAnIndexSeekNotAScan() throws {
        let fixture = try StoreFixture()
        // The three queries `match` runs, as SQLite plans them.
        let queries = [
            "SELECT id FROM clients c WHERE c.company_id = ? AND c.vcard_uid = ? LIMIT 1",
            "SELECT id FROM clients c WHERE c.company_id = ? AND c.email = ? LIMIT 1",
            "SELECT id FROM clients c WHERE c.company_id = ? AND trim(coalesce(c.given_name, '') || ' ' || coalesce(c.family_name, '')) = ? LIMIT 1",
        ]
        for query in queries {
            let plan = try fixture.database.readBlocking { db in
                try await db.query("EXPLAIN QUERY PLAN " + query, UUID(), "x").map { try $0["detail"] as String }.joined(separator: "; ")
            }
            #expect(plan.contains("USING INDEX") || plan.contains("USING COVERING INDEX"), "\(query): \(plan)")
            #expect(!plan.contains("SCAN"), "\(query): \(plan)")
        }
    }

    @Test func matchFindsAClientByFullName() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        var client = Client(companyId: company.id, createdAt: fixture.clock.now)
        client.givenName = "Ada"
        client.familyName = "Lovelace"
        try await fixture.store.clients.create(client, audit: .client(.created, client.id, byOperatorOf: client.companyId, at: client.createdAt))
        let found = try await fixture.store.clients.match(uid: nil, email: nil, fullName: "Ada Lovelace", in: company.id)
        #expect(found?.id == client.id)
        #expect(try await fixture.store.clients.match(uid: nil, email: nil, fullName: "Ada Lovelace", in: UUID()) == nil)
    }

    @Test func saveEachStoresEveryGoodClientAndReportsTheBadOneAlone() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let good = (0..<3).map { index in
            var client = Client(companyId: company.id, createdAt: fixture.clock.now)
            client.givenName = "Client \(index)"
            return client
        }
        // A client of a company that does not exist breaks a foreign key: only its own save fails.
        var orphan = Client(companyId: UUID(), createdAt: fixture.clock.now)
        orphan.givenName = "Orphan"
        let saves = [good[0], orphan, good[1], good[2]].map { ClientSave(client: $0, isNew: true, photo: nil, by: .operatorCommand) }

        let outcomes = await fixture.store.clients.saveEach(saves, at: fixture.clock.now)

        #expect(outcomes.count == 4)
        #expect((try? outcomes[1].get()) == nil)
        for index in [0, 2, 3] { #expect((try? outcomes[index].get()) != nil) }
        let stored = try await fixture.store.clients.all(in: company.id)
        #expect(Set(stored.map(\.id)) == Set(good.map(\.id)))
    }
}
