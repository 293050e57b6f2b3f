import Foundation
import HealthwheelCore
import StoreContract
import TestSupport
import Testing

@testable import Store

/// A client search by SQL scans its rarest word's term range, or walks the list in order when every word is
/// common; both plans, whatever decides between them, must give the same pages.
@Suite(.sqlcipherOnly) struct ClientSearchPlanTests {
    static let people: [(given: String?, family: String?, email: String?, phone: String?)] = [
        ("Olivia", "Smith", "olivia@example.com", "021 555 1000"),
        ("Olivia", "Smith", nil, nil),
        ("Olivia Rose", "Smith-Walker", "osw@example.com", "+64 21 555 1003"),
        ("Oliver", "Smithson", "o.smithson@example.com", "(09) 555-1002"),
        ("Zoë", "Ångström", "zoe@example.com", nil),
        ("Émile", "Núñez", nil, "0064 21 555 1005"),
        ("Li", "Lee", nil, nil),
        ("Lia", "Lee", nil, nil),
        (nil, "Li", nil, nil),
        ("Seán", "O'Brien", "sean@example.com", nil),
        ("Ana", "Smith", "ana@example.com", "021 555 1008"),
        (nil, nil, "nobody@example.com", "555"),
    ]

    static let queries = [
        "o", "oli", "olivia smi", "smi oli", "smith-w", "zoe", "ång", "e", "li", "lee li", "021 555", "555", "+64 21",
        "s o", "nobody", "zzz", "a b c d e f g h i",
    ]

    @Test func theRangeScanAndTheWalkGiveTheSamePages() async throws {
        let folder = TemporaryDirectory()
        let database = try openTestDatabase(folder)
        let company = Company(name: "Plans", createdAt: Date())
        try await Repositories(database: database).companies.create(company)
        let ranged = SQLClientRepository(database: database, commonTerms: .max)
        for person in Self.people {
            var client = Client(companyId: company.id, createdAt: Date())
            client.givenName = person.given
            client.familyName = person.family
            client.email = person.email
            client.phone = person.phone
            try await ranged.create(client, audit: .client(.created, client.id, byOperatorOf: company.id, at: client.createdAt))
        }
        // 0: every word is common, so every search walks; 2: words prefixing 2 terms or more walk, rarer ones scan.
        for commonTerms in [0, 2] {
            let other = SQLClientRepository(database: database, commonTerms: commonTerms)
            for query in Self.queries {
                for limit in [1, 3, 50] {
                    var cursor: Cursor?
                    var pages = 0
                    repeat {
                        let expected = try await ranged.list(in: company.id, query: query, after: cursor, limit: limit)
                        let page = try await other.list(in: company.id, query: query, after: cursor, limit: limit)
                        #expect(page.items == expected.items, "common at \(commonTerms), q=\(query) limit=\(limit) page \(pages)")
                        #expect(page.nextCursor == expected.nextCursor, "common at \(commonTerms), q=\(query) limit=\(limit) page \(pages)")
                        cursor = expected.nextCursor
                        pages += 1
                    } while cursor != nil && pages < 20
                }
            }
        }
        // The rule itself, on one search: every word prefixes a name, the email or the phone's digits.
        let page = try await SQLClientRepository(database: database, commonTerms: 0).list(
            in: company.id,
            query: "smi oli",
            after: nil,
            limit: 50
        )
        #expect(
            page.items.map { "\($0.client.givenName ?? "") \($0.client.familyName ?? "")" } == [
                "Olivia Smith", "Olivia Smith", "Olivia Rose Smith-Walker", "Oliver Smithson",
            ]
        )
    }
}
