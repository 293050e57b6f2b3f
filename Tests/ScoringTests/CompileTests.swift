import CLua
import Scoring
import Testing

@Test func checkAcceptsAValidScript() {
    #expect(ScoreEngine().check(source: "if value > 60 then return 3 end\nreturn 8") == nil)
}

@Test func checkReportsASyntaxErrorWithItsLine() {
    let error = ScoreEngine().check(source: "local x = 1\nreturn +")
    #expect(error?.message == "[exercise] line 2: unexpected symbol near '+'")
    #expect(error?.kind == .compile)
}

@Test func checkDoesNotRunTheScript() {
    #expect(ScoreEngine().check(source: "while true do end") == nil)
}

@Test func scoringASyntaxErrorFailsWithTheCompileMessage() {
    let result = score("return (1")
    #expect(result.message == "[exercise] line 1: ')' expected near <eof>")
    #expect(result.kind == .compile)
}

/// Real bytecode from `lua_dump` in a plain state, as an upload would bring it (decoded as UTF-8).
private func bytecode(of source: String) throws -> String {
    let L = try #require(luaL_newstate())
    defer { lua_close(L) }
    #expect(luaL_loadstring(L, source) == LUA_OK)
    var bytes: [UInt8] = []
    let status = withUnsafeMutablePointer(to: &bytes) { pointer in
        lua_dump(
            L,
            { _, chunk, size, userData in
                let buffer = UnsafeRawBufferPointer(start: chunk, count: size)
                userData!.assumingMemoryBound(to: [UInt8].self).pointee.append(contentsOf: buffer)
                return 0
            },
            pointer,
            0
        )
    }
    #expect(status == 0)
    #expect(bytes.starts(with: [0x1B, 0x4C, 0x75, 0x61]))  // "\27Lua"
    return String(decoding: bytes, as: UTF8.self)
}

@Test func bytecodeChunkIsRefused() throws {
    let chunk = try bytecode(of: "return 5")
    let expected = "the script is precompiled Lua bytecode; only Lua source text is accepted"
    #expect(score(chunk).message == expected)
    #expect(ScoreEngine().check(source: chunk)?.message == expected)
}

@Test func compiledChunkIsCachedByScriptIDAndASecondSourceForItIsIgnored() throws {
    let engine = ScoreEngine(maximumIdleStates: 1)
    let script = ScriptID(exerciseId: "plank", version: 3)
    let first = engine.score(script, source: "return 4", subject: woman, value: nil, values: [:])
    let second = engine.score(script, source: "return 9", subject: woman, value: nil, values: [:])
    #expect(try first.get() == 4)
    #expect(try second.get() == 4)
}

@Test func eachVersionOfAnExerciseIsItsOwnScript() throws {
    let engine = ScoreEngine(maximumIdleStates: 1)
    let one = engine.score(ScriptID(exerciseId: "plank", version: 1), source: "return 4", subject: woman, value: nil, values: [:])
    let two = engine.score(ScriptID(exerciseId: "plank", version: 2), source: "return 9", subject: woman, value: nil, values: [:])
    #expect(try one.get() == 4)
    #expect(try two.get() == 9)
}

@Test func manyDistinctScriptsInOneStateAllScore() throws {
    let engine = ScoreEngine(maximumIdleStates: 1)
    for round in 0..<2 {
        for version in 0..<600 {
            let result = engine.score(
                ScriptID(exerciseId: "many", version: version),
                source: "return \(version % 11)",
                subject: woman,
                value: nil,
                values: [:]
            )
            #expect(try result.get() == Double(version % 11), "round \(round), version \(version)")
        }
    }
}

@Test func deeplyNestedSourceFailsToCompileInsteadOfCrashing() {
    let error = ScoreEngine().check(source: "return " + String(repeating: "(", count: 100_000) + "1")
    #expect(error?.message == "C stack overflow")
    #expect(error?.kind == .compile)
}
