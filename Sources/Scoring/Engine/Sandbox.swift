import CLua
import CLuaShim

/// The sandbox of one Lua state, built once when the state is made, and the registry references every call
/// needs from it.
///
/// Scripts come from different companies' admins, and a state runs one script after another, so nothing one
/// call can write may be read by the next:
/// - each call gets a fresh, empty environment table (the chunk's `_ENV` upvalue, also its `_G`) that takes the
///   script's writes, so a script's globals die with its call; its locked metatable reads through to the
///   inputs table (the contract's globals, rewritten in place by every call, so that they cost no allocation)
///   and from there to the sandbox globals. The contract's globals are therefore inherited, not own fields:
///   `rawget(_G, "sex")` is nil and `pairs(_G)` lists only what the script set;
/// - the inputs and sandbox globals tables are reachable from no script (their metatables are locked);
/// - `math`, `string` and `table` are empty proxies over private copies, with `__newindex` raising and
///   `__metatable` locked (`pairs(math)` lists nothing); `rawset` refuses them; the string metatable is locked
///   and reads the private copy;
/// - `setmetatable` refuses `__gc` (a finalizer would run in some later call).
///
/// The count hook sees only VM instructions, so the library calls whose loops a script controls are bounded
/// (guards.c): `string.rep` of nothing returns at once, `table.move` is charged per element, and
/// `table.insert` and `table.remove` refuse tables with a metatable.
///
/// What is left out: `load`, `loadfile`, `dofile`, `require`, `collectgarbage`, `print`, `warn`; `io`, `os`,
/// `debug`, `package`, `coroutine`, `utf8`; `string.find`, `match`, `gmatch`, `gsub` (C pattern matching cannot be
/// interrupted) and `dump`; `math.random` and `randomseed` (a score must not depend on the draw, and the
/// generator's state would carry from one call to the next).
struct Sandbox {
    /// `{__index = inputs, __metatable = false}`, set on each call's environment.
    let environmentMetatable: lua_Integer
    /// The contract's globals (`sex`, `age`, … and `_G`), reading through to the sandbox globals.
    let inputs: lua_Integer
    /// The globals' names, interned once: pushing them is an array read, not a hash of a C string.
    let keys: Keys
    /// The two values of `sex`, interned once.
    let male: lua_Integer
    let female: lua_Integer

    struct Keys {
        let sex: lua_Integer
        let age: lua_Integer
        let height: lua_Integer
        let mass: lua_Integer
        let value: lua_Integer
        let values: lua_Integer
        let globals: lua_Integer
    }

    static let baseFunctions = [
        "assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall", "rawequal", "rawget", "rawlen", "select",
        "tonumber", "tostring", "type", "xpcall", "_VERSION",
    ]
    static let mathFunctions = [
        "abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log", "max", "maxinteger",
        "min", "mininteger", "modf", "pi", "rad", "sin", "sqrt", "tan", "tointeger", "type", "ult",
    ]
    static let stringFunctions = ["byte", "char", "format", "len", "lower", "pack", "packsize", "reverse", "sub", "unpack", "upper"]
    static let tableFunctions = ["concat", "pack", "sort", "unpack"]

    /// Opens base, math, string and table in `lua` and builds the sandbox from copies of what they allow.
    init(installingIn lua: LuaState) {
        let L = lua.L
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }

        lua_createtable(L, 0, 24)
        let globals = lua_gettop(L)
        lua_createtable(L, 0, 3)  // proxy -> library name, for rawset
        let proxies = lua_gettop(L)

        luaL_requiref(L, "_G", luaopen_base, 0)
        let base = lua_gettop(L)
        Self.copy(Self.baseFunctions, in: L, from: base, to: globals)
        lua_pushvalue(L, proxies)
        lua_pushcclosure(L, hw_guarded_rawset, 1)
        lua_setfield(L, globals, "rawset")
        lua_pushcclosure(L, hw_guarded_setmetatable, 0)
        lua_setfield(L, globals, "setmetatable")

