import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Store
import StoreContract
import Testing

@testable import API

/// `GET /v1/clients`: sorted by family then given name ignoring case and accents, `?q=` prefix search, cursor pages.
@Suite struct ClientsListTests {
    /// Family names of a list response, in order.
    static func familyNames(_ response: TestResponse) -> [String?] {
        response.listItems.map { $0["familyName"] as? String }
    }

    static func names(_ response: TestResponse) -> [String] {
        response.listItems.map { [$0["givenName"] as? String, $0["familyName"] as? String].compactMap { $0 }.joined(separator: " ") }
    }

    @Test func listIsSortedByFamilyThenGivenNameIgnoringCaseAndAccents() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            for (given, family) in [
                ("Amy", "Zeta"), ("Dick", "van Dyke"), ("Zoë", "Ångström"), ("john", "adams"), ("Beth", "Adams"), ("Ann", "Lia"), ("Zed", "Li"),
            ] {
                _ = try await client.createClient(given: given, family: family, token: token)
            }
            let response = try await client.send(.get, "/v1/clients", token: token)
            #expect(response.status == .ok)
            #expect(Self.names(response) == ["Beth Adams", "john adams", "Zoë Ångström", "Zed Li", "Ann Lia", "Dick van Dyke", "Amy Zeta"])
            #expect(response.jsonBody["nextCursor"] == .null)
        }
    }

    @Test func listOrderFollowsARename() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let ada = try await client.createClient(given: "Ada", family: "Lovelace", token: token)
            _ = try await client.createClient(given: "Grace", family: "Hopper", token: token)
            #expect(try await client.send(.patch, "/v1/clients/\(ada)", token: token, json: #"{"familyName": "Byron"}"#).status == .ok)
            #expect(Self.familyNames(try await client.send(.get, "/v1/clients", token: token)) == ["Byron", "Hopper"])
        }
    }

    @Test func theListCarriesEachClientsOverview() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(ClientsAPI.ada, token: token)
            _ = try await client.startScreening(client: id, token: token)
            let item = try #require(try await client.send(.get, "/v1/clients", token: token).jsonBody["items"]?.array?.first)
            #expect(item["screeningStatus"] == .string("draft"))
            #expect(item["flags"] == .array([]))
            #expect(item["rescreenDue"] == .bool(false))
            #expect(item["age"] == .number(41))
        }
    }

    @Test func theListShowsOnlyTheCallersCompany() async throws {
        try await withAPI { fixture, client in
            let otherToken = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            _ = try await client.createClient(given: "Ada", family: "Lovelace", token: otherToken)
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            _ = try await client.createClient(given: "Adam", family: "Smith", token: token)
            #expect(Self.names(try await client.send(.get, "/v1/clients", token: token)) == ["Adam Smith"])
            #expect(Self.names(try await client.send(.get, "/v1/clients?q=ada", token: token)) == ["Adam Smith"])
            #expect(Self.names(try await client.send(.get, "/v1/clients?q=lovelace", token: token)) == [])
        }
    }

    // MARK: - Search

    /// A company with a few clients to search.
    static func searchable(_ fixture: Fixture, _ client: some TestClientProtocol) async throws -> String {
        let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
        _ = try await client.createClient(
            given: "Zoë",
            family: "Ångström",
            extra: ["email": "zoe@example.com", "phone": "021 555 1234"],
            token: token
        )
        _ = try await client.createClient(
            given: "Zoe",
            family: "Adams",
            extra: ["email": "z.adams@example.org", "phone": "+64 9 876 5432"],
            token: token
        )
        _ = try await client.createClient(given: "Angus", family: "Young", extra: ["email": "angus@acdc.example"], token: token)
        _ = try await client.createClient(given: "Dick", family: "van Dyke", token: token)
        return token
    }

    static func search(_ query: String, _ client: some TestClientProtocol, _ token: String) async throws -> [String] {
        let response = try await client.send(.get, "/v1/clients?q=\(percentEncoded(query))", token: token)
        #expect(response.status == .ok, "body: \(response.text)")
        return names(response)
    }

    @Test func aGivenNamePrefixFindsClients() async throws {
        try await withAPI { fixture, client in
            let token = try await Self.searchable(fixture, client)
            #expect(try await Self.search("zo", client, token) == ["Zoe Adams", "Zoë Ångström"])
            #expect(try await Self.search("Dic", client, token) == ["Dick van Dyke"])
        }
    }

    @Test func aFamilyNamePrefixFindsClientsWithAccentsFolded() async throws {
        try await withAPI { fixture, client in
            let token = try await Self.searchable(fixture, client)
            #expect(try await Self.search("ang", client, token) == ["Zoë Ångström", "Angus Young"])
            #expect(try await Self.search("ÅNGST", client, token) == ["Zoë Ångström"])
            #expect(try await Self.search("Dyke", client, token) == ["Dick van Dyke"])
        }
    }

    @Test func anEmailPrefixFindsTheClient() async throws {
        try await withAPI { fixture, client in
            let token = try await Self.searchable(fixture, client)
            #expect(try await Self.search("z.adams@", client, token) == ["Zoe Adams"])
            #expect(try await Self.search("ANGUS@ACDC", client, token) == ["Angus Young"])
        }
    }

    @Test func phoneDigitsFindTheClient() async throws {
        try await withAPI { fixture, client in
            let token = try await Self.searchable(fixture, client)
            #expect(try await Self.search("0215551234", client, token) == ["Zoë Ångström"])
            #expect(try await Self.search("021-555", client, token) == ["Zoë Ångström"])
            #expect(try await Self.search("21555", client, token) == ["Zoë Ångström"])
            #expect(try await Self.search("+649876", client, token) == ["Zoe Adams"])
        }
    }

    @Test func aPhoneNumberTypedWithSpacesFindsTheClient() async throws {
        try await withAPI { fixture, client in
            let token = try await Self.searchable(fixture, client)
            #expect(try await Self.search("021 555 1234", client, token) == ["Zoë Ångström"])
        }
    }

    @Test func everyWordOfAQueryMustMatch() async throws {
        try await withAPI { fixture, client in
            let token = try await Self.searchable(fixture, client)
            #expect(try await Self.search("zoe", client, token).count == 2)
            #expect(try await Self.search("zoe ang", client, token) == ["Zoë Ångström"])
            #expect(try await Self.search("ada zoe", client, token) == ["Zoe Adams"])
            #expect(try await Self.search("zoe young", client, token) == [])
        }
    }

    @Test func aQueryMatchingNoOneGivesAnEmptyList() async throws {
        try await withAPI { fixture, client in
            let token = try await Self.searchable(fixture, client)
            #expect(try await Self.search("xavier", client, token) == [])
            // A prefix must start a term: the middle of a name finds nothing.
            #expect(try await Self.search("gstr", client, token) == [])
        }
    }

    @Test func searchFollowsEdits() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let id = try await client.createClient(given: "Ada", family: "Lovelace", extra: ["email": "ada@example.com"], token: token)
            let patch = #"{"familyName": "Byron", "email": null, "phone": "07700 900123"}"#
            #expect(try await client.send(.patch, "/v1/clients/\(id)", token: token, json: patch).status == .ok)
            #expect(try await Self.search("lovelace", client, token) == [])
            #expect(try await Self.search("ada@", client, token) == [])
            #expect(try await Self.search("byr", client, token) == ["Ada Byron"])
            #expect(try await Self.search("07700", client, token) == ["Ada Byron"])
        }
    }

    @Test func anEmptyQueryListsEveryone() async throws {
        try await withAPI { fixture, client in
            let token = try await Self.searchable(fixture, client)
            #expect(try await Self.search("", client, token).count == 4)
            #expect(try await Self.search("  ", client, token).count == 4)
        }
    }

    @Test func aClientMatchingSeveralTermsIsListedOnce() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            _ = try await client.createClient(given: "Anna", family: "Annan", extra: ["email": "anna@annan.example"], token: token)
            #expect(try await Self.search("ann", client, token) == ["Anna Annan"])
            #expect(try await Self.search("ann anna", client, token) == ["Anna Annan"])
        }
    }

    @Test func anOverlongQueryIs422() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            let response = try await client.send(.get, "/v1/clients?q=\(String(repeating: "a", count: 201))", token: token)
            expectProblem(response, .unprocessableContent, fields: ["q"])
        }
    }

    // MARK: - Pages

    /// Follows `nextCursor` from the first page to the last, returning every page's names.
    static func pages(_ path: String, limit: Int, _ client: some TestClientProtocol, _ token: String) async throws -> [[String]] {
        var pages: [[String]] = []
        var cursor: String?
        let separator = path.contains("?") ? "&" : "?"
        repeat {
            let uri = "\(path)\(separator)limit=\(limit)" + (cursor.map { "&cursor=\(percentEncoded($0))" } ?? "")
            let response = try await client.send(.get, uri, token: token)
            #expect(response.status == .ok, "body: \(response.text)")
            pages.append(names(response))
            cursor = response.object["nextCursor"] as? String
            if pages.count > 20 { break }
        } while cursor != nil
        return pages
    }

    @Test func pagesWalkTheWholeListOnceInOrder() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            for family in ["Evans", "Clark", "Adams", "Baker", "Davis"] {
                _ = try await client.createClient(given: "Sam", family: family, token: token)
            }
            let pages = try await Self.pages("/v1/clients", limit: 2, client, token)
            #expect(pages == [["Sam Adams", "Sam Baker"], ["Sam Clark", "Sam Davis"], ["Sam Evans"]])
        }
    }

    @Test func aFullLastPageHasNoNextCursor() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            for family in ["Adams", "Baker", "Clark", "Davis"] {
                _ = try await client.createClient(given: "Sam", family: family, token: token)
            }
            #expect(try await Self.pages("/v1/clients", limit: 2, client, token) == [["Sam Adams", "Sam Baker"], ["Sam Clark", "Sam Davis"]])
        }
    }

    @Test func pagesSeparateClientsWithTheSameName() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            var ids: Set<String> = []
            for _ in 0..<3 { ids.insert(try await client.createClient(given: "Sam", family: "Smith", token: token)) }
            var seen: [String] = []
            var cursor: String?
            for _ in 0..<3 {
                let uri = "/v1/clients?limit=1" + (cursor.map { "&cursor=\(percentEncoded($0))" } ?? "")
                let response = try await client.send(.get, uri, token: token)
                seen += response.listItems.compactMap { $0["id"] as? String }
                cursor = response.object["nextCursor"] as? String
            }
            #expect(seen.count == 3)
            #expect(Set(seen) == ids)
            #expect(cursor == nil)
        }
    }

    @Test func pagesOfASearchStayWithinTheSearch() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            for (given, family) in [("Sam", "Adams"), ("Kim", "Baker"), ("Sam", "Clark"), ("Kim", "Davis"), ("Sam", "Evans")] {
                _ = try await client.createClient(given: given, family: family, token: token)
            }
            let pages = try await Self.pages("/v1/clients?q=sam", limit: 2, client, token)
            #expect(pages == [["Sam Adams", "Sam Clark"], ["Sam Evans"]])
        }
    }

    @Test func aBadLimitOrCursorIs422() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            expectProblem(try await client.send(.get, "/v1/clients?limit=0", token: token), .unprocessableContent, fields: ["limit"])
            expectProblem(try await client.send(.get, "/v1/clients?limit=201", token: token), .unprocessableContent, fields: ["limit"])
            expectProblem(try await client.send(.get, "/v1/clients?limit=ten", token: token), .unprocessableContent, fields: ["limit"])
            expectProblem(try await client.send(.get, "/v1/clients?cursor=not-a-cursor", token: token), .notFound, fields: ["cursor"])
            #expect(try await client.send(.get, "/v1/clients?limit=200", token: token).status == .ok)
        }
    }
}
