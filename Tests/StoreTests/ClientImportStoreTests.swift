import Foundation
import HealthwheelCore
import StoreContract
import TestSupport
import Testing

@testable import Store

/// What a large vCard import needs from storage: matches that are index seeks, and saves that share transactions.
@Suite struct ClientImportStoreTests {
    @Test func afterABulkSaveEveryMatchStatementIsAnIndexSeekAndPostgreSQLKnowsTheTablesSize() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let saves = (0..<1_200).map { index in
            var client = Client(companyId: company.id, createdAt: fixture.clock.now)
            client.givenName = "Given\(index)"
            client.familyName = "Family"
            client.email = "client\(index)@example.com"
            client.vcardUID = "uid-\(index)"
            return ClientSave(client: client, isNew: true, photo: nil, by: .operatorCommand)
        }
        #expect(await fixture.store.clients.saveEach(saves, at: fixture.clock.now).allSatisfy { (try? $0.get()) != nil })

        // Each match statement is a seek of its own index. SQLite plans without statistics, so its plan shows it
        // here; PostgreSQL weighs a seek against reading the company's rows (at 1,200 rows reading them is
        // cheaper), so what it needs is statistics that know the table's size, below.
        if fixture.database.dialect == .sqlite {
            let expressions = SQLClientRepository.matchExpressions
            for (expression, index) in [
                (expressions.uid, "clients_company_uid"), (expressions.email, "clients_company_email"),
                (expressions.fullName, "clients_company_full_name"),
            ] {
                let values: [any SQLConvertible] = (0..<SQLClientRepository.matchSlice).map { "value \($0)" }
                let plan = try await ReportQueryPlanTests.plan(
                    SQLClientRepository.matchQuery(by: expression),
                    [company.id] + values,
                    fixture.database
                )
                #expect(plan.contains("USING INDEX \(index)") || plan.contains("USING COVERING INDEX \(index)"), "\(expression): \(plan)")
                #expect(!plan.contains("SCAN"), "\(expression): \(plan)")
            }
        }
        // Statements planned once (prepared statements, foreign-key checks) are planned from these statistics: an
        // import takes them again whenever a table has doubled, rather than keep a plan made when it was empty. So
        // the pages they counted are at least half the table's, give or take the few pages not worth statistics of
        // their own (`refreshStatistics`; autovacuum may have taken them part way through, and only later ones
        // count more).
        #if PostgreSQL
        if fixture.database.dialect == .postgres {
            for table in ["clients", "client_search_terms"] {
                let (counted, pages) = try await fixture.database.read { db in
                    let row = try #require(
                        try await db.query(
                            "SELECT relpages, pg_relation_size(oid) / current_setting('block_size')::int AS pages FROM pg_class WHERE oid = ?::regclass",
                            table
                        ).first
                    )
                    return (try row["relpages"] as Int, try row["pages"] as Int)
                }
                #expect(counted > 0, "\(table): no statistics after the import")
                #expect(pages < 2 * counted + PostgreSQLDatabase.pagesBeforeStatistics, "\(table): \(pages) pages, \(counted) counted")
            }
        }
        #endif
    }

    @Test func matchesFindEachKeysEarliestClientInTheCompanyOnly() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        func create(_ change: (inout Client) -> Void) async throws -> Client {
            fixture.clock.advance(by: 1)
            var client = Client(companyId: company.id, createdAt: fixture.clock.now)
            change(&client)
            try await fixture.store.clients.create(client, audit: .client(.created, client.id, byOperatorOf: client.companyId, at: client.createdAt))
            return client
        }
        let byUID = try await create { $0.vcardUID = "uid-1" }
        let byEmail = try await create { $0.email = "ada@example.com" }
        let ada = try await create {
            $0.givenName = "Ada"
            $0.familyName = "Lovelace"
        }
        _ = try await create {
            $0.givenName = "Ada"
            $0.familyName = "Lovelace"
        }
        // More keys than one statement takes: the known ones in the second slice.
        var keys = Set((0..<150).map { ClientMatchKey.uid("unknown-\($0)") })
        keys.formUnion([.uid("uid-1"), .email("ada@example.com"), .fullName("Ada Lovelace"), .email("nobody@example.com")])

        let found = try await fixture.store.clients.matches(keys, in: company.id)

        #expect(found.mapValues(\.id) == [.uid("uid-1"): byUID.id, .email("ada@example.com"): byEmail.id, .fullName("Ada Lovelace"): ada.id])
        #expect(try await fixture.store.clients.matches(keys, in: UUID()).isEmpty)
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
