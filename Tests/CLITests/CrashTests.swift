import Foundation
import Store
import StoreContract
import Synchronization
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The real server, killed with SIGKILL at random moments while trainers' apps post results to it.
///
/// Each cycle starts `healthwheel serve` on the same data folder, retries the keyed POSTs the previous kill cut off
/// (same key, same body), loads it with 8–16 concurrent result POSTs (half of them with an `Idempotency-Key`) and
/// kills it 100–600 ms into the load. Every result is told apart by its `observations`, a marker unique per
/// attempt. After the last cycle the results are listed over HTTP, the server is killed once more, and the file is
/// opened with Store while no server runs.
///
/// The kill moments and worker counts come from a seeded generator: a failure names its seed, and
/// `HEALTHWHEEL_CRASH_SEED=<seed> swift test --filter Crash` replays them (the server's own timing still varies).
@Suite struct CrashTests {
    static let cycles = 20
    static let workers = 8...16
    static let killAfterMilliseconds = 100...600
    /// Bounds each worker's loop, whatever the kill moment.
    static let maxAttemptsPerWorker = 300
    static let password = "crash test password 1"

    @Test func acknowledgedResultsSurviveSIGKILLAndCutOffKeyedPostsAreStoredOnceOnRetry() async throws {
        let seed = ProcessInfo.processInfo.environment["HEALTHWHEEL_CRASH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: .min ... .max)
        var random = SplitMix64(seed: seed)
        let folder = TemporaryDirectory()
        let data = folder.dataDirectory
        let email = try Self.createTrainer(in: data)

        var server = try await CrashServer.start(data)
        let token = try await server.login(email: email, password: Self.password)
        let client = try await server.screenedClient(token: token)

        var log = CrashLog(seed: seed)
        var cutOffKeyed: [Attempt] = []
        for cycle in 1...Self.cycles {
            if cycle > 1 { server = try await CrashServer.start(data) }
            log.retries += await server.retry(cutOffKeyed, token: token, client: client)
            let workers = Int.random(in: Self.workers, using: &random)
            let killAfter = Int.random(in: Self.killAfterMilliseconds, using: &random)
            let load = await server.load(cycle: cycle, workers: workers, killAfter: .milliseconds(killAfter), token: token, client: client)
            log.cycles.append(CycleLog(cycle: cycle, workers: workers, killAfter: killAfter, outcomes: load.outcomes, exitStatus: load.exitStatus))
            cutOffKeyed = load.outcomes.filter { $0.answer == nil && $0.attempt.key != nil }.map(\.attempt)
        }

        // One more start: retry what the last kill cut off, list everything, then the final kill.
        server = try await CrashServer.start(data)
        log.retries += await server.retry(cutOffKeyed, token: token, client: client)
        let listed = try await server.results(of: client, token: token)
        let finalExit = server.killNow()
        #expect(finalExit == SIGKILL, "\(log)")

        // The file itself, opened with Store while no server runs.
        let connection = try data.openConnection(environment: keyFileEnvironment)
        let integrity: String = try connection.scalar("PRAGMA integrity_check")
        var stored: [UUID: String] = [:]
        for row in try await connection.query("SELECT id, observations FROM results") {
            stored[try row["id"] as UUID] = try (row["observations"] as String?) ?? ""
        }
        let copies = Dictionary(stored.values.map { ($0, 1) }, uniquingKeysWith: +)

        #expect(integrity == "ok", "\(log)")
        #expect(log.totalAcknowledged >= Self.cycles, "too few 201s to prove anything: \(log)")
        #expect(log.cycles.reduce(0) { $0 + $1.cutOffKeyed } > 0, "no keyed POST was ever cut off by a kill: \(log)")
        #expect(log.cycles.allSatisfy { $0.exitStatus == SIGKILL }, "a server had stopped before its SIGKILL: \(log)")

        let unexpectedLoadAnswers = log.cycles.flatMap(\.outcomes).compactMap { outcome in
            outcome.answer.flatMap { $0.status == 201 ? nil : "\(outcome.attempt.marker): \($0)" }
        }
        #expect(unexpectedLoadAnswers.isEmpty, "answers other than 201 under load: \(unexpectedLoadAnswers.prefix(20)) \(log)")

        // A claim the killed process left behind must not hold the key: the retry is served (201) or replayed.
        let refusedRetries = log.retries.filter { ![200, 201].contains($0.answer?.status) }.map { retry in
            "\(retry.attempt.key ?? ""): \(retry.answer?.description ?? "no answer")"
        }
        #expect(refusedRetries.isEmpty, "\(refusedRetries.count) keyed retries were not answered 200/201: \(refusedRetries.prefix(20)) \(log)")

        // Every result answered 201 (under load, or to a retry, replayed or not) is there, over HTTP and in the file.
        let acknowledged = (log.cycles.flatMap(\.outcomes) + log.retries).compactMap { outcome -> (UUID, String)? in
            guard let answer = outcome.answer, [200, 201].contains(answer.status), let id = answer.resultId else { return nil }
            return (id, outcome.attempt.marker)
        }
        let missingOverHTTP = acknowledged.filter { listed[$0.0] != $0.1 }.map(\.1)
        #expect(missingOverHTTP.isEmpty, "\(missingOverHTTP.count) acknowledged results not listed: \(missingOverHTTP.prefix(20)) \(log)")
        let missingInFile = acknowledged.filter { stored[$0.0] != $0.1 }.map(\.1)
        #expect(missingInFile.isEmpty, "\(missingInFile.count) acknowledged results not in the file: \(missingInFile.prefix(20)) \(log)")
        #expect(listed.count == stored.count, "listed \(listed.count), stored \(stored.count): \(log)")

        // A cut-off keyed POST, retried with its key, is stored exactly once; no attempt is ever stored twice.
        let notOnce = log.retries.map(\.attempt.marker).filter { copies[$0] != 1 }.map { "\($0) ×\(copies[$0] ?? 0)" }
        #expect(notOnce.isEmpty, "\(notOnce.count) retried keys not stored exactly once: \(notOnce.prefix(20)) \(log)")
        let duplicated = copies.filter { $0.value > 1 }.map(\.key).sorted()
        #expect(duplicated.isEmpty, "stored more than once: \(duplicated.prefix(20)) \(log)")
    }

    /// A company and a trainer made with the CLI, before any server runs; returns the trainer's email.
    static func createTrainer(in data: DataDirectory) throws -> String {
        let company = try Command.run(["company", "create", "--data-dir", data.url.path, "--name", "Crash Gym"])
        try #require(company.status == 0, "\(company.errors)")
        let email = "coach@crash.example"
        let trainer = try Command.run(
            [
                "trainer", "create", "--data-dir", data.url.path, "--company", company.output.trimmingCharacters(in: .whitespacesAndNewlines),
                "--email", email, "--name", "Coach", "--role", "trainer",
            ],
            environment: ["HEALTHWHEEL_PASSWORD": password]
        )
        try #require(trainer.status == 0, "\(trainer.errors)")
        return email
    }
}

/// One attempted result POST: its marker (sent as `observations`), its key if it has one, and its exact body, so a
/// retry sends the same bytes.
struct Attempt: Sendable {
    let marker: String
    let key: String?
    let body: Data

