import Foundation
import HealthwheelCore
import TestSupport
import Testing

@testable import Store

/// The PostgreSQL store, on the server `HEALTHWHEEL_TEST_DATABASE_URL` names (scripts/postgres starts one).
@Suite(.enabled(if: PostgreSQLTestServer.url != nil, "HEALTHWHEEL_TEST_DATABASE_URL is not set"))
struct PostgreSQLStoreTests {
    @Test func parametersAreNumberedOutsideQuotesAndComments() {
        #expect(PostgreSQLConnection.numberingParameters("SELECT ? , '?' , ?3, ? -- ?\n, \"a?\"") == "SELECT $1 , '?' , $3, $4 -- ?\n, \"a?\"")
    }

    @Test func migratingTwiceAppliesNothingTheSecondTimeAndTheRepositoriesWork() async throws {
        let database = try PostgreSQLTestServer.freshDatabase()
        defer { database.close() }
        #expect(try RepositoryRoot.postgresMigrator.migrate(database).isEmpty)
        let store = Store(database: database)
        let company = Company(name: "Gym", createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        try await store.companies.create(company)
        #expect(try await store.companies.find(company.id)?.name == "Gym")
    }
}
