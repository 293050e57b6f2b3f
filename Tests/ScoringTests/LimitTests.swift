import Scoring
import Testing

@Test func infiniteLoopIsStoppedByTheInstructionBudget() {
    let result = score("while true do end")
    #expect(result.message == "the script ran past its budget of 200000 instructions")
    #expect(result.kind == .instructionBudget)
}

@Test func infiniteLoopInsidePcallInsideALoopIsStillStopped() {
    let result = score("local n = 0\nwhile true do pcall(function() while true do end end) n = n + 1 end")
    #expect(result.message == "the script ran past its budget of 200000 instructions")
}

@Test func budgetFollowsTheLimits() {
    let engine = ScoreEngine(limits: ScoringLimits(instructionBudget: 5_000))
    #expect(score("for i = 1, 100 do end return 5", in: engine).message == nil)
    #expect(score("for i = 1, 10000 do end return 5", in: engine).message == "the script ran past its budget of 5000 instructions")
}

@Test func stringRepMemoryBombIsStoppedByTheMemoryCap() {
    let result = score(#"local s = string.rep("x", 1 << 24) return #s"#)
    #expect(result.message == "the script used more than 1 MiB of memory")
    #expect(result.kind == .memoryLimit)
}

@Test func doublingStringIsStoppedByTheMemoryCap() {
    #expect(score(#"local s = "x" while true do s = s .. s end"#).message == "the script used more than 1 MiB of memory")
}

@Test func tableGrowthBombIsStoppedByTheMemoryCap() {
    #expect(score("local t = {} for i = 1, 1e7 do t[i] = {i} end return #t").message == "the script used more than 1 MiB of memory")
}

@Test func memoryCapFollowsTheLimits() {
    let engine = ScoreEngine(limits: ScoringLimits(memoryBytes: 64 << 10))
    #expect(score(#"local s = string.rep("x", 16000) return 1"#, in: engine).message == nil)
    #expect(score(#"local s = string.rep("x", 100000) return 1"#, in: engine).message == "the script used more than 64 KiB of memory")
}

@Test func garbageIsCollectedRatherThanCountedAgainstTheCap() throws {
    // 4 MB of short-lived strings: only what is alive at once (a few KB) counts.
    let source = #"local s for i = 1, 4000 do s = string.rep("x", 1000) .. i end return #s / 1000"#
    #expect(try score(source).get() == 1.004)
}

@Test func memoryCapHoldsCallAfterCall() throws {
    let engine = ScoreEngine(maximumIdleStates: 1)
    let source = #"local parts = {} for i = 1, 6 do parts[i] = string.rep("x", 100000) end return #parts"#
    for _ in 0..<100 {
        #expect(try score(source, in: engine).get() == 6)
    }
}

@Test func deepRecursionFailsInsteadOfCrashing() {
    let result = score("local function f(n) return 1 + f(n + 1) end return f(1)")
    #expect(result.message == "the script used more than 1 MiB of memory")
}

@Test func deepRecursionThroughMetamethodsFailsInsteadOfCrashing() {
    let result = score("local t = setmetatable({}, {__index = function(t, k) return t[k] end}) return t.x")
    #expect(result.message?.hasSuffix("stack overflow") == true)
}

@Test func stringRepOfNothingReturnsAtOnce() throws {
    #expect(try score(#"return #string.rep("", math.maxinteger) + #(""):rep(1 << 40, "")"#).get() == 0)
}

@Test func tableMoveIsChargedPerElement() {
    #expect(score("table.move({}, 1, math.maxinteger - 1, 2) return 1").message == "the script ran past its budget of 200000 instructions")
}

@Test func tableInsertRefusesATableWithAMetatable() {
    let source = "local t = setmetatable({}, {__len = function() return 1e12 end, __index = {}, __newindex = {}}) table.insert(t, 1, 0)"
    #expect(score(source).message == "[exercise] line 1: table.insert needs a table without a metatable")
}

@Test func timeLimitStopsWorkTheInstructionCountCannotSee() {
    // Each comparison of two 300 KB strings is one instruction but a long strcoll.
    let engine = ScoreEngine(limits: ScoringLimits(instructionBudget: 1 << 40, timeLimit: .milliseconds(20)))
    let source = #"local a = string.rep("x", 300000) local b = a .. "y" while true do local _ = a < b end"#
    let result = score(source, in: engine)
    #expect(result.message == "the script ran past its time limit of 20 ms")
    #expect(result.kind == .timeLimit)
}