    init(cycle: Int, worker: Int, number: Int) {
        marker = "crash-c\(cycle)-w\(worker)-n\(number)"
        key = (worker + number).isMultiple(of: 2) ? "key-\(marker)" : nil
        let heartRate = 50 + (worker * 7 + number) % 40
        body = Data(#"{"exerciseId": "resting-heart-rate", "values": {"heartRate": \#(heartRate)}, "observations": "\#(marker)"}"#.utf8)
    }
}

/// What the server answered to a POST.
struct Answer: Sendable, CustomStringConvertible {
    var status: Int
    var resultId: UUID?
    var replayed: Bool
    var problemType: String?

    var description: String {
        "\(status)" + (problemType.map { " \($0)" } ?? "") + (replayed ? " (replayed)" : "")
    }
}

/// An attempt and its answer; `nil` when the connection ended without one (the kill cut it off).
struct Outcome: Sendable {
    var attempt: Attempt
    var answer: Answer?
}

struct CycleLog: CustomStringConvertible {
    var cycle: Int
    var workers: Int
    var killAfter: Int
    var outcomes: [Outcome]
    var exitStatus: Int32

    var acknowledged: Int { outcomes.count(where: { $0.answer?.status == 201 }) }
    var acknowledgedKeyed: Int { outcomes.count(where: { $0.answer?.status == 201 && $0.attempt.key != nil }) }
    var cutOff: Int { outcomes.count(where: { $0.answer == nil }) }
    var cutOffKeyed: Int { outcomes.count(where: { $0.answer == nil && $0.attempt.key != nil }) }

