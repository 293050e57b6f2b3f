#if PostgreSQL
import Foundation
import HealthwheelCore
import HummingbirdTesting
import NIOCore
import Services
import Store
import StoreContract
import TestSupport
import Testing

/// Several nodes on one PostgreSQL database: what one node writes, every other node answers with on the very
/// next request, although each keeps its own caches.
@Suite(.enabled(if: TestBackend.current == .postgres, "nodes share a PostgreSQL database"))
struct ClusterTests {
    @Test func aResultPostedThroughOneNodeIsOnTheOtherNodesWheelAtOnceEveryTime() async throws {
        try await withTwoNodes { first, nodeA, nodeB in
            let company = try await first.company()
            let token = try await nodeA.token(for: try await first.trainer(in: company))
            let id = try await nodeA.screenedClient(token: token)
            // Node B's caches are warm before the first write.
            #expect(try await nodeB.send(.get, "/v1/clients/\(id)/wheel", token: token).status == .ok)
            var stale = 0
            let rounds = 1_000
            for round in 0..<rounds {
                first.clock.advance(by: 1)
                // A low and a high resting heart rate score far apart.
                let posted = try await nodeA.send(
                    .post,
                    "/v1/clients/\(id)/results",
                    token: token,
                    json: ResultsTests.heartRate(round.isMultiple(of: 2) ? 48 : 96)
                )
                #expect(posted.status == .created)
                let score = try #require(posted.object["score"] as? Double)
                let wheel = try await nodeB.send(.get, "/v1/clients/\(id)/wheel", token: token)
                let slices = try #require(wheel.object["slices"] as? [[String: Any]])
                let cardiovascular = slices.first { $0["categoryId"] as? String == "cardiovascular" }?["score"] as? Double
                if cardiovascular != score {
                    if stale == 0 { print("cluster: round \(round): posted \(posted.text) wheel \(wheel.text)") }
                    stale += 1
                }
            }
            print("cluster: \(rounds) results posted through node A, each wheel read at once through node B: \(stale) stale")
            #expect(stale == 0)
        }
    }

    @Test func aPackStoredThroughOneNodeScoresThroughTheOtherAtOnce() async throws {
        try await withTwoNodes { first, nodeA, nodeB in
            let company = try await first.company()
            let admin = try await nodeA.token(for: try await first.trainer(in: company, role: .admin))
            let id = try await nodeA.screenedClient(token: admin)
            let stand = #"{"exerciseId": "single-leg-stand", "values": {"time": 30}}"#
            // Node B knows no such exercise yet, and has said so (its catalog is loaded and current).
            expectProblem(try await nodeB.send(.post, "/v1/clients/\(id)/results", token: admin, json: stand), .notFound)
            let pack = jsonString(ExercisesTests.pack(version: 1, script: "return math.min(10, value / 6)", score: 8))
            #expect(try await nodeA.send(.post, "/v1/exercise-packs", token: admin, json: pack).status == .created)
            let recorded = try await nodeB.send(.post, "/v1/clients/\(id)/results", token: admin, json: stand)
            #expect(recorded.status == .created, "body: \(recorded.text)")
            #expect(recorded.object["score"] as? Double == 5)
        }
    }

    @Test func failedLoginsThroughOneNodeCountOnTheOther() async throws {
        let limits = LoginRateLimiter.Policy(window: 600, failuresPerEmail: 3, failuresPerAddress: 100)
        try await withTwoNodes(limits: limits) { first, nodeA, nodeB in
            let account = try await first.trainer(in: try await first.company())
            for _ in 0..<2 { expectProblem(try await nodeA.login(account.email, "wrong password!!"), .unauthorized) }
            expectProblem(try await nodeB.login(account.email, "wrong password!!"), .unauthorized)
            let limited = try await nodeA.login(account.email, account.password)
            expectProblem(limited, .tooManyRequests)
            expectProblem(try await nodeB.login(account.email, account.password), .tooManyRequests)
        }
    }

    /// The wheel speaks the company theme's language, whose version comes with the session: a theme stored through
    /// one node changes the other's next wheel although that node had resolved the old theme.
    @Test func aThemeStoredThroughOneNodeSpeaksThroughTheOthersWheelAtOnce() async throws {
        try await withTwoNodes { first, nodeA, nodeB in
            let admin = try await nodeA.token(for: try await first.trainer(in: try await first.company(), role: .admin))
            let id = try await nodeA.screenedClient(token: admin)
            #expect(try await nodeB.send(.get, "/v1/clients/\(id)/wheel", token: admin).headers[.contentLanguage] == "en")
            #expect(try await nodeA.send(.put, "/v1/theme", token: admin, json: ThemeAPITests.ownTheme).status == .ok)
            #expect(try await nodeB.send(.get, "/v1/clients/\(id)/wheel", token: admin).headers[.contentLanguage] == "es")
        }
    }

