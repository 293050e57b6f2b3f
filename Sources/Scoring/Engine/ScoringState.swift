import CLua
import CLuaShim

/// One pooled Lua state: its sandbox, the chunks it has compiled, and the evaluation of one call.
///
/// `@unchecked Sendable` because the pool hands each state to exactly one caller at a time; a state is never
/// used by two threads at once.
final class ScoringState: @unchecked Sendable {
    private let lua: LuaState
    private let sandbox: Sandbox
    private let limits: ScoringLimits
    private let budget: Int64
    private let timeLimitNanoseconds: Int64
    /// Compiled chunks by script, as registry references.
    private var chunks: [ScriptID: lua_Integer] = [:]
    /// The chunk of the previous call: runs of one exercise skip hashing the id.
    private var lastScript: ScriptID?
    private var lastChunk: lua_Integer = 0
    /// Bytes held after the last full collection: each call may add `limits.memoryBytes` to this.
    private var liveBytes = 0
    /// Garbage allowed to pile up between calls before a full collection (the collector is otherwise stopped:
    /// a call leaves a few hundred bytes, and one collection every few hundred calls is cheaper than pacing).
    private let collectionThreshold: Int

    /// A state stops being reused once a call was stopped by a limit: Lua recovers from those, but a fresh state
    /// is cheaper to trust than a proof that nothing was left half-done. (A refused allocation that the script
    /// survives, such as one that succeeded after Lua's emergency collection, leaves the state in use.)
    private(set) var isSpent = false

    /// At most this many chunks stay compiled in one state; past it the cache starts over.
    static let maximumChunks = 256

    init?(limits: ScoringLimits) {
        guard let lua = LuaState() else { return nil }
        self.lua = lua
        self.limits = limits
        budget = Int64(max(limits.instructionBudget, 1))
        let (seconds, attoseconds) = limits.timeLimit.components
        let oneYear: Int64 = 365 * 24 * 3600
        timeLimitNanoseconds = max(0, min(seconds, oneYear)) * 1_000_000_000 + max(0, attoseconds / 1_000_000_000)
        collectionThreshold = max(limits.memoryBytes / 4, 64 << 10)
        sandbox = Sandbox(installingIn: lua)
        hw_gc_stop(lua.L)
        collect()
    }

    /// Compiles `source` without running it or keeping it.
    func check(source: String) -> ScoringError? {
        let L = lua.L
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        return compile(source)
    }

    /// Runs the script for one subject; see `ScoreEngine.score`.
    func score(
        _ script: ScriptID,
        source: String,
        subject: ScoringSubject,
        value: Double?,
        values: [String: Double]
    ) -> Result<Double, ScoringError> {
        let L = lua.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }

        if script == lastScript {
            lua.push(ref: lastChunk)
        } else if let chunk = chunks[script] {
            lua.push(ref: chunk)
            (lastScript, lastChunk) = (script, chunk)
        } else {
            if let error = compile(source) { return .failure(error) }
            cache(script)
        }
        pushEnvironment(subject: subject, value: value, values: values)
        lua_setupvalue(L, -2, 1)  // the chunk's only upvalue is _ENV

