import Foundation
import HealthwheelCore
import Store
import StoreContract
import Testing

/// The client list is served from memory (`ClientDirectory`); it must answer exactly as the SQL query does and
/// follow every change at once.
@Suite struct ClientDirectoryTests {
    static let given = ["Olivia", "Liam", "Zoë", "Ana", "Oliver", "Émile", "Li"]
    static let family = ["Smith", "Smithson", "Ångström", "Smith-Walker", "Ngata", "O'Brien", nil]

    @Test func pagesAndSearchesAgreeWithTheSQLQuery() async throws {
        // The test client's one connection opens with the server and waits while the roster is written, which on
        // a loaded machine can outlast the server's wait for a request: this test is about searches, not that.
        try await withAPI(idleTimeout: .seconds(600), headDeadline: .seconds(600)) { fixture, client in
            let company = try await fixture.company()
            let admin = try await fixture.trainer(in: company, role: .admin)
            let token = try await client.token(for: admin)
            var index = 0
            for given in Self.given {
                for family in Self.family {
                    var person = Client(companyId: company.id, createdAt: fixture.clock.now)
                    person.givenName = given
                    person.familyName = family
                    person.email = "c\(index)@example.com"
                    person.phone = "021 555 \(1000 + index)"
                    try await fixture.store.clients.create(
                        person,
                        audit: .client(.created, person.id, byOperatorOf: person.companyId, at: person.createdAt)
                    )
                    index += 1
                }
            }
            for query in ["", "oli", "smi", "olivia smi", "zoe", "ZOË ång", "o", "l", "021 555 10", "c1", "nobody", "smith walker"] {
                for limit in [1, 3, 50] {
                    var cursor: Cursor?
                    var pages = 0
                    repeat {
                        var uri = "/v1/clients?limit=\(limit)&q=\(percentEncoded(query))"
                        if let cursor { uri += "&cursor=\(cursor.token)" }
                        let response = try await client.send(.get, uri, token: token)
                        let expected = try await fixture.store.clients.list(in: company.id, query: query, after: cursor, limit: limit)
                        let ids = response.listItems.map { $0["id"] as? String }
                        #expect(ids == expected.items.map { $0.client.id.uuidString }, "q=\(query) limit=\(limit) page \(pages)")
                        #expect(response.object["nextCursor"] as? String == expected.nextCursor?.token)
                        cursor = expected.nextCursor
                        pages += 1
                    } while cursor != nil && pages < 60
                }
            }
        }
    }

    @Test func theListFollowsEveryChangeAtOnce() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await fixture.trainer(in: company, role: .admin)
            let token = try await client.token(for: admin)
            func only() async throws -> [String: Any] {
                let items = try await client.send(.get, "/v1/clients", token: token).listItems
                #expect(items.count == 1)
                return items.first ?? [:]
            }
            let id = try await client.createClient(given: "Ada", family: "Lovelace", token: token)
            #expect(try await only()["familyName"] as? String == "Lovelace")

            _ = try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"familyName": "King"}"#)
            #expect(try await only()["familyName"] as? String == "King")
            #expect(try await client.send(.get, "/v1/clients?q=king", token: token).listItems.count == 1)
            #expect(try await client.send(.get, "/v1/clients?q=lovelace", token: token).listItems.isEmpty)

            _ = try await client.sendBytes(.put, "/v1/clients/\(id)/photo", token: token, contentType: "image/png", bytes: ClientsAPI.png())
            #expect(try await only()["hasPhoto"] as? Bool == true)

            _ = try await client.startScreening(client: id, token: token)
            #expect(try await only()["screeningStatus"] as? String == "draft")

            // A write that bypasses the API is seen too: the version is kept by database triggers.
            let changed = try #require(UUID(uuidString: id))
            _ = try await fixture.store.clients.update(
                changed,
                in: company.id,
                audit: .client(.changed, changed, byOperatorOf: company.id, at: Date())
            ) {
                $0.givenName = "Augusta"
            }
            #expect(try await only()["givenName"] as? String == "Augusta")

            _ = try await client.send(.delete, "/v1/clients/\(id)", token: token)
            #expect(try await client.send(.get, "/v1/clients", token: token).listItems.isEmpty)
        }
    }

    @Test func agesMoveOnAtMidnightUTC() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await fixture.trainer(in: company, role: .admin)
            let token = try await client.token(for: admin)
            // The fixture clock starts at 2027-01-15T08:00:00Z; the birthday is the next day.
            let tomorrow = CalendarDate(fixture.clock.now.addingTimeInterval(86_400))
            let birthDate = "\(tomorrow.year - 30)-\(String(format: "%02d-%02d", tomorrow.month, tomorrow.day))"
            _ = try await client.createClient(given: "Ada", family: "Lovelace", extra: ["birthDate": birthDate], token: token)
            #expect(try await client.send(.get, "/v1/clients", token: token).listItems.first?["age"] as? Int == 29)
            // 17 hours on is 01:00 the next day (past the token's lifetime, so log in again).
            fixture.clock.advance(by: 17 * 3600)
            let later = try await client.send(.get, "/v1/clients", token: try await client.token(for: admin))
            #expect(later.listItems.first?["age"] as? Int == 30)
        }
    }
}