    /// A client read, a search and a result's subject come from caches each node keeps, checked against the
    /// list version that comes with the session's read: a change through node A shows through node B's very next
    /// request, every time; and a session ended through A is refused by B at once.
    @Test func aClientChangedThroughOneNodeReadsChangedThroughTheOtherAtOnce() async throws {
        try await withTwoNodes { first, nodeA, nodeB in
            let trainer = try await first.trainer(in: try await first.company())
            let token = try await nodeA.token(for: trainer)
            let id = try await nodeA.screenedClient(token: token)
            // Node B's caches are warm before the first change.
            #expect(try await nodeB.send(.get, "/v1/clients/\(id)", token: token).status == .ok)
            #expect(try await nodeB.send(.get, "/v1/clients?q=ada", token: token).status == .ok)
            var stale = 0
            let rounds = 100
            for round in 0..<rounds {
                let name = "Round\(round)x"
                let changed = try await nodeA.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"givenName": "\#(name)"}"#)
                #expect(changed.status == .ok)
                let read = try await nodeB.send(.get, "/v1/clients/\(id)", token: token)
                let found = try await nodeB.send(.get, "/v1/clients?q=\(name.lowercased())", token: token)
                let items = found.object["items"] as? [[String: Any]] ?? []
                if read.object["givenName"] as? String != name || items.count != 1 { stale += 1 }
            }
            print("cluster: \(rounds) client changes through node A, each read and searched at once through node B: \(stale) stale")
            #expect(stale == 0)
            #expect(try await nodeA.send(.post, "/v1/auth/logout", token: token).status == .noContent)
            #expect(try await nodeB.send(.get, "/v1/clients/\(id)", token: token).status == .unauthorized)
            #expect(try await nodeB.send(.get, "/v1/clients/\(id)/wheel", token: token).status == .unauthorized)
        }
    }
    /// Every kind of record a node keeps a cache of, changed through node A, answered as changed by node B's very
    /// next request although B had just read (and cached) it: the company's settings (a wheel's flags), a trainer's
    /// role (the session's principal), a client's screening (the roster's status), the exercise catalog (a new
    /// pack's exercise), the theme (the wheel's language), a result (the wheel), and a deleted client (gone from
    /// a read and the list).
    @Test func everyKindOfCachedRecordChangedThroughOneNodeShowsThroughTheOtherAtOnce() async throws {
        try await withTwoNodes { first, nodeA, nodeB in
            let company = try await first.company()
            let admin = try await nodeA.token(for: try await first.trainer(in: company, role: .admin))
            let trainer = try await first.trainer(in: company)
            let trainerToken = try await nodeA.token(for: trainer)
            let id = try await nodeA.screenedClient(token: admin)
            #expect(try await nodeA.send(.post, "/v1/clients/\(id)/results", token: admin, json: ResultsTests.heartRate(48)).status == .created)

            // The company's threshold: node B's wheel flags the low category once it is raised through A.
            func flagged(_ node: any TestClientProtocol) async throws -> Bool? {
                let wheel = try await node.send(.get, "/v1/clients/\(id)/wheel", token: admin)
                let slices = try #require(wheel.object["slices"] as? [[String: Any]])
                return slices.first { $0["categoryId"] as? String == "cardiovascular" }?["flagged"] as? Bool
            }
            #expect(try await flagged(nodeB) == false)
            #expect(try await nodeA.send(.patch, "/v1/company", token: admin, json: #"{"wheelFlagBelow": 10}"#).status == .ok)
            #expect(try await flagged(nodeB) == true)

            // A trainer's role: promoted through A, an admin at once through B.
            func role(_ node: any TestClientProtocol) async throws -> String? {
                (try await node.send(.get, "/v1/me", token: trainerToken).object["trainer"] as? [String: Any])?["role"] as? String
            }
            #expect(try await role(nodeB) == "trainer")
            let promoted = try await nodeA.send(
                .patch,
                "/v1/trainers/\(trainer.trainer.id.uuidString.lowercased())",
                token: admin,
                json: #"{"role": "admin"}"#
            )
            #expect(promoted.status == .ok, "body: \(promoted.text)")
            #expect(try await role(nodeB) == "admin")

            // A screening completed through A: node B's roster says so.
            let unscreened = try await nodeA.createClient(ClientsAPI.ada.replacingOccurrences(of: "Ada", with: "Grace"), token: admin)
            func status(_ node: any TestClientProtocol) async throws -> String? {
                let list = try await node.send(.get, "/v1/clients?q=grace", token: admin)
                return (list.object["items"] as? [[String: Any]])?.first?["screeningStatus"] as? String
            }
            #expect(try await status(nodeB) == "none")
            _ = try await nodeA.completeScreening(client: unscreened, token: admin)
            #expect(try await status(nodeB) == "completed")

            // A client deleted through A: gone from node B's read and list.
            #expect(try await nodeB.send(.get, "/v1/clients/\(unscreened)", token: admin).status == .ok)
            #expect(try await nodeA.send(.delete, "/v1/clients/\(unscreened)", token: admin).status == .noContent)
            expectProblem(try await nodeB.send(.get, "/v1/clients/\(unscreened)", token: admin), .notFound)
            #expect(try await status(nodeB) == nil)
        }
    }
    /// Clients created at once through both nodes, on a connection each, while a reader follows the changes feed
    /// through node B three changes a page, again and again: it misses no change that committed after a page it
    /// read (the trail's order is its commit order on every node), so at the end it has seen every client, each
    /// once. A request waiting on node B hears a change made through node A.
    @Test func aReaderOfTheChangesFeedMissesNothingWrittenAtOnceThroughTwoNodes() async throws {
        try await withTwoNodes { first, nodeA, nodeB in
            let company = try await first.company()
            let token = try await nodeA.token(for: try await first.trainer(in: company, role: .admin))
            let start = try #require(try await nodeB.send(.get, "/v1/changes?cursor=now", token: token).object["cursor"] as? String)
            let ports = [try #require(nodeA.port), try #require(nodeB.port)]
            let done = ManagedFlag()
            async let followed: [ChangesFeedTests.Change] = {
                var seen: [ChangesFeedTests.Change] = []
                var cursor = start
                while true {
                    let finished = done.isSet
                    let page = try await nodeB.send(.get, "/v1/changes?limit=3&cursor=\(cursor)", token: token)
                    let items = page.object["items"] as? [[String: Any]] ?? []
                    seen += ChangesFeedTests.changes(items)
                    cursor = try #require(page.object["cursor"] as? String)
                    if items.isEmpty && finished { return seen }
                }
            }()
            let written = try await withThrowingTaskGroup(of: [String].self) { group in
                for index in 0..<24 {
                    group.addTask {
                        let node = TestClient(host: "localhost", port: ports[index % 2])
                        node.connect()
                        defer { Task { try? await node.shutdown() } }
                        func send(_ path: String, _ json: String) async throws -> String {
                            let response = try await node.execute(
                                TestClient.Request(
                                    path,
                                    method: .post,
                                    authority: "localhost",
                                    headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                                    body: ByteBuffer(string: json)
                                )
                            )
                            let body =
                                try JSONSerialization.jsonObject(with: Data(String(buffer: response.body ?? ByteBuffer()).utf8)) as? [String: Any]
                            return try #require(body?["id"] as? String, "\(response.head.status)")
                        }
                        let client = try await send("/v1/clients", #"{"givenName": "Node\#(index)", "familyName": "Writer"}"#)
                        return [client]
                    }
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            done.set()
            let seen = try await followed
            let clients = Set(seen.filter { $0.kind == "client" }.map(\.id))
            #expect(clients == Set(written.map { $0.lowercased() }), "every client written through either node was seen")
            #expect(seen.count == written.count, "each once: no page repeated a change")

            // A request waiting on node B is answered by a change through node A.
            let end = try #require(try await nodeB.send(.get, "/v1/changes?cursor=now", token: token).object["cursor"] as? String)
            let (answered, id) = try await ChangesFeedTests.waiting(port: ports[1], token: token, after: end) {
                try await nodeA.createClient(given: "Last", family: "Writer", token: token)
            }
            #expect(answered == [.init(kind: "client", id: id.lowercased(), removed: false)])
        }
    }

    /// Node A and node B, two servers (each with its own caches, connections and folder) on one fresh PostgreSQL
    /// database, reading one clock. Node A's connection waits while node B starts (its pack import can take a
    /// minute on a loaded machine).
    private func withTwoNodes(
        limits: LoginRateLimiter.Policy = .init(),
        _ body: @Sendable @escaping (Fixture, any TestClientProtocol, any TestClientProtocol) async throws -> Void
    ) async throws {
        let first = try Fixture()
        let second = try Fixture(secondNodeOf: first)
        try await withAPI(limits: limits, fixture: first, idleTimeout: .seconds(600), headDeadline: .seconds(600)) { first, nodeA in
            try await withAPI(limits: limits, fixture: second, idleTimeout: .seconds(600), headDeadline: .seconds(600)) { _, nodeB in
                try await body(first, nodeA, nodeB)
            }
        }
    }
}
#endif
