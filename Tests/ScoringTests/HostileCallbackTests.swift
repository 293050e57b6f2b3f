import Scoring
import Testing

/// Scripts that try to get control back while a stopped call unwinds: message handlers, metamethods, to-be-closed
/// variables and error objects. Each must be stopped by its limits like any loop, and the engine must go on
/// working afterwards. (Before the stop was raised as a memory error, the first of these never returned: Lua ran
/// the xpcall handler from inside the count hook, with hooks disabled.)
@Suite struct HostileCallbackTests {
    static let corpus: [String] = [
        // The repro from the issue: the stop raised inside the loop calls the handler, which loops.
        #"if value > 10 then xpcall(function() error("e") end, function() while true do end end) end return 5"#,
        "xpcall(function() while true do end end, function() while true do end end)",
        // The handler gets control again each time the stop is raised, and catches with pcall.
        "xpcall(function() while true do end end, function(m) while true do pcall(function() while true do end end) end end)",
        // A handler that errors calls itself again, up to Lua's C-stack limit.
        "xpcall(function() while true do end end, function(m) error(m) end) while true do end",
        "local function h() xpcall(function() while true do end end, h) while true do end end xpcall(h, h)",
        // Nested xpcalls, each with a looping handler.
        "local function f(n) if n == 0 then while true do end end xpcall(function() f(n - 1) end, "
            + "function() while true do end end) while true do end end f(50)",
        // Error objects whose metamethods loop, raised while stopped or inspected by a handler.
        "local e = setmetatable({}, {__tostring = function() while true do end end}) "
            + "xpcall(function() error(e) end, function(x) return tostring(x) end) while true do end",
        "xpcall(function() while true do end end, function(m) return setmetatable({}, {__index = function(t, k) "
            + "while true do end end}).x end)",
        // To-be-closed variables run their __close while the stop unwinds.
        "local x <close> = setmetatable({}, {__close = function() while true do end end}) while true do end",
        "local a <close> = setmetatable({}, {__close = function() xpcall(function() while true do end end, "
            + "function() while true do end end) end}) while true do end",
        // Comparators and metamethods called from C library functions.
        "local t = {} for i = 1, 100 do t[i] = i end table.sort(t, function(a, b) "
            + "xpcall(function() while true do end end, function() while true do end end) return a < b end)",
        "local mt = {__lt = function(a, b) while true do end end} local t = {} for i = 1, 10 do t[i] = setmetatable({}, mt) end "
            + "table.sort(t)",
        "local s = string.format('%s', setmetatable({}, {__tostring = function() while true do end end}))",
        "local t = setmetatable({}, {__concat = function() while true do end end}) local s = t .. 'x'",
        "local t = setmetatable({}, {__eq = function() while true do end end}) local u = setmetatable({}, getmetatable(t)) "
            + "return t == u and 1 or 0",
        // The stop raised inside a C function that charges the budget (table.move), under a looping handler.
        "xpcall(function() table.move({}, 1, math.maxinteger - 1, 2) end, function() while true do end end)",
        // pcall that keeps catching the stop.
        "while true do pcall(xpcall, function() while true do end end, function() while true do end end) end",
    ]

    @Test(arguments: corpus)
    func scriptThatGetsControlDuringErrorHandlingIsStopped(source: String) throws {
        // A generous budget with a short time limit: whichever limit fires first, the call must return with it.
        let engine = ScoreEngine(limits: ScoringLimits(instructionBudget: 200_000, timeLimit: .milliseconds(200)), maximumIdleStates: 1)
        let result = score(source, in: engine)
        #expect(result.kind == .instructionBudget || result.kind == .timeLimit, "\(result)")
        // The pool hands out a working state afterwards.
        #expect(try score("return value / 10", in: engine).get() == 5)
    }

    @Test func errorObjectWithLoopingMetamethodsIsReportedWithoutCallingThem() {
        let source = "error(setmetatable({}, {__tostring = function() while true do end end, __index = function() while true do end end}))"
        let result = score(source)
        #expect(result.kind == .runtime, "\(result)")
        #expect(result.message?.contains("table") == true, "\(result)")
    }

    @Test func handlerOfAnOrdinaryErrorStillRuns() throws {
        // Not a stop: the handler runs (metered) and its result comes back through xpcall.
        let source = #"local ok, m = xpcall(function() error("e", 0) end, function(m) return m .. "!" end) return ok and 0 or #m"#
        #expect(try score(source).get() == 2)
    }

    @Test func pcallStillCatchesAnOrdinaryError() throws {
        #expect(try score(#"local ok = pcall(error, "x") return ok and 0 or 3"#).get() == 3)
    }
}