        let outcome = lua.call(budget: budget, timeLimitNanoseconds: timeLimitNanoseconds, memoryCap: memoryCap)
        if outcome.stop != HW_STOP_NONE || outcome.status == LUA_ERRMEM {
            isSpent = true
        } else if lua.bytesInUse > liveBytes + collectionThreshold {
            collect()
        }
        return verdict(outcome, base: base)
    }

    /// Leaves the compiled function on the stack, or returns why there is none (and leaves the stack as found).
    private func compile(_ source: String) -> ScoringError? {
        if source.utf8.first == 0x1B {  // "\27Lua": mode "t" would refuse it too, with a less helpful message
            return .bytecode
        }
        let status = lua.load(source, chunkName: ScoringError.chunkName, memoryCap: memoryCap)
        guard status != LUA_OK else { return nil }
        let message = lua.string(at: -1) ?? "the script does not compile"
        lua_settop(lua.L, -2)
        return status == LUA_ERRMEM ? .memoryLimit(limits) : .lua(.compile, message)
    }

    /// Keeps the function on top of the stack for `script`, leaving a copy on the stack.
    private func cache(_ script: ScriptID) {
        if chunks.count >= Self.maximumChunks {
            for reference in chunks.values { lua.unref(reference) }
            chunks.removeAll(keepingCapacity: true)
        }
        lua_pushvalue(lua.L, -1)
        let chunk = lua.ref()
        chunks[script] = chunk
        (lastScript, lastChunk) = (script, chunk)
        collect()
    }

    /// What the state may hold during a call: what it keeps plus the script's allowance (saturating).
    private var memoryCap: Int {
        let (cap, overflow) = liveBytes.addingReportingOverflow(max(limits.memoryBytes, 0))
        return overflow ? .max : cap
    }

    private func collect() {
        lua.collectGarbage()
        liveBytes = lua.bytesInUse
    }

    /// A fresh, empty environment for the script's own globals, reading through to the inputs table, which is
    /// rewritten in place: the subject's globals, `value` and `values` (nil when absent), and `_G` naming the
    /// environment. Only the environment and `values` are new tables.
    private func pushEnvironment(subject: ScoringSubject, value: Double?, values: [String: Double]) {
        let L = lua.L
        let keys = sandbox.keys
        lua_createtable(L, 0, 0)
        lua.push(ref: sandbox.environmentMetatable)
        lua_setmetatable(L, -2)
        lua.push(ref: sandbox.inputs)

        lua.push(ref: keys.sex)
        switch subject.sex {
        case "male": lua.push(ref: sandbox.male)
        case "female": lua.push(ref: sandbox.female)
        default: lua.push(subject.sex)
        }
        lua_rawset(L, -3)
        lua.push(ref: keys.age)
        lua_pushinteger(L, lua_Integer(subject.age))
        lua_rawset(L, -3)
        setNumber(keys.height, subject.height)
        setNumber(keys.mass, subject.mass)
        setNumber(keys.value, value)
        lua.push(ref: keys.values)
        lua_createtable(L, 0, Int32(clamping: values.count))
        for (key, number) in values {
            lua.push(key)
            lua_pushnumber(L, number)
            lua_rawset(L, -3)
        }
        lua_rawset(L, -3)
        lua.push(ref: keys.globals)
        lua_pushvalue(L, -3)
        lua_rawset(L, -3)
        lua_settop(L, -2)
    }

    /// Sets `key` in the table on top of the stack to `number`, or to nil.
    @inline(__always)
    private func setNumber(_ key: lua_Integer, _ number: Double?) {
        lua.push(ref: key)
        if let number { lua_pushnumber(lua.L, number) } else { lua_pushnil(lua.L) }
        lua_rawset(lua.L, -3)
    }

    /// Reads how the call ended into a score or a message.
    private func verdict(_ outcome: LuaState.CallOutcome, base: Int32) -> Result<Double, ScoringError> {
        let L = lua.L
        switch outcome.stop {
        case HW_STOP_BUDGET: return .failure(.instructionBudget(limits))
        case HW_STOP_TIME: return .failure(.timeLimit(limits))
        default: break
        }
        if outcome.status == LUA_ERRMEM { return .failure(.memoryLimit(limits)) }
        guard outcome.status == LUA_OK else {
            guard let message = lua.string(at: -1) else { return .failure(.errorValue(lua.typeName(at: -1))) }
            return .failure(.lua(.runtime, message))
        }
        guard lua_gettop(L) > base else { return .failure(.noValue) }
        let result = base + 1
        guard lua_type(L, result) == LUA_TNUMBER else { return .failure(.wrongType(lua.typeName(at: result))) }
        if lua_isinteger(L, result) != 0 {
            let integer = lua_tointegerx(L, result, nil)
            return (0...10).contains(integer) ? .success(Double(integer)) : .failure(.outOfRange("\(integer)"))
        }
        let number = lua_tonumberx(L, result, nil)
        if number.isNaN { return .failure(.notANumber) }
        guard (0...10).contains(number) else {
            let text = number.isInfinite ? (number > 0 ? "inf" : "-inf") : "\(number)"
            return .failure(.outOfRange(text))
        }
        return .success(number)
    }
}