    var description: String {
        "cycle \(cycle): \(workers) workers, SIGKILL at \(killAfter) ms (exit \(exitStatus)): \(acknowledged) answered 201 "
            + "(\(acknowledgedKeyed) keyed), \(cutOff) cut off (\(cutOffKeyed) keyed)"
    }
}

/// What happened, for failure messages: the seed, each cycle's counts and the retries' answers.
struct CrashLog: CustomStringConvertible {
    var seed: UInt64
    var cycles: [CycleLog] = []
    var retries: [Outcome] = []

    var totalAcknowledged: Int { cycles.reduce(0) { $0 + $1.acknowledged } }

    var description: String {
        let answers = Dictionary(grouping: retries) { $0.answer?.description ?? "no answer" }.map { "\($0.key) ×\($0.value.count)" }.sorted()
        return "\n[seed \(seed): rerun with HEALTHWHEEL_CRASH_SEED=\(seed)] \(totalAcknowledged) answered 201 in \(cycles.count) cycles; "
            + "\(retries.count) keyed retries answered \(answers)\n" + cycles.map(\.description).joined(separator: "\n")
    }
}

/// `healthwheel serve` on the test's data folder and a free port, with its own URL session, so no pooled
/// connection outlives the process it went to. Killed with SIGKILL by the test, or when released.
final class CrashServer: Sendable {
    let process: RunningProcess
    let base: String
    let session: URLSession

    private init(process: RunningProcess, port: String) {
        self.process = process
        self.base = "http://127.0.0.1:\(port)"
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        configuration.timeoutIntervalForResource = 20
        configuration.httpMaximumConnectionsPerHost = 32
        self.session = URLSession(configuration: configuration)
    }

    deinit {
        if process.isRunning { _ = killNow() }
        session.invalidateAndCancel()
    }