        Self.installLibrary("math", luaopen_math, Self.mathFunctions, in: L, globals: globals, proxies: proxies) { _, _ in }

        Self.installLibrary("string", luaopen_string, Self.stringFunctions, in: L, globals: globals, proxies: proxies) { original, copy in
            lua_getfield(L, original, "rep")
            lua_pushcclosure(L, hw_guarded_rep, 1)
            lua_setfield(L, copy, "rep")
            // Methods on strings ("x"):rep(3) read the metatable's __index: point it at the copy, and lock it.
            _ = lua_pushstring(L, "")
            _ = lua_getmetatable(L, -1)
            lua_pushvalue(L, copy)
            lua_setfield(L, -2, "__index")
            lua_pushboolean(L, 0)
            lua_setfield(L, -2, "__metatable")
            lua_settop(L, -3)
        }

        Self.installLibrary("table", luaopen_table, Self.tableFunctions, in: L, globals: globals, proxies: proxies) { original, copy in
            for name in ["insert", "remove"] {
                lua_getfield(L, original, name)
                _ = lua_pushstring(L, name)
                lua_pushcclosure(L, hw_plain_table_only, 2)
                lua_setfield(L, copy, name)
            }
            lua_getfield(L, original, "move")
            lua_pushcclosure(L, hw_guarded_move, 1)
            lua_setfield(L, copy, "move")
        }

        func lockedMetatable(indexing table: Int32) {
            lua_createtable(L, 0, 2)
            lua_pushvalue(L, table)
            lua_setfield(L, -2, "__index")
            lua_pushboolean(L, 0)
            lua_setfield(L, -2, "__metatable")
        }
        lua_createtable(L, 0, 8)
        let inputs = lua_gettop(L)
        lockedMetatable(indexing: globals)
        lua_setmetatable(L, inputs)
        lockedMetatable(indexing: inputs)
        environmentMetatable = lua.ref()
        self.inputs = lua.ref()

        func interned(_ string: String) -> lua_Integer {
            lua.push(string)
            return lua.ref()
        }
        keys = Keys(
            sex: interned("sex"),
            age: interned("age"),
            height: interned("height"),
            mass: interned("mass"),
            value: interned("value"),
            values: interned("values"),
            globals: interned("_G")
        )
        male = interned("male")
        female = interned("female")
    }

    private static func copy(_ names: [String], in L: OpaquePointer, from source: Int32, to target: Int32) {
        for name in names {
            lua_getfield(L, source, name)
            lua_setfield(L, target, name)
        }
    }

    /// Opens a library, copies the allowed `names` into a private table, lets `extend(original, copy)` add
    /// guarded functions, and publishes a read-only proxy over the copy as the global `name`.
    private static func installLibrary(
        _ name: String,
        _ open: lua_CFunction,
        _ names: [String],
        in L: OpaquePointer,
        globals: Int32,
        proxies: Int32,
        extend: (_ original: Int32, _ copy: Int32) -> Void
    ) {
        luaL_requiref(L, name, open, 0)
        let original = lua_gettop(L)
        lua_createtable(L, 0, Int32(names.count + 3))
        let copy = lua_gettop(L)
        Self.copy(names, in: L, from: original, to: copy)
        extend(original, copy)

        lua_createtable(L, 0, 0)  // the proxy
        lua_createtable(L, 0, 3)  // its metatable
        lua_pushvalue(L, copy)
        lua_setfield(L, -2, "__index")
        _ = lua_pushstring(L, name)
        lua_pushcclosure(L, hw_readonly_newindex, 1)
        lua_setfield(L, -2, "__newindex")
        lua_pushboolean(L, 0)
        lua_setfield(L, -2, "__metatable")
        lua_setmetatable(L, -2)
        lua_pushvalue(L, -1)
        _ = lua_pushstring(L, name)
        lua_rawset(L, proxies)
        lua_setfield(L, globals, name)
        lua_settop(L, original - 1)
    }
}
