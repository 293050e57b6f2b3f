import Foundation
import Scoring
import TestSupport
import Testing

/// Scripts that keep a worker busy in C, where the instruction count cannot see them: each must end in an error,
/// its worker killed and replaced, with the server's own limits (100 ms).
let hostileScripts: [(name: String, source: String)] = [
    (
        "sort with C metamethods",
        "local t = setmetatable({}, {__len = function() return 1e7 end, __index = rawlen, __newindex = rawequal})\n"
            + "table.sort(t) return 5"
    ),
    (
        "sort with C metamethods and a length of 2^31-2",
        "local t = setmetatable({}, {__len = function() return 2^31 - 2 end, __index = rawlen, __newindex = rawequal})\n"
            + "table.sort(t) return 5"
    ),
    (
        "sort of references to one long string",
        "local s = string.rep('x', 400000) local t = {} for i = 1, 20000 do t[i] = s end table.sort(t) return 5"
    ),
    (
        "comparisons of long strings",
        // `<` of two strings is strcoll over both, even for one string with itself.
        "local s = string.rep('x', 400000) local n = 0 while true do if s < s then n = n + 1 end end"
    ),
    (
        "sort reading through a deep __index chain",
        // Every read walks 1,990 metatables in C before it reaches rawlen.
        "local t = setmetatable({}, {__index = rawlen}) for i = 1, 1990 do t = setmetatable({}, {__index = t}) end\n"
            + "local top = setmetatable({}, {__index = t, __newindex = rawequal, __len = function() return 1e7 end})\n"
            + "table.sort(top) return 5"
    ),
]

/// The server's own limits: a 100 ms time limit, killed at 150 ms. Two workers, as on this machine.
let serverLikeWorkers = ScoringWorkers(executable: HealthwheelExecutable.url.path, workers: 2)

/// Generous time for scripts that must succeed while tests run in parallel on two cores.
let patientWorkers = ScoringWorkers(executable: HealthwheelExecutable.url.path, limits: ScoringLimits(timeLimit: .seconds(5)), workers: 1)

private func score(_ source: String, in workers: ScoringWorkers, budget: SharedBudget? = nil) async -> Result<Double, ScoringError> {
    await workers.score(
        ScriptID(exerciseId: source, version: 1),
        source: source,
        subject: woman,
        value: 50,
        values: ["bpm": 50, "reps": 2],
        budget: budget
    )
}

@Test func aWorkerScoresAsTheEngineDoes() async throws {
    let source = "if sex == 'female' and age == 40 then return value / 10 + values.reps end return 0"
    #expect(try await score(source, in: patientWorkers).get() == 7)
    #expect(try ScoringTests.score(source).get() == 7)
}

@Test func aWorkerReportsCompileErrorsWithTheirLine() async {
    let error = await patientWorkers.check(source: "return 1 +")
    #expect(error?.kind == .compile)
    #expect(error?.message.hasPrefix("[exercise] line 1:") == true)
    #expect(await patientWorkers.check(source: "return 1") == nil)
}

@Test func aWorkerKeepsTheSandboxLimits() async {
    #expect(await score("while true do end", in: patientWorkers).kind == .instructionBudget)
    #expect(await score("local s = string.rep('x', 1 << 24) return #s", in: patientWorkers).kind == .memoryLimit)
    #expect(await score("return io.open('/etc/passwd')", in: patientWorkers).message?.contains("attempt to index a nil value") == true)
}

@Test(arguments: hostileScripts.map(\.name))
func hostileScriptIsStoppedAndItsWorkerReplaced(name: String) async throws {
    let source = try #require(hostileScripts.first { $0.name == name }).source
    let before = serverLikeWorkers.counters
    let result = await score(source, in: serverLikeWorkers)
    #expect(result.kind == .timeLimit, "\(result)")
    #expect(result.message == "the script ran past its time limit of 100 ms")
    #expect(serverLikeWorkers.counters.killedForTime > before.killedForTime)
    // A replacement starts right after the answer.
    for _ in 0..<1000 where serverLikeWorkers.counters.started == before.started {
        try await Task.sleep(for: .milliseconds(10))
    }
    #expect(serverLikeWorkers.counters.started > before.started)
}

@Test func largeConcatenationAndFormattingEndInTheMemoryLimit() async {
    let concat = "local t = {} for i = 1, 1e6 do t[i] = 'xxxxxxxxxx' end return #table.concat(t)"
    #expect(await score(concat, in: patientWorkers).kind == .memoryLimit)
    let format = "local s = string.rep('x', 500000) return #string.format('%s%s%s', s, s, s)"
    #expect(await score(format, in: patientWorkers).kind == .memoryLimit)
}

