import Foundation
import HealthwheelCore
import Media
import Store
import StoreContract
import TestSupport
import Testing

@testable import Services

/// The in-memory client lists (`ClientDirectory`, `ClientDirectoryCache`) against the SQL query they stand in for,
/// and the cache's bounds: a roster too large is found out once per list version, and busy companies never push
/// each other out.
@Suite struct ClientDirectoryCacheTests {
    final class Fixture: Sendable {
        let folder = TemporaryDirectory()
        let store: Repositories
        let clock = ManualClock()

        init() throws {
            store = Repositories(database: try openTestDatabase(folder))
        }

        func company() async throws -> UUID {
            let company = Company(name: "C \(UUID().uuidString.prefix(4))", createdAt: clock.now)
            try await store.companies.create(company)
            return company.id
        }

        /// A roster with `limits`, whose rendering holds the whole record (so equal bytes mean equal records).
        func roster(_ limits: ClientDirectoryCache.Limits = .init()) -> ClientRoster {
            ClientRoster(store: store, clock: clock, mediaWorkers: testMediaWorkers, limits: limits) { record, now in Self.render(record, now) }
        }

        /// A JSON object, as the API renders one (the directory keeps such objects without their keys).
        static func render(_ record: ClientRecord, _ now: Date) -> [UInt8] {
            let client = record.client
            let object: [String: Any] = [
                "id": client.id.uuidString, "givenName": client.givenName ?? NSNull(), "familyName": client.familyName ?? NSNull(),
                "email": client.email ?? NSNull(), "phone": client.phone ?? NSNull(), "hasPhoto": record.hasPhoto,
                "record": "\(record)", "at": now.timeIntervalSince1970,
            ]
            return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { Array($0) } ?? []
        }

        /// Rendered items as text, for readable failures.
        static func text(_ items: [[UInt8]]) -> [String] {
            items.map { String(decoding: $0, as: UTF8.self) }
        }

        @discardableResult
        func client(in company: UUID, given: String?, family: String?, email: String? = nil, phone: String? = nil) async throws -> UUID {
            var client = Client(companyId: company, createdAt: clock.now)
            client.givenName = given
            client.familyName = family
            client.email = email
            client.phone = phone
            try await store.clients.create(client, audit: .client(.created, client.id, byOperatorOf: client.companyId, at: client.createdAt))
            return client.id
        }
    }

    /// Names that sort and fold in awkward ways: accents, hyphens, apostrophes, shared prefixes, a German sharp s,
    /// twins (equal sort keys, ordered by id), missing names, and phones with and without a country code.
    static let people: [(given: String?, family: String?, email: String?, phone: String?)] = [
        ("Olivia", "Smith", "olivia@example.com", "021 555 1000"),
        ("Olivia", "Smith", "olivia.smith+gym@example.com", "+64 21 555 1001"),
        ("Olivia", "Smith", nil, nil),
        ("Oliver", "Smithson", "o.smithson@example.com", "(09) 555-1002"),
        ("Olivia Rose", "Smith-Walker", "osw@example.com", "+1 415 555 1003"),
        ("Zoë", "Ångström", "zoe@example.com", "021 555 1004"),
        ("ZOE", "Angstrom", "ZOE.A@Example.com", nil),
        ("Émile", "Núñez", nil, "0064 21 555 1005"),
        ("Emile", "Nunez", "emile@example.com", nil),
        ("Li", "Lee", nil, nil),
        ("Lia", "Lee", nil, nil),
        ("Liam", "Lee-Li", nil, nil),
        ("Li", nil, nil, nil),
        (nil, "Li", nil, nil),
        (nil, nil, "nobody-named@example.com", "555"),
        ("Seán", "O'Brien", "sean@example.com", nil),
        ("Jean-Luc", "Picard", "jl@example.com", "+33 1 55 55 10 06"),
        ("Hans", "Strauß", "hans@example.com", nil),
        ("Chloé", "García", "chloe@example.com", "021 555 1007"),
        ("Ana", "Smith", "ana@example.com", "021 555 1008"),
        ("ana", "smith", "ana2@example.com", "021-555-1009"),
        ("Wiremu", "Ngata", "wiremu@example.com", "021 555 1010"),
        ("Zed \"Z\"", "Brace{}[],", "z\\@example.com", nil),
    ]

