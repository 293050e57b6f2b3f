import Foundation
import HTTPTypes
import NIOCore
import Scoring
import Services
import Synchronization
import TestSupport
import Testing

/// The hostile-script corpus (`Tests/Fixtures/hostile-scripts`, one scoring script per file: loops, error-handler
/// and metamethod tricks, memory bombs, C work out of the instruction count's sight, escapes from the sandbox),
/// each sent through the API twice, as a tenant would: once as a pack whose examples run it (the import must be
/// refused), once behind a guard its examples never reach, then scored with a value that reaches it (the score
/// must come back as a clear error). `/health` is asked all along on a connection of its own and must answer every
/// time; afterwards the scoring workers must be idle. Prints `sandbox: N cases, N contained`.
@Suite(.serialized, .storeIndependent) struct HostileScriptCorpusTests {
    static let folder = RepositoryRoot.url.appendingPathComponent("Tests/Fixtures/hostile-scripts")

    /// The server's own limits, on workers of this test's alone, so that their CPU time can be read afterwards.
    static let workers = ScoringWorkers(executable: HealthwheelExecutable.url.path, limits: ScoringLimits())

    /// A pack of one exercise scored by `script`, whose one example (a time of 48 s) must score 5.
    static func pack(_ index: Int, script: String) -> [String: Any] {
        var pack = ExercisesTests.pack(id: "hostile-\(index)", exercise: "hostile-\(index)", script: script, score: 5)
        pack["name"] = "Hostile \(index)"
        return pack
    }

    @Test(.timeLimit(.minutes(5))) func everyHostileScriptIsRefusedOrStoppedWhileTheServerKeepsAnswering() async throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".lua") }.sorted()
        #expect(files.count >= 40)
        try await withAPI(scorer: ExerciseScorer(workers: Self.workers)) { fixture, client in
            let admin = try await client.token(for: try await fixture.trainer(in: try await fixture.company(), role: .admin))
            let port = try #require(client.port)
            let done = Mutex(false)
            let health = Mutex((answered: 0, failed: [String]()))
            async let watcher: Void = {
                while !done.withLock({ $0 }) {
                    let (status, body) = try await HostileScoringTests.send(.get, "/health", port: port)
                    health.withLock {
                        if status == .ok { $0.answered += 1 } else { $0.failed.append("\(status) \(body)") }
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }()

            var cases = 0
            var contained: [String] = []
            for (index, file) in files.enumerated() {
                let hostile = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)

                // Run by the pack's own example: the import is refused and names the example or the script.
                cases += 1
                let unguarded = try await client.send(.post, "/v1/exercise-packs", token: admin, json: jsonString(Self.pack(index, script: hostile)))
                expectProblem(unguarded, .unprocessableContent)
                if unguarded.status == .unprocessableContent, unguarded.problemFields.allSatisfy({ $0.hasPrefix("exercises[0]") }) {
                    contained.append("\(file) import")
                }

                // Behind a guard the example never passes: stored, then stopped when a score reaches it.
                cases += 1
                let guarded = "if value > 50 then\n\(hostile)\nend\nreturn 5"
                let created = try await client.send(.post, "/v1/exercise-packs", token: admin, json: jsonString(Self.pack(index, script: guarded)))
                if created.status == .unprocessableContent {
                    // Refused as source: too long, or beyond the parser's nesting. The error names the script.
                    #expect(created.problemFields.contains { $0.hasSuffix("conversionAlgorithm") }, "\(file): \(created.text)")
                    if created.problemFields.contains(where: { $0.hasSuffix("conversionAlgorithm") }) { contained.append("\(file) source") }
                    continue
                }
                #expect(created.status == .created, "\(file): \(created.text)")
                let scored = try await client.send(
                    .post,
                    "/v1/exercises/hostile-\(index)/score",
                    token: admin,
                    json: #"{"values": {"time": 99}, "client": {"sex": "female", "age": 40, "height": 1.7, "mass": 60}}"#
                )
                #expect(scored.status == .ok, "\(file): \(scored.text)")
                let error = scored.object["scoreError"] as? String
                #expect(scored.object["score"] is NSNull && error?.isEmpty == false, "\(file): \(scored.text)")
                if scored.status == .ok, scored.object["score"] is NSNull, error?.isEmpty == false { contained.append("\(file) score") }
            }

            // Nothing of the scripts keeps running: the workers spend no CPU once the last answer is in.
            let before = Self.cpuTicks(of: Self.workers.processIDs)
            try await Task.sleep(for: .seconds(1))
            let spent = Self.cpuTicks(of: Self.workers.processIDs) - before
            #expect(spent <= 5, "the scoring workers spent \(spent) ticks (10 ms each) in a second after the last answer")

            done.withLock { $0 = true }
            try await watcher
            let seen = health.withLock { $0 }
            #expect(seen.failed == [] && seen.answered > 0, "\(seen)")
            #expect(contained.count == cases)
            print("sandbox: \(cases) cases, \(contained.count) contained; /health answered \(seen.answered) times, \(seen.failed.count) failed")
        }
    }

    /// User and system CPU time of `processes` so far, in clock ticks (`/proc/<pid>/stat` fields 14 and 15).
    static func cpuTicks(of processes: [pid_t]) -> Int {
        processes.reduce(0) { total, pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return total }
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            return total + (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        }
    }
}
