import Scoring
import Testing

@Test(arguments: [
    "load", "loadfile", "dofile", "require", "collectgarbage", "print", "warn", "io", "os", "debug", "package", "coroutine",
    "utf8", "string.find", "string.gsub", "string.match", "string.gmatch", "string.dump", "math.random", "math.randomseed",
    #"("").find"#, #"("").gsub"#,
])
func unsafeFunctionIsNotReachable(name: String) throws {
    #expect(try score("return \(name) == nil and 1 or 0").get() == 1)
}

@Test func libraryFunctionsScriptsNeedAreReachable() throws {
    let source = """
        local t = {3, 1, 2}
        table.sort(t)
        table.insert(t, 4)
        local s = string.format("%d-%s", #t, ("ab"):rep(2)):upper()
        assert(s == "4-ABAB" and table.concat(t) == "1234" and math.floor(2.7) == 2 and select("#", 1, 2) == 2)
        assert(pcall(error, "x") == false and tostring(1) == "1" and tonumber("2") == 2 and rawequal(t, t))
        return math.max(1, 2) + #_VERSION - #"Lua 5.4"
        """
    #expect(try score(source).get() == 2)
}

/// Run after each hostile script in the same engine: fails unless the state is exactly as before.
private let probe = """
    assert(leaked == nil and rawget(_G, "leaked") == nil, "a global leaked")
    assert(math.floor(2.5) == 2 and string.rep("a", 3) == "aaa" and ("ab"):rep(2) == "abab", "a library changed")
    assert(table.concat({1, 2}) == "12" and type(tostring) == "function", "a function changed")
    assert(getmetatable("") == false and getmetatable(_G) == false and getmetatable(math) == false, "a metatable changed")
    assert(_G == _ENV and select("#", pairs(math)) == 3, "the environment changed")
    return value / 10
    """

@Test(
    arguments: [
        ("leaked = 1 return 1", nil),
        ("rawset(_G, 'leaked', 1) return 1", nil),
        ("_ENV.leaked = 1 return 1", nil),
        ("_ENV = {leaked = 1} return 1", nil),
        ("math.floor = function() return 0 end", "[exercise] line 1: 'math' is read-only"),
        ("string.rep = nil", "[exercise] line 1: 'string' is read-only"),
        ("table.concat = nil", "[exercise] line 1: 'table' is read-only"),
        ("rawset(math, 'floor', nil)", "[exercise] line 1: 'math' is read-only"),
        ("rawset(string, 'rep', print)", "[exercise] line 1: 'string' is read-only"),
        ("getmetatable('').__index.rep = nil", "[exercise] line 1: attempt to index a boolean value"),
        ("setmetatable(math, {})", "[exercise] line 1: cannot change a protected metatable"),
        ("setmetatable(_G, {__index = function() return 1 end})", "[exercise] line 1: cannot change a protected metatable"),
        ("setmetatable({}, {__gc = function() leaked = 1 end})", "[exercise] line 1: __gc metamethods are not allowed"),
        ("while true do end", "the script ran past its budget of 200000 instructions"),
        ("local s = string.rep('x', 1 << 24)", "the script used more than 1 MiB of memory"),
        ("error('boom')", "[exercise] line 1: boom"),
    ] as [(String, String?)]
)
func hostileScriptLeavesTheEngineScoringNormally(hostile: String, message: String?) throws {
    let engine = ScoreEngine(maximumIdleStates: 1)
    let attack = score(hostile, in: engine)
    #expect(attack.message == message)
    #expect(try score(probe, in: engine, value: 50).get() == 5)
}

@Test func globalsOfOneCallAreGoneInTheNext() throws {
    let engine = ScoreEngine(maximumIdleStates: 1)
    let source = "local before = counter or 0 counter = before + 1 return counter"
    #expect(try score(source, in: engine).get() == 1)
    #expect(try score(source, in: engine).get() == 1)
}
