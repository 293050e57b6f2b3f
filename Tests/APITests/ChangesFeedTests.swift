import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import NIOCore
import Services
import TestSupport
import Testing

@testable import API

/// `GET /v1/changes`: every change of a company, in commit order, each with its record as its own `GET` answers it
/// or a tombstone; cursors that never skip, a `410` for a history the server no longer holds, long polls.
@Suite struct ChangesFeedTests {
    struct Change: Equatable, CustomStringConvertible {
        var kind: String
        var id: String
        var removed: Bool
        var description: String { "\(kind) \(id.prefix(8))\(removed ? " removed" : "")" }
    }

    /// Every page after `cursor` (`limit` a page), and the cursor after the last.
    static func follow(
        _ client: some TestClientProtocol,
        token: String,
        from cursor: String? = nil,
        limit: Int = 100
    ) async throws -> (items: [[String: Any]], cursor: String) {
        var items: [[String: Any]] = []
        var cursor = cursor
        for _ in 0..<1_000 {
            let query = "limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? "")
            let page = try await client.send(.get, "/v1/changes?\(query)", token: token)
            #expect(page.status == .ok, "\(page.text)")
            items += page.object["items"] as? [[String: Any]] ?? []
            cursor = try #require(page.object["cursor"] as? String)
            if page.object["hasMore"] as? Bool != true { break }
        }
        return (items, try #require(cursor))
    }

    static func changes(_ items: [[String: Any]]) -> [Change] {
        items.map {
            Change(kind: $0["kind"] as? String ?? "?", id: ($0["id"] as? String ?? "?").lowercased(), removed: $0["removed"] as? Bool ?? false)
        }
    }

    /// The item's record as JSON text with sorted keys, to compare with a `GET` of the same record.
    static func canonical(_ value: Any?) throws -> String {
        guard let value, !(value is NSNull) else { return "null" }
        return String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Holds `GET /v1/changes?cursor=…&wait=30` on a connection of its own (requests on one connection are served
    /// in turn) while `change` runs, possibly through another node; returns the changes it was answered with.
    static func waiting<T>(
        port: Int,
        token: String,
        after cursor: String,
        while change: () async throws -> T
    ) async throws -> (changes: [Change], result: T) {
        let connection = TestClient(host: "localhost", port: port)
        connection.connect()
        async let waited = connection.execute(
            TestClient.Request(
                "/v1/changes?cursor=\(cursor)&wait=30",
                method: .get,
                authority: "localhost",
                headers: [.authorization: "Bearer \(token)"]
            )
        )
        let result = try await change()
        let response = try await waited
        try await connection.shutdown()
        #expect(response.head.status == .ok)
        let page = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body ?? ByteBuffer()).utf8)) as? [String: Any]
        return (changes(page?["items"] as? [[String: Any]] ?? []), result)
    }

    @Test func everyKindOfChangeAppearsOnceAtItsLatestPlaceWithItsRecordAsGetAnswersIt() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let empty = try await client.send(.get, "/v1/changes", token: admin)
            #expect(empty.status == .ok)
            #expect((empty.object["items"] as? [Any])?.isEmpty == true)
            #expect(empty.object["hasMore"] as? Bool == false)

            let id = try await client.screenedClient(token: admin)
            let recorded = try await client.send(.post, "/v1/clients/\(id)/results", token: admin, json: ResultsTests.heartRate(58))
            let result = try #require(recorded.object["id"] as? String)
            let uploaded = try await client.sendBytes(
                .post,
                "/v1/results/\(result)/media",
                token: admin,
                contentType: "image/jpeg",
                bytes: MediaTests.photo
            )
            #expect(uploaded.status == .created, "\(uploaded.text)")
            let media = try #require(uploaded.object["id"] as? String)
            let newTrainer = try await client.send(
                .post,
                "/v1/trainers",
                token: admin,
                json: #"{"email": "kim@example.com", "name": "Kim", "role": "trainer", "password": "a long password 1"}"#
            )
            let trainer = try #require(newTrainer.object["id"] as? String)
            #expect(try await client.send(.put, "/v1/theme", token: admin, json: #"{"themeId": "harbour-fitness"}"#).status == .ok)
            let second = try await client.send(.post, "/v1/clients/\(id)/results", token: admin, json: ResultsTests.heartRate(61))
            let deleted = try #require(second.object["id"] as? String)
            #expect(try await client.send(.delete, "/v1/results/\(deleted)", token: admin).status == .noContent)
            // The client changes last: it appears once, after everything else, with its latest state.
            #expect(try await client.send(.patch, "/v1/clients/\(id)", token: admin, json: #"{"goal": "run 10 km"}"#).status == .ok)