    /// Starts the server and waits until it answers `/health`.
    static func start(_ data: DataDirectory) async throws -> CrashServer {
        let process = RunningProcess(["serve", "--data-dir", data.url.path, "--port", "0"], environment: [:])
        try process.start()
        let deadline = ContinuousClock.now + .seconds(60)
        var port: String?
        while port == nil, process.isRunning, ContinuousClock.now < deadline {
            port = process.outputText.firstMatch(of: #/listening on 127\.0\.0\.1:(\d+)/#).map { String($0.output.1) }
            if port == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        guard let port else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            let result = process.finish()
            throw CrashTestFailure("the server did not start (exit \(result.status)): \(result.output) \(result.errors)")
        }
        let server = CrashServer(process: process, port: port)
        while (try? await server.send("GET", "/health").status) != 200 {
            guard ContinuousClock.now < deadline else { throw CrashTestFailure("no /health answer: \(process.outputText)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        return server
    }

    /// SIGKILL, then waits for the process to end; returns its exit status (the signal's number when it killed it).
    func killNow() -> Int32 {
        kill(process.processIdentifier, SIGKILL)
        return process.finish().status
    }

    struct Reply {
        var status: Int
        var object: [String: Any]
        var replayed: Bool
    }

    func send(_ method: String, _ path: String, token: String? = nil, body: Data? = nil, key: String? = nil) async throws -> Reply {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.timeoutInterval = 10
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let key { request.setValue(key, forHTTPHeaderField: "Idempotency-Key") }
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        return Reply(
            status: http?.statusCode ?? 0,
            object: (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:],
            replayed: http?.value(forHTTPHeaderField: "Idempotent-Replayed") == "true"
        )
    }

    func login(email: String, password: String) async throws -> String {
        let body = try JSONSerialization.data(withJSONObject: ["email": email, "password": password])
        let reply = try await send("POST", "/v1/auth/login", body: body)
        return try #require(reply.object["token"] as? String, "login answered \(reply.status) \(reply.object)")
    }

    /// A client with a completed screening, so results can be recorded; returns its id.
    func screenedClient(token: String) async throws -> String {
        let sam = """
            {"givenName": "Sam", "familyName": "Okafor", "birthDate": "1996-06-01", "sex": "male",
             "height": {"value": 180, "unit": "cm"}, "mass": 80}
            """
        let created = try await send("POST", "/v1/clients", token: token, body: Data(sam.utf8))
        let client = try #require(created.object["id"] as? String, "client: \(created.status) \(created.object)")
        let started = try await send("POST", "/v1/clients/\(client)/screenings", token: token, body: Data(#"{"questionnaireId": "screening"}"#.utf8))
        let screening = try #require(started.object["id"] as? String, "screening: \(started.status) \(started.object)")
        let answers = """
            {"answers": {"heartCondition": false, "chestPain": false, "dizziness": false, "otherChronicCondition": false,
             "prescribedMedication": false, "boneJointProblem": false, "supervisedActivityOnly": false,
             "activityLevel": "light", "smoker": false, "currentInjuries": false}}
            """
        let answered = try await send("PATCH", "/v1/clients/\(client)/screenings/\(screening)", token: token, body: Data(answers.utf8))
        try #require(answered.status == 200, "answers: \(answered.object)")
        let completed = try await send("POST", "/v1/clients/\(client)/screenings/\(screening)/complete", token: token)
        try #require(completed.status == 200, "complete: \(completed.object)")
        return client
    }

    /// Posts an attempt; `nil` when no answer came (connection reset, refused or timed out).
    func post(_ attempt: Attempt, token: String, client: String) async -> Answer? {
        guard let reply = try? await send("POST", "/v1/clients/\(client)/results", token: token, body: attempt.body, key: attempt.key) else {
            return nil
        }
        return Answer(
            status: reply.status,
            resultId: (reply.object["id"] as? String).flatMap(UUID.init(uuidString:)),
            replayed: reply.replayed,
            problemType: reply.object["type"] as? String
        )
    }

    /// Posts each attempt again with its key and body, all at once.
    func retry(_ attempts: [Attempt], token: String, client: String) async -> [Outcome] {
        await withTaskGroup(of: Outcome.self) { group in
            for attempt in attempts {
                group.addTask { Outcome(attempt: attempt, answer: await self.post(attempt, token: token, client: client)) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// `workers` concurrent loops of result POSTs, each its own next request as soon as the last one is answered;
    /// SIGKILL `killAfter` into it. Returns every attempt with its answer and the exit status.
    func load(cycle: Int, workers: Int, killAfter: Duration, token: String, client: String) async -> (outcomes: [Outcome], exitStatus: Int32) {
        let stop = StopFlag()
        return await withTaskGroup(of: [Outcome].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var outcomes: [Outcome] = []
                    for number in 0..<CrashTests.maxAttemptsPerWorker {
                        if stop.isSet { break }
                        let attempt = Attempt(cycle: cycle, worker: worker, number: number)
                        outcomes.append(Outcome(attempt: attempt, answer: await self.post(attempt, token: token, client: client)))
                    }
                    return outcomes
                }
            }
            try? await Task.sleep(for: killAfter)
            // Set first, so every request sent from here on was sent before the kill or is refused.
            stop.set()
            let exitStatus = killNow()
            let outcomes = await group.reduce(into: [Outcome]()) { $0 += $1 }
            return (outcomes, exitStatus)
        }
    }

    /// Every result of the client, page by page (200 a page); by id, with its marker.
    func results(of client: String, token: String) async throws -> [UUID: String] {
        var results: [UUID: String] = [:]
        var cursor: String?
        for _ in 0..<1000 {
            let query = "?limit=200" + (cursor.map { "&cursor=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" } ?? "")
            let page = try await send("GET", "/v1/clients/\(client)/results\(query)", token: token)
            try #require(page.status == 200, "listing answered \(page.status) \(page.object)")
            for item in page.object["items"] as? [[String: Any]] ?? [] {
                if let id = (item["id"] as? String).flatMap(UUID.init(uuidString:)) { results[id] = item["observations"] as? String ?? "" }
            }
            cursor = page.object["nextCursor"] as? String
            if cursor == nil { break }
        }
        return results
    }
}

/// Why the test could not go on.
struct CrashTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Tells the load's workers to send nothing more.
final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
