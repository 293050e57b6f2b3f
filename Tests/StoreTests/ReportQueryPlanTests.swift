import Foundation
import HealthwheelCore
import StoreContract
import TestSupport
import Testing

@testable import Store

/// What a report reads by period must cost what the period holds, not what the client has: each of its statements
/// is planned, on both databases, as a range of an index bounded by the client and the period's dates, never a
/// scan of the client's results. The plans are asked of a database that holds years of results for the client
/// and others, analysed, as one in use would be.
@Suite struct ReportQueryPlanTests {
    @Test func eachReportStatementIsAnIndexRangeBoundedByThePeriod() async throws {
        let fixture = try StoreFixture()
        let company = try await fixture.makeCompany()
        let trainer = try await fixture.makeTrainer(in: company)
        var clients: [Client] = []
        for _ in 0..<2 {
            let client = Client(companyId: company.id, createdAt: fixture.clock.now)
            try await fixture.store.clients.create(client, audit: .client(.created, client.id, byOperatorOf: company.id, at: client.createdAt))
            clients.append(client)
        }
        // Two clients, two exercises each, a result a day for three years: 4,380 results.
        let start = Date(timeIntervalSince1970: 1_600_000_000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients {
                for exercise in ["push-ups", "plank"] {
                    group.addTask {
                        var results: [AssessmentResult] = []
                        for day in 0..<1_095 {
                            var result = pushUps(for: client, by: trainer, at: start.addingTimeInterval(Double(day) * 86_400))
                            result.exerciseId = exercise
                            if day % 3 == 0 { result.score = nil }
                            results.append(result)
                        }
                        for result in results { try await fixture.store.results.create(result, keeping: nil) }
                    }
                }
            }
            try await group.waitForAll()
        }
        try await fixture.database.write { try await $0.execute("ANALYZE") }

        let client = clients[0].id
        let from = start.addingTimeInterval(500 * 86_400)
        let to = start.addingTimeInterval(530 * 86_400)
        let dialect = fixture.database.dialect
        let statements: [(name: String, sql: String, arguments: [any SQLConvertible], index: String)] = [
            ("period", SQLResultRepository.periodSummaries, [client, company.id, from, to, 201], "results_by_client"),
            ("newest", SQLResultRepository.newestAsOf, [client, "push-ups", to], "results_by_exercise"),
            ("newest scored", SQLResultRepository.newestScoredAsOf, [client, "push-ups", to], "results_scored_by_exercise"),
        ]
        for statement in statements {
            let plan = try await Self.plan(statement.sql, statement.arguments, fixture.database)
            #expect(plan.contains(statement.index), "\(statement.name): \(plan)")
            switch dialect {
            case .sqlite:
                // SQLite names the columns an index search is bounded by: the client, and the period's dates.
                #expect(plan.hasPrefix("SEARCH") && plan.contains("USING INDEX"), "\(statement.name): \(plan)")
                #expect(plan.contains("client_id=?") && plan.contains("recorded_at<?"), "\(statement.name): \(plan)")
                #expect(!plan.contains("SCAN") && !plan.contains("TEMP B-TREE"), "\(statement.name): \(plan)")
            case .postgres:
                // An index scan, or a bitmap of one (then the period's rows alone are sorted), whose condition
                // holds the client and the period's dates.
                #expect(plan.contains("Index Scan"), "\(statement.name): \(plan)")
                let bounds = plan.split(separator: "\n").filter { $0.contains("Index Cond") }.joined()
                #expect(bounds.contains("client_id =") && bounds.contains("recorded_at <="), "\(statement.name): \(plan)")
                #expect(!plan.contains("Seq Scan"), "\(statement.name): \(plan)")
            }
        }
        // The period's lower bound is part of the range too, not a filter applied to everything older.
        let period = try await Self.plan(SQLResultRepository.periodSummaries, statements[0].arguments, fixture.database)
        switch dialect {
        case .sqlite: #expect(period.contains("recorded_at>?"), "\(period)")
        case .postgres: #expect(period.split(separator: "\n").filter { $0.contains("Index Cond") }.joined().contains("recorded_at >="), "\(period)")
        }
    }

    /// The database's own account of how it runs `sql`: SQLite's query plan lines, or PostgreSQL's `EXPLAIN`.
    static func plan(_ sql: String, _ arguments: [any SQLConvertible], _ database: any SQLDatabase) async throws -> String {
        try await database.read { db in
            switch db.dialect {
            case .sqlite: try await db.query("EXPLAIN QUERY PLAN " + sql, arguments).map { try $0["detail"] as String }.joined(separator: "\n")
            case .postgres: try await db.query("EXPLAIN " + sql, arguments).map { try $0["QUERY PLAN"] as String }.joined(separator: "\n")
            }
        }
    }
}
