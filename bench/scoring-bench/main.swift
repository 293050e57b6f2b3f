// Scores/second through ScoreEngine next to the raw Lua C API calling the same compiled chunk in a plain state,
// on the same inputs for the same time, then through the pool of scoring worker processes the server uses, with
// 64 concurrent callers. Prints `scoring: ratio_to_raw_lua=… (target <= 2)` and
// `scoring: workers=… scores_per_s=… (target >= 25000)` last.
// Usage: scoring-bench --pack PATH --exercise ID [--seconds N]
// (`scoring-bench score-worker …` is this program as one of the pool's workers.)

import CLua
import CLuaShim
import Foundation
import Scoring

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == ScoringWorker.command {
    ScoringWorker.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
}

/// One evaluation's inputs, as the API would pass them.
struct Input {
    var subject: ScoringSubject
    var value: Double?
    var values: [String: Double]
}

/// The script under test and the inputs to cycle through.
struct Workload {
    var exercise: String
    var origin: String
    var source: String
    var inputs: [Input]
}

struct Options {
    var pack = "Exercises/cardiovascular.json"
    var exercise = "resting-heart-rate"
    var seconds = 2.0

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let argument = rest.popFirst() else { fail("\(flag) needs a value") }
            switch flag {
            case "--pack": pack = argument
            case "--exercise": exercise = argument
            case "--seconds":
                guard let seconds = Double(argument), seconds > 0 else { fail("--seconds needs a positive number") }
                self.seconds = seconds
            default: fail("unknown option \(flag); usage: scoring-bench --pack PATH --exercise ID [--seconds N]")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("scoring-bench: \(message)\n".utf8))
    exit(1)
}

/// Resting heart rate (bpm) in bands by sex and age: lower is fitter.
let builtInSource = """
    local bands
    if sex == "male" then
      if age < 36 then bands = {49, 54, 57, 61, 65, 71, 75, 81, 88}
      elseif age < 56 then bands = {50, 55, 58, 62, 66, 72, 76, 82, 89}
      else bands = {51, 56, 59, 63, 67, 73, 77, 83, 90} end
    else
      if age < 36 then bands = {54, 59, 63, 66, 70, 74, 79, 84, 91}
      elseif age < 56 then bands = {55, 60, 64, 67, 71, 75, 80, 85, 92}
      else bands = {56, 61, 65, 68, 72, 76, 81, 86, 93} end
    end
    for i = 1, #bands do
      if value <= bands[i] then return 11 - i end
    end
    return 1
    """

/// Subjects across both sexes and the age groups, with values across the bands.
func syntheticInputs(primaryField: String) -> [Input] {
    var inputs: [Input] = []
    for (index, age) in [24, 38, 47, 61].enumerated() {
        for sex in ["male", "female"] {
            for bpm in [46.0, 58, 69, 95] {
                let subject = ScoringSubject(sex: sex, age: age, height: 1.6 + Double(index) / 10, mass: 60 + Double(index) * 5)
                inputs.append(Input(subject: subject, value: bpm + Double(index), values: [primaryField: bpm + Double(index)]))
            }
        }
    }
    return inputs
}

