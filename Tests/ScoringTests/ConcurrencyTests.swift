import Scoring
import Testing

@Test func concurrentCallsEachGetTheirOwnInputsAndGlobals() async throws {
    let engine = ScoreEngine(maximumIdleStates: 4)
    let script = ScriptID(exerciseId: "concurrent", version: 1)
    // A global written then read back: a shared environment between concurrent calls would mix them up.
    let source = #"seen = value  for i = 1, 50 do end  return seen / 100 + (sex == "male" and 0 or 5)"#
    let results = await withTaskGroup(of: (Int, Result<Double, ScoringError>).self) { group in
        for call in 0..<1000 {
            group.addTask {
                let subject = call.isMultiple(of: 2) ? man : woman
                return (call, engine.score(script, source: source, subject: subject, value: Double(call % 500), values: [:]))
            }
        }
        var results: [Int: Result<Double, ScoringError>] = [:]
        for await (call, result) in group { results[call] = result }
        return results
    }
    #expect(results.count == 1000)
    for (call, result) in results {
        let expected = Double(call % 500) / 100 + (call.isMultiple(of: 2) ? 0 : 5)
        #expect(try result.get() == expected, "call \(call)")
    }
}
