import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Scoring
import Services
import Synchronization
import TestSupport
import Testing

/// Scripts that keep their worker busy in C, out of the instruction count's sight, sent through HTTP: the
/// answer is an error and the server goes on answering everyone else meanwhile.
@Suite(.storeIndependent) struct HostileScoringTests {
    /// Workers with a 500 ms time limit (killed at 750 ms): far from the noise of tests running in parallel, still
    /// quick. The server's are 100 ms (150 ms); `ScoringTests` run the same scripts with those.
    static let scorer = ExerciseScorer(
        workers: ScoringWorkers(executable: HealthwheelExecutable.url.path, limits: ScoringLimits(timeLimit: .milliseconds(500)))
    )

    /// `table.sort` over a table whose reads, writes and comparisons all happen in C.
    static let cSort =
        "local t = setmetatable({}, {__len = function() return 2^31 - 2 end, __index = rawlen, __newindex = rawequal}) table.sort(t)"

    static func pack(script: String, exampleTimes: [Double] = [48]) -> [String: Any] {
        var pack = ExercisesTests.pack(script: script, score: 5)
        var exercises = pack["exercises"] as! [[String: Any]]
        exercises[0]["examples"] = exampleTimes.map { time in
            ["client": ["sex": "female", "age": 40, "height": 1.7, "mass": 60], "values": ["time": time], "score": 5] as [String: Any]
        }
        pack["exercises"] = exercises
        return pack
    }

    @Test func hostileScoresEndInAnErrorWhileHealthKeepsAnswering() async throws {
        try await withAPI(scorer: Self.scorer) { fixture, client in
            let admin = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let script = "if value > 50 then \(Self.cSort) end return 5"
            let created = try await client.send(.post, "/v1/exercise-packs", token: admin, json: jsonString(Self.pack(script: script)))
            #expect(created.status == .created, "\(created.text)")

            // Each on a connection of its own: requests on one connection are served in turn.
            let port = try #require(client.port)
            let progress = Progress()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let (status, body) = try await Self.send(
                            .post,
                            "/v1/exercises/single-leg-stand/score",
                            port: port,
                            token: admin,
                            json: #"{"values": {"time": 99}, "client": {"sex": "female", "age": 40}}"#
                        )
                        progress.hostileAnswered.withLock { $0 = true }
                        #expect(status == .ok, "\(body)")
                        #expect(body.contains(#""scoreError":"the script ran past its time limit of 500 ms""#), "\(body)")
                    }
                }
                group.addTask {
                    for _ in 0..<20 {
                        let (status, _) = try await Self.send(.get, "/health", port: port)
                        #expect(status == .ok)
                        if !progress.hostileAnswered.withLock({ $0 }) { progress.healthBeforeAnyHostileAnswer.withLock { $0 += 1 } }
                    }
                }
                try await group.waitForAll()
            }
            #expect(progress.healthBeforeAnyHostileAnswer.withLock { $0 } > 0, "/health answered while the hostile scores ran")
            // The pool scores again.
            let plain = try await client.send(
                .post,
                "/v1/exercises/single-leg-stand/score",
                token: admin,
                json: #"{"values": {"time": 30}, "client": {"sex": "female", "age": 40}}"#
            )
            #expect(plain.object["score"] as? Double == 5, "\(plain.text)")
        }
    }

    /// What the concurrent requests of a test saw, in order.
    final class Progress: Sendable {
        let hostileAnswered = Mutex(false)
        let healthBeforeAnyHostileAnswer = Mutex(0)
    }

    /// One request on a connection of its own.
    static func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        port: Int,
        token: String? = nil,
        json: String? = nil
    ) async throws -> (HTTPResponse.Status, String) {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json != nil { headers[.contentType] = "application/json" }
        let connection = TestClient(host: "localhost", port: port)
        connection.connect()
        let request = TestClient.Request(path, method: method, authority: "localhost", headers: headers, body: json.map { ByteBuffer(string: $0) })
        let response = try await connection.execute(request)
        try await connection.shutdown()
        return (response.head.status, String(buffer: response.body ?? ByteBuffer()))
    }

    @Test func aPackWhoseExamplesTimeOutIsRefusedWith422AndChangesNothing() async throws {
        try await withAPI(scorer: Self.scorer) { fixture, client in
            let admin = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let before = try await client.send(.get, "/v1/categories", token: admin).text
            let script = "if value > 50 then \(Self.cSort) end return 5"
            let refused = try await client.send(
                .post,
                "/v1/exercise-packs",
                token: admin,
                json: jsonString(Self.pack(script: script, exampleTimes: [99, 98, 97, 96, 95]))
            )
            // The first example that runs out of time ends the checks: the pack's five do not take five times as long.
            expectProblem(refused, .unprocessableContent, fields: ["exercises[0].examples[0].score"])
            #expect(refused.problemMessages == ["expected 5.0, the script failed: the script ran past its time limit of 500 ms"])
            #expect(try await client.send(.get, "/v1/categories", token: admin).text == before)
            expectProblem(try await client.send(.get, "/v1/exercises/single-leg-stand", token: admin), .notFound)
        }
    }

    @Test func examplesThatTogetherRunPastThePackBudgetAreRefused() async throws {
        try await withAPI(scorer: Self.scorer) { fixture, client in
            let admin = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            // Each example finishes on its own (tens of milliseconds of comparisons in C, far from its 500 ms limit even
            // on a loaded machine), yet 1,000 of them would hold a worker for seconds: the pack's shared budget (1 s of
            // running time) ends the checks.
            let script = "if value > 50 then local s = string.rep('x', 200000) for i = 1, 1000 do local _ = s < s end end return 5"
            let refused = try await client.send(
                .post,
                "/v1/exercise-packs",
                token: admin,
                json: jsonString(Self.pack(script: script, exampleTimes: Array(repeating: 99, count: 1000)))
            )
            expectProblem(refused, .unprocessableContent)
            #expect(refused.problemMessages.last?.hasSuffix("ran past their shared time limit of 1000 ms") == true, "\(refused.text)")
            expectProblem(try await client.send(.get, "/v1/exercises/single-leg-stand", token: admin), .notFound)
        }
    }
}