@Test func callsQueuedBehindAKilledCallAreAnsweredByTheNextWorker() async throws {
    let workers = ScoringWorkers(executable: HealthwheelExecutable.url.path, limits: ScoringLimits(timeLimit: .milliseconds(300)), workers: 1)
    defer { workers.shutdown() }
    let hostile = hostileScripts[0].source
    let results = await withTaskGroup(of: (Int, Result<Double, ScoringError>).self) { group in
        group.addTask { (0, await score(hostile, in: workers)) }
        for index in 1...20 {
            group.addTask { (index, await score("return \(index % 10)", in: workers)) }
        }
        var results: [Int: Result<Double, ScoringError>] = [:]
        for await (index, result) in group { results[index] = result }
        return results
    }
    #expect(results[0]?.kind == .timeLimit)
    for index in 1...20 {
        #expect(try results[index]?.get() == Double(index % 10))
    }
}

@Test func aWorkerKilledFromOutsideMidCallIsReplacedAndTheCallAnswersAnError() async throws {
    let workers = ScoringWorkers(executable: HealthwheelExecutable.url.path, limits: ScoringLimits(timeLimit: .seconds(30)), workers: 1)
    defer { workers.shutdown() }
    let first = try await score("return 1", in: workers).get()
    #expect(first == 1)
    let victim = try #require(workers.processIDs.first)
    async let stuck = score(hostileScripts[1].source, in: workers)
    try await Task.sleep(for: .milliseconds(200))
    #expect(kill(victim, SIGKILL) == 0)
    let result = await stuck
    #expect(result.kind == .workerStopped)
    #expect(result.message == "the scoring worker stopped while running the script (killed by signal 9)")
    #expect(workers.counters.lost == 1)
    #expect(try await score("return 2", in: workers).get() == 2)
    #expect(workers.processIDs.first != victim)
}

@Test func anIdleWorkerKilledFromOutsideIsReplacedBeforeTheNextCall() async throws {
    let workers = ScoringWorkers(executable: HealthwheelExecutable.url.path, limits: ScoringLimits(timeLimit: .seconds(5)), workers: 1)
    defer { workers.shutdown() }
    #expect(try await score("return 1", in: workers).get() == 1)
    let victim = try #require(workers.processIDs.first)
    #expect(kill(victim, SIGKILL) == 0)
    try await Task.sleep(for: .milliseconds(100))
    // No call was running: the next one is answered by a new worker, not failed.
    #expect(try await score("return 2", in: workers).get() == 2)
    #expect(workers.processIDs.first != victim)
    #expect(workers.counters.lost == 1)
}

@Test func aSharedBudgetEndsTheCallsThatShareIt() async {
    let budget = SharedBudget(.milliseconds(300))
    let first = await score("local n = 0 for i = 1, 100 do n = n + i end return 5", in: patientWorkers, budget: budget)
    #expect(first.kind == nil)
    let stuck = await score(hostileScripts[0].source, in: patientWorkers, budget: budget)
    #expect(stuck.message == "the pack's scripts ran past their shared time limit of 300 ms")
    // Once it is spent, later calls are not even sent.
    let late = await score("return 1", in: patientWorkers, budget: budget)
    #expect(late.message == "the pack's scripts ran past their shared time limit of 300 ms")
}

/// What `/proc` says of a running worker: the limits and filter it confined itself with.
@Test func aWorkerIsConfined() async throws {
    let workers = ScoringWorkers(executable: HealthwheelExecutable.url.path, limits: ScoringLimits(timeLimit: .seconds(5)), workers: 1)
    defer { workers.shutdown() }
    _ = try await score("return 1", in: workers).get()
    let pid = try #require(workers.processIDs.first)
    // The filter is on in every thread the runtime started, not only the one that installed it.
    let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
    #expect(!threads.isEmpty)
    for thread in threads {
        let status = try String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8)
        #expect(status.contains("Seccomp:\t2"), "thread \(thread) runs under the seccomp filter")
        #expect(status.contains("NoNewPrivs:\t1"))
    }
    let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
    func limit(_ name: String) -> [String] {
        limits.split(separator: "\n").first { $0.hasPrefix(name) }?.dropFirst(name.count).split(separator: " ").map(String.init) ?? []
    }
    #expect(limit("Max cpu time").prefix(2) == ["120", "125"])
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    #expect(stat.split(separator: ")").last?.split(separator: " ").dropFirst(16).first == "10", "a worker runs at niceness 10")
    #expect(limit("Max file size").prefix(2) == ["0", "0"])
    #expect(limit("Max open files").prefix(2) == ["3", "3"])
    let addressSpace = try #require(Int(limit("Max address space").first ?? ""))
    #expect(addressSpace < 4 << 30, "the address space is bounded")
    let environment = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
    #expect(environment.isEmpty, "a worker inherits no environment (no key, no secret)")
    let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").sorted()
    #expect(descriptors == ["0", "1", "2"])
}