/// The exercise from the pack, or the built-in script when the pack file does not exist (yet).
func loadWorkload(_ options: Options) -> Workload {
    guard let data = FileManager.default.contents(atPath: options.pack) else {
        print("scoring: \(options.pack) not found; using the built-in resting-heart-rate script")
        return Workload(exercise: "resting-heart-rate", origin: "built-in", source: builtInSource, inputs: syntheticInputs(primaryField: "bpm"))
    }
    guard let pack = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
        let exercises = pack["exercises"] as? [[String: Any]]
    else { fail("\(options.pack) is not a pack: no \"exercises\" array") }
    guard let exercise = exercises.first(where: { $0["id"] as? String == options.exercise }) else {
        fail("\(options.pack) has no exercise \(options.exercise)")
    }
    guard let source = exercise["conversionAlgorithm"] as? String else { fail("\(options.exercise) has no conversionAlgorithm") }
    let primaryField = exercise["primaryField"] as? String
    var inputs: [Input] = []
    for example in exercise["examples"] as? [[String: Any]] ?? [] {
        guard let client = example["client"] as? [String: Any], let sex = client["sex"] as? String,
            let age = (client["age"] as? NSNumber)?.intValue
        else { continue }
        let subject = ScoringSubject(
            sex: sex,
            age: age,
            height: (client["height"] as? NSNumber)?.doubleValue,
            mass: (client["mass"] as? NSNumber)?.doubleValue
        )
        var values: [String: Double] = [:]
        for (key, number) in example["values"] as? [String: Any] ?? [:] {
            if let number = number as? NSNumber { values[key] = number.doubleValue }
        }
        inputs.append(Input(subject: subject, value: primaryField.flatMap { values[$0] }, values: values))
    }
    if inputs.isEmpty { inputs = syntheticInputs(primaryField: primaryField ?? "value") }
    return Workload(exercise: options.exercise, origin: options.pack, source: source, inputs: inputs)
}

/// The baseline: a plain state with the standard libraries, the chunk compiled once, and per call only what any
/// embedding must do: set the globals, call, read the number.
final class RawLua {
    /// One input converted once to what the C API takes, held in trivial types, so that the loop measures Lua
    /// and not Swift strings or reference counting.
    private struct RawInput {
        var sex: UnsafeBufferPointer<CChar>
        var age: lua_Integer
        var height: Double?
        var mass: Double?
        var value: Double?
        var values: UnsafeBufferPointer<(key: UnsafeBufferPointer<CChar>, number: Double)>
    }

    private let L: OpaquePointer
    private let chunk: lua_Integer
    private let inputs: UnsafeMutableBufferPointer<RawInput>

    init(source: String, inputs: [Input]) {
        guard let L = luaL_newstate() else { fail("luaL_newstate failed") }
        self.L = L
        luaL_openlibs(L)
        guard luaL_loadbufferx(L, source, source.utf8.count, "=[exercise]", "t") == LUA_OK else {
            fail("the script does not compile: \(String(cString: lua_tolstring(L, -1, nil)))")
        }
        chunk = lua_Integer(luaL_ref(L, hw_registry_index()))
        // Kept for the life of the process.
        func bytes(_ string: String) -> UnsafeBufferPointer<CChar> {
            let copy = UnsafeMutableBufferPointer<CChar>.allocate(capacity: string.utf8.count)
            _ = copy.initialize(from: string.utf8.map { CChar(bitPattern: $0) })
            return UnsafeBufferPointer(copy)
        }
        self.inputs = .allocate(capacity: inputs.count)
        for (index, input) in inputs.enumerated() {
            let values = UnsafeMutableBufferPointer<(key: UnsafeBufferPointer<CChar>, number: Double)>.allocate(capacity: input.values.count)
            _ = values.initialize(from: input.values.map { (bytes($0.key), $0.value) })
            let subject = input.subject
            let raw = RawInput(
                sex: bytes(subject.sex),
                age: lua_Integer(subject.age),
                height: subject.height,
                mass: subject.mass,
                value: input.value,
                values: UnsafeBufferPointer(values)
            )
            (self.inputs.baseAddress! + index).initialize(to: raw)
        }
    }

    deinit { lua_close(L) }

    @inline(__always)
    private func setGlobal(_ name: StaticString, _ number: Double?) {
        if let number { lua_pushnumber(L, number) } else { lua_pushnil(L) }
        setGlobal(name)
    }

    @inline(__always)
    private func setGlobal(_ name: StaticString) {
        lua_setglobal(L, UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self))
    }

    /// The score, or NaN when the script fails or returns no number.
    func score(_ index: Int) -> Double {
        let input = inputs[index]
        lua_rawgeti(L, hw_registry_index(), chunk)
        lua_pushlstring(L, input.sex.baseAddress, input.sex.count)
        setGlobal("sex")
        lua_pushinteger(L, input.age)
        setGlobal("age")
        setGlobal("height", input.height)
        setGlobal("mass", input.mass)
        setGlobal("value", input.value)
        lua_createtable(L, 0, Int32(input.values.count))
        for field in input.values {
            lua_pushlstring(L, field.key.baseAddress, field.key.count)
            lua_pushnumber(L, field.number)
            lua_rawset(L, -3)
        }
        setGlobal("values")
        var isNumber: Int32 = 0
        let result = hw_pcall(L, 0, 1) == LUA_OK ? lua_tonumberx(L, -1, &isNumber) : .nan
        lua_settop(L, -2)
        return isNumber != 0 ? result : .nan
    }
}