            let whole = try await Self.follow(client, token: admin)
            let screening = try #require(whole.items.first { $0["kind"] as? String == "screening" }?["id"] as? String)
            let expected = [
                Change(kind: "screening", id: screening.lowercased(), removed: false),
                Change(kind: "result", id: result.lowercased(), removed: false),
                Change(kind: "media", id: media.lowercased(), removed: false),
                Change(kind: "trainer", id: trainer.lowercased(), removed: false),
                Change(kind: "theme", id: company.id.lowercaseHyphenated, removed: false),
                Change(kind: "result", id: deleted.lowercased(), removed: true),
                Change(kind: "client", id: id.lowercased(), removed: false),
            ]
            #expect(Self.changes(whole.items) == expected)

            // Each record is what its own GET answers.
            let gets: [String: String] = [
                "client": "/v1/clients/\(id)", "screening": "/v1/clients/\(id)/screenings/\(screening)", "result": "/v1/results/\(result)",
                "trainer": "/v1/trainers/\(trainer)", "theme": "/v1/theme",
            ]
            for item in whole.items where item["removed"] as? Bool == false {
                let kind = try #require(item["kind"] as? String)
                if kind == "media" {
                    let list = try await client.send(.get, "/v1/results/\(result)/media", token: admin).object["items"] as? [Any]
                    #expect(try Self.canonical(item["record"]) == Self.canonical(list?.first))
                    continue
                }
                let answer = try await client.send(.get, try #require(gets[kind]), token: admin)
                #expect(try Self.canonical(item["record"]) == Self.canonical(answer.object), "\(kind)")
            }
            #expect(whole.items.last?["record"].flatMap { ($0 as? [String: Any])?["goal"] as? String } == "run 10 km")
            #expect(whole.items.first { $0["removed"] as? Bool == true }?["record"] is NSNull)

            // Pages of one show a record again for each change on a later page; kept at its latest place, as one
            // page keeps it, they are the same changes. The last cursor finds nothing new.
            let onePerPage = Self.changes(try await Self.follow(client, token: admin, limit: 1).items)
            #expect(onePerPage.count > expected.count)
            let latest = onePerPage.enumerated().filter { index, change in
                !onePerPage[(index + 1)...].contains { $0.kind == change.kind && $0.id == change.id }
            }
            #expect(latest.map(\.element) == expected)
            let after = try await client.send(.get, "/v1/changes?cursor=\(whole.cursor)", token: admin)
            #expect((after.object["items"] as? [Any])?.isEmpty == true)
            #expect(after.object["cursor"] as? String == whole.cursor)
        }
    }

    @Test func aPageShowsTheRecordsAsTheyAreNowAndAnEmailedReportsDeliveryToTheEnd() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let token = try await client.token(for: try await fixture.trainer(in: company))
            let id = try await client.screenedClient(token: token)
            let start = try await client.send(.get, "/v1/changes?limit=1", token: token)
            let first = try #require((start.object["items"] as? [[String: Any]])?.first)
            #expect(first["kind"] as? String == "client")
            #expect(start.object["hasMore"] as? Bool == true)

            // The same page again, after the client changed: their record as it is now.
            #expect(try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"goal": "swim"}"#).status == .ok)
            let again = try await client.send(.get, "/v1/changes?limit=1", token: token)
            let record = (again.object["items"] as? [[String: Any]])?.first?["record"] as? [String: Any]
            #expect(record?["goal"] as? String == "swim")

            // An email's delivery: queued when asked for, then sent by the outbox (the server's own line).
            let end = try await Self.follow(client, token: token).cursor
            let emailed = try await client.send(.post, "/v1/clients/\(id)/report/email", token: token, json: #"{"to": ["coach@example.com"]}"#)
            #expect(emailed.status == .accepted, "\(emailed.text)")
            let delivery = try #require(emailed.object["id"] as? String)
            var cursor = end
            var statuses: [String] = []
            for _ in 0..<60 where statuses.last != "sent" {
                let page = try await client.send(.get, "/v1/changes?cursor=\(cursor)&wait=30", token: token)
                #expect(page.status == .ok, "\(page.text)")
                for item in page.object["items"] as? [[String: Any]] ?? [] where item["kind"] as? String == "delivery" {
                    #expect((item["id"] as? String)?.lowercased() == delivery.lowercased())
                    statuses.append((item["record"] as? [String: Any])?["status"] as? String ?? "?")
                }
                cursor = try #require(page.object["cursor"] as? String)
            }
            #expect(statuses.last == "sent", "\(statuses)")
        }
    }

    @Test func whatATrainerMayNotReadIsLeftOutAndNoCompanySeesAnothers() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await client.token(for: try await fixture.trainer(in: company, role: .admin))
            let me = try await fixture.trainer(in: company, name: "Me")
            let token = try await client.token(for: me)
            let other = try await fixture.trainer(in: company, name: "Other")
            #expect(try await client.send(.patch, "/v1/trainers/\(other.trainer.id)", token: admin, json: #"{"name": "Other Name"}"#).status == .ok)
            #expect(try await client.send(.patch, "/v1/trainers/\(me.trainer.id)", token: admin, json: #"{"name": "Me Too"}"#).status == .ok)
            let id = try await client.createClient(given: "Lina", family: "Marsh", token: admin)

            let mine = Self.changes(try await Self.follow(client, token: token).items)
            #expect(
                mine == [
                    Change(kind: "trainer", id: me.trainer.id.lowercaseHyphenated, removed: false),
                    Change(kind: "client", id: id.lowercased(), removed: false),
                ]
            )
            let admins = Self.changes(try await Self.follow(client, token: admin).items)
            #expect(admins.contains(Change(kind: "trainer", id: other.trainer.id.lowercaseHyphenated, removed: false)))

            let stranger = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            #expect(try await Self.follow(client, token: stranger).items.isEmpty)
            // A cursor of company A's trail is no place in company B's.
            let cursor = try await Self.follow(client, token: admin).cursor
            expectProblem(try await client.send(.get, "/v1/changes?cursor=\(cursor)", token: stranger), .gone, fields: ["cursor"])
        }
    }

    @Test func anErasedClientLeavesOneTombstoneAndNothingThatNamesThem() async throws {
        try await withAPI { fixture, client in
            let admin = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let id = try await client.screenedClient(token: admin)
            let recorded = try await client.send(.post, "/v1/clients/\(id)/results", token: admin, json: ResultsTests.heartRate(58))
            let result = try #require(recorded.object["id"] as? String)
            let before = try await Self.follow(client, token: admin)
            #expect(Self.changes(before.items).contains(Change(kind: "result", id: result.lowercased(), removed: false)))
            let erased = try await client.send(.delete, "/v1/clients/\(id)?erase=true", token: admin)
            #expect(erased.status == .noContent, "\(erased.text)")

            // From the beginning: the client's tombstone only. From the cursor held before: the same.
            #expect(Self.changes(try await Self.follow(client, token: admin).items) == [Change(kind: "client", id: id.lowercased(), removed: true)])
            #expect(
                Self.changes(try await Self.follow(client, token: admin, from: before.cursor).items) == [
                    Change(kind: "client", id: id.lowercased(), removed: true)
                ]
            )
        }
    }

    @Test func cursorsThisServerDidNotGiveOrNoLongerHoldsAreRefused() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            _ = try await client.createClient(given: "Lina", family: "Marsh", token: token)
            let cursor = try await Self.follow(client, token: token).cursor
            let held = try #require(ChangesCursor(token: cursor))
            // The same place with another history (a database put back from a backup, then written to).
            var bytes = try #require(Base64URL.decode(cursor))
            bytes[bytes.count - 1] ^= 0xFF
            let otherHistory = Base64URL.encode(bytes)
            #expect(ChangesCursor(token: otherHistory)?.sequence == held.sequence)
            let gone = try await client.send(.get, "/v1/changes?cursor=\(otherHistory)", token: token)
            expectProblem(gone, .gone, fields: ["cursor"])
            #expect((gone.object["detail"] as? String)?.contains("cursor=now") == true)
            // A place past the trail's end.
            let beyond = ChangesCursor(after: held.sequence + 1_000, hash: Array(repeating: 7, count: 32)).token
            expectProblem(try await client.send(.get, "/v1/changes?cursor=\(beyond)", token: token), .gone, fields: ["cursor"])
            expectProblem(try await client.send(.get, "/v1/changes?cursor=bm9wZQ", token: token), .notFound, fields: ["cursor"])
            expectProblem(try await client.send(.get, "/v1/changes?limit=0&wait=31", token: token), .unprocessableContent, fields: ["limit", "wait"])
            expectProblem(
                try await client.send(.get, "/v1/changes?limit=501&wait=-1", token: token),
                .unprocessableContent,
                fields: ["limit", "wait"]
            )
            expectProblem(try await client.send(.get, "/v1/changes"), .unauthorized)
        }
    }

    @Test func nowIsTheEndAndAWaitingRequestIsAnsweredByTheNextChange() async throws {
        try await withAPI { fixture, client in
            let token = try await client.token(for: try await fixture.trainer(in: try await fixture.company()))
            _ = try await client.createClient(given: "Lina", family: "Marsh", token: token)
            let now = try await client.send(.get, "/v1/changes?cursor=now", token: token)
            #expect((now.object["items"] as? [Any])?.isEmpty == true)
            let cursor = try #require(now.object["cursor"] as? String)
            #expect(cursor == (try await Self.follow(client, token: token).cursor))
            // Nothing new in a second's wait: an empty page at the same place.
            let quiet = try await client.send(.get, "/v1/changes?cursor=\(cursor)&wait=1", token: token)
            #expect((quiet.object["items"] as? [Any])?.isEmpty == true)
            #expect(quiet.object["cursor"] as? String == cursor)

            let (answered, id) = try await Self.waiting(port: try #require(client.port), token: token, after: cursor) {
                try await client.createClient(given: "Noor", family: "Haddad", token: token)
            }
            #expect(answered == [Change(kind: "client", id: id.lowercased(), removed: false)])
        }
    }
}
