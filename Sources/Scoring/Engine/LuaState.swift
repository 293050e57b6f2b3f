import CLua
import CLuaShim

/// The one owner of a `lua_State` and of the limits its allocator and count hook read (`hw_limits`, CLuaShim).
///
/// Everything here that can raise a Lua error runs inside `luaL_loadbufferx` or `lua_pcall`: a Lua error must
/// never longjmp across a Swift frame. Used by one caller at a time (see `ScoringState`).
final class LuaState {
    /// The raw state, for the C API calls of this module.
    let L: OpaquePointer
    private let limits: UnsafeMutablePointer<hw_limits>

    /// `LUA_REGISTRYINDEX`, a macro Swift does not import.
    static let registry = hw_registry_index()

    /// How a protected call ended: Lua's status, and why the hook stopped it (`HW_STOP_*`).
    struct CallOutcome {
        var status: Int32
        var stop: Int32
    }

    /// A fresh state, or nil when even its first allocation fails.
    init?() {
        let limits = UnsafeMutablePointer<hw_limits>.allocate(capacity: 1)
        limits.initialize(to: hw_limits())
        guard let L = hw_newstate(limits) else {
            limits.deallocate()
            return nil
        }
        self.L = L
        self.limits = limits
    }

    deinit {
        lua_close(L)  // frees through the allocator, which still reads `limits`
        limits.deinitialize(count: 1)
        limits.deallocate()
    }

    /// Bytes the state holds right now, garbage included.
    var bytesInUse: Int { limits.pointee.used }

    /// A full collection, done by the engine between calls: the collector is stopped otherwise.
    func collectGarbage() {
        hw_gc_collect(L)
    }

    /// Compiles `source` as text only (mode "t") under `memoryCap`, leaving the function or the error message
    /// on the stack; returns Lua's status.
    func load(_ source: String, chunkName: String, memoryCap: Int) -> Int32 {
        limits.pointee.cap = memoryCap
        defer { hw_end(limits) }
        var source = source
        return source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                luaL_loadbufferx(L, chars.baseAddress, chars.count, "=" + chunkName, "t")
            }
        }
    }

    /// Calls the function on top of the stack with no arguments, keeping all its results, with the count hook
    /// re-armed, a fresh budget and deadline, and the memory cap on for exactly the length of the call.
    func call(budget: Int64, timeLimitNanoseconds: Int64, memoryCap: Int) -> CallOutcome {
        hw_begin(L, limits, budget, timeLimitNanoseconds, memoryCap)
        let status = hw_pcall(L, 0, LUA_MULTRET)
        hw_end(limits)
        return CallOutcome(status: status, stop: limits.pointee.stop)
    }

    /// Pushes a Swift string without a C-string copy.
    @inline(__always)
    func push(_ string: String) {
        if string.utf8.withContiguousStorageIfAvailable({ push(bytes: $0) }) == nil {
            var copy = string
            copy.withUTF8 { push(bytes: $0) }
        }
    }

    @inline(__always)
    private func push(bytes: UnsafeBufferPointer<UInt8>) {
        bytes.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
    }

    /// The string (or number, as Lua converts it) at `index`, decoded as UTF-8; nil for other types.
    func string(at index: Int32) -> String? {
        let type = lua_type(L, index)
        guard type == LUA_TSTRING || type == LUA_TNUMBER else { return nil }
        var length = 0
        guard let chars = lua_tolstring(L, index, &length) else { return nil }
        return chars.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// Lua's name for the type of the value at `index`.
    func typeName(at index: Int32) -> String {
        String(cString: lua_typename(L, lua_type(L, index)))
    }

    /// Pops the value on top into the registry and returns its key.
    func ref() -> lua_Integer {
        lua_Integer(luaL_ref(L, Self.registry))
    }

    func unref(_ reference: lua_Integer) {
        luaL_unref(L, Self.registry, Int32(reference))
    }

    @inline(__always)
    func push(ref reference: lua_Integer) {
        lua_rawgeti(L, Self.registry, reference)
    }
}