/// Calls per second of `body` over `seconds`, checking the clock every 256 calls.
func rate(seconds: Double, inputs: Int, _ body: (Int) -> Double) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    let end = start + .seconds(seconds)
    var calls = 0
    var checksum = 0.0
    repeat {
        for _ in 0..<256 {
            checksum += body(calls % inputs)
            calls += 1
        }
    } while clock.now < end
    let elapsed = (clock.now - start) / .seconds(1)
    if checksum.isNaN { fail("a call failed while measuring") }
    return Double(calls) / elapsed
}

let options = Options(CommandLine.arguments)
let workload = loadWorkload(options)
let engine = ScoreEngine(maximumIdleStates: 1)
let script = ScriptID(exerciseId: workload.exercise, version: 1)
let raw = RawLua(source: workload.source, inputs: workload.inputs)

func engineScore(_ index: Int) -> Double {
    let input = workload.inputs[index]
    switch engine.score(script, source: workload.source, subject: input.subject, value: input.value, values: input.values) {
    case .success(let score): return score
    case .failure: return .nan
    }
}

// Both sides must agree on every input before their speed means anything.
for index in workload.inputs.indices {
    let input = workload.inputs[index]
    let result = engine.score(script, source: workload.source, subject: input.subject, value: input.value, values: input.values)
    guard case .success(let score) = result, score == raw.score(index) else {
        fail("input \(index): engine \(result), raw Lua \(raw.score(index))")
    }
}

// Alternating rounds, best of each: noise from other work only ever lowers a round.
let rounds = 3
var bestEngine = 0.0
var bestRaw = 0.0
for _ in 0..<rounds {
    bestEngine = max(bestEngine, rate(seconds: options.seconds, inputs: workload.inputs.count, engineScore))
    bestRaw = max(bestRaw, rate(seconds: options.seconds, inputs: workload.inputs.count, raw.score))
}
let ratio = bestRaw / bestEngine
print("scoring: exercise=\(workload.exercise) script=\(workload.origin) inputs=\(workload.inputs.count) rounds=\(rounds)x\(options.seconds)s")
print("scoring: engine=\(Int(bestEngine))/s raw_lua=\(Int(bestRaw))/s")
print("scoring: ratio_to_raw_lua=\(String(format: "%.2f", ratio)) (target <= 2)")

/// Scores per second through the worker pool, `callers` calls in flight at once, as many requests would have.
func workersRate(_ workers: ScoringWorkers, seconds: Double, callers: Int) async -> Double {
    let start = ContinuousClock.now
    let end = start + .seconds(seconds)
    let calls = await withTaskGroup(of: Int.self) { group in
        for caller in 0..<callers {
            group.addTask {
                var calls = 0
                while ContinuousClock.now < end {
                    let input = workload.inputs[(caller + calls) % workload.inputs.count]
                    let result = await workers.score(
                        script,
                        source: workload.source,
                        subject: input.subject,
                        value: input.value,
                        values: input.values
                    )
                    guard case .success = result else { fail("a call through the workers failed: \(result)") }
                    calls += 1
                }
                return calls
            }
        }
        return await group.reduce(0, +)
    }
    return Double(calls) / ((ContinuousClock.now - start) / .seconds(1))
}

let workers = ScoringWorkers()
var bestWorkers = 0.0
for _ in 0..<rounds {
    bestWorkers = max(bestWorkers, await workersRate(workers, seconds: options.seconds, callers: 64))
}
workers.shutdown()
print("scoring: workers=\(workers.processIDs.count) scores_per_s=\(Int(bestWorkers)) (target >= 25000)")