    static let queries = [
        "", "o", "oli", "olivia", "olivia smi", "OLIVIA SMITH", "smith walker", "smith-w", "smi oli", "zoe", "ZOË ång",
        "ang", "é", "e", "emile nunez", "strau", "strauss", "o'b", "seán", "li", "lia", "lee li", "+64 21", "021 555",
        "21555", "555", "(09)", "olivia@", "ana@ex", "jean", "luc", "nobody", "a b c d e f g h i j", "  ", ",",
    ]

    @Test func memoryAndSQLAnswerAlike() async throws {
        let fixture = try Fixture()
        let company = try await fixture.company()
        for person in Self.people {
            try await fixture.client(in: company, given: person.given, family: person.family, email: person.email, phone: person.phone)
        }
        let roster = fixture.roster()
        let now = fixture.clock.now
        // The first request finds no list: it starts one and is answered by SQL.
        guard case .stored = try await roster.list(in: company, search: nil, after: nil, limit: 50, now: now) else {
            Issue.record("the first request cannot have a list yet")
            return
        }
        await roster.directories.finishBuilding()
        // Cursors the lists never hand out: between, before and after every client.
        let madeUp = [
            Cursor(sortKey: "", id: UUID()), Cursor(sortKey: "m", id: UUID()), Cursor(sortKey: "smith\u{1}olivia", id: UUID()),
            Cursor(sortKey: "\u{10FFFF}", id: UUID()),
        ]
        for query in Self.queries {
            for limit in [1, 2, 7, 50] {
                var cursor: Cursor?
                var pages = 0
                repeat {
                    let memory = try await roster.list(in: company, search: query, after: cursor, limit: limit, now: now)
                    let stored = try await fixture.store.clients.list(in: company, query: query, after: cursor, limit: limit)
                    guard case .rendered(let items, let next) = memory else {
                        Issue.record("q=\(query) limit=\(limit): answered by SQL, not from memory")
                        return
                    }
                    #expect(
                        Fixture.text(items) == Fixture.text(stored.items.map { Fixture.render($0, now) }),
                        "q=\(query) limit=\(limit) page \(pages)"
                    )
                    #expect(next == stored.nextCursor, "q=\(query) limit=\(limit) page \(pages)")
                    cursor = stored.nextCursor
                    pages += 1
                } while cursor != nil && pages < 30
                #expect(cursor == nil, "q=\(query) limit=\(limit): more than 30 pages")
            }
            for cursor in madeUp {
                let memory = try await roster.list(in: company, search: query, after: cursor, limit: 3, now: now)
                let stored = try await fixture.store.clients.list(in: company, query: query, after: cursor, limit: 3)
                guard case .rendered(let items, let next) = memory else {
                    Issue.record("q=\(query): answered by SQL, not from memory")
                    return
                }
                #expect(Fixture.text(items) == Fixture.text(stored.items.map { Fixture.render($0, now) }), "q=\(query) after \(cursor)")
                #expect(next == stored.nextCursor, "q=\(query) after \(cursor)")
            }
        }
        #expect(roster.directories.statistics.builds == 1)
    }

    @Test func aRosterTooLargeIsCountedOncePerListVersion() async throws {
        let fixture = try Fixture()
        let company = try await fixture.company()
        var ids: [UUID] = []
        for index in 0..<4 { ids.append(try await fixture.client(in: company, given: "Ana", family: "Smith \(index)")) }
        let roster = fixture.roster(.init(clientsPerCompany: 3))
        let directories = roster.directories
        for _ in 0..<5 {
            let listing = try await roster.list(in: company, search: "ana", after: nil, limit: 2, now: fixture.clock.now)
            guard case .stored(let page) = listing else {
                Issue.record("four clients were held, over the limit of three")
                return
            }
            #expect(page.items.map(\.client.id) == Array(ids.prefix(2)))
            await directories.finishBuilding()
        }
        #expect(directories.statistics.builds == 1)
        #expect(directories.statistics.heldBytes == 0)

        // A new list version is counted again, once; with one client fewer the list fits.
        #expect(try await fixture.store.clients.delete(ids[0], in: company, audit: .client(.deleted, ids[0], byOperatorOf: company, at: Date())))
        _ = try await roster.list(in: company, search: nil, after: nil, limit: 2, now: fixture.clock.now)
        await directories.finishBuilding()
        guard case .rendered(let items, _) = try await roster.list(in: company, search: nil, after: nil, limit: 5, now: fixture.clock.now) else {
            Issue.record("three clients were not held")
            return
        }
        #expect(items.count == 3)
        #expect(directories.statistics.builds == 2)
    }

    @Test func noMemoryForListsMeansSQLWithoutReadingTheRoster() async throws {
        let fixture = try Fixture()
        let company = try await fixture.company()
        try await fixture.client(in: company, given: "Ana", family: "Smith")
        let roster = fixture.roster(.init(bytes: 0))
        for _ in 0..<3 {
            guard case .stored(let page) = try await roster.list(in: company, search: nil, after: nil, limit: 5, now: fixture.clock.now) else {
                Issue.record("a list was held with no memory for lists")
                return
            }
            #expect(page.items.count == 1)
            await roster.directories.finishBuilding()
        }
        #expect(roster.directories.statistics.builds == 0)
    }

    @Test func busyCompaniesNeverPushEachOtherOut() async throws {
        let fixture = try Fixture()
        let first = try await fixture.company()
        let second = try await fixture.company()
        for index in 0..<40 {
            try await fixture.client(in: first, given: "First", family: "Person \(index)", email: "first\(index)@example.com")
            try await fixture.client(in: second, given: "Second", family: "Person \(index)", email: "second\(index)@example.com")
        }
        // Room for either list, not both (their sizes measured by a cache without a budget).
        let measuring = fixture.roster()
        for company in [first, second] {
            _ = try await measuring.list(in: company, search: nil, after: nil, limit: 1, now: fixture.clock.now)
            await measuring.directories.finishBuilding()
        }
        let both = measuring.directories.statistics.heldBytes
        let roster = fixture.roster(.init(bytes: both * 3 / 4, idleBeforeEviction: 60, retryAfterNoRoom: 60))
        let directories = roster.directories
        func list(_ company: UUID) async throws -> ClientRoster.Listing {
            let listing = try await roster.list(in: company, search: nil, after: nil, limit: 1, now: fixture.clock.now)
            await directories.finishBuilding()
            return listing
        }

        _ = try await list(first)
        #expect(directories.isHeld(first))
        for _ in 0..<10 {
            fixture.clock.advance(by: 1)
            guard case .rendered = try await list(first) else {
                Issue.record("the first company's list was pushed out while in use")
                return
            }
            guard case .stored = try await list(second) else {
                Issue.record("the second company's list found room it does not have")
                return
            }
        }
        // One build each: the second list, finding no room, was not built again on every request.
        #expect(directories.statistics.builds == 2)
        #expect(directories.isHeld(first) && !directories.isHeld(second))

        // Once the first list has been unused for a minute, the second takes its place.
        fixture.clock.advance(by: 61)
        _ = try await list(second)
        #expect(directories.isHeld(second) && !directories.isHeld(first))
        guard case .rendered = try await list(second) else {
            Issue.record("the second company's list is not served from memory")
            return
        }
        #expect(directories.statistics.builds == 3)
    }
}
