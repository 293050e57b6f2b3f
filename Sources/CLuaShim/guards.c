/* Guards for the sandbox's library functions. A script's globals live in a fresh table per call, but the
 * library tables and the string metatable are shared by every call that runs in the state: writes to them
 * must fail. And the count hook only sees VM instructions, so a single C call whose loop a script controls
 * must be bounded here. */

#include <lua5.4/lauxlib.h>
#include "CLuaShim.h"
#include "internal.h"

/* Calls upvalue 1 (the original library function) with this call's arguments and returns all its results. */
static int call_original(lua_State *L) {
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

/* __newindex of a library proxy; upvalue 1: the library's name. */
int hw_readonly_newindex(lua_State *L) {
    return luaL_error(L, "'%s' is read-only", lua_tostring(L, lua_upvalueindex(1)));
}

/* rawset, which bypasses __newindex, refusing the library proxies; upvalue 1: a table mapping each proxy to
 * its name. */
int hw_guarded_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_pushvalue(L, 1);
    if (lua_rawget(L, lua_upvalueindex(1)) == LUA_TSTRING) {
        return luaL_error(L, "'%s' is read-only", lua_tostring(L, -1));
    }
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

/* The base library's setmetatable, refusing __gc: a finalizer runs at some later collection, outside the call
 * that made it — inside another script's call, or between calls with no budget armed. */
int hw_guarded_setmetatable(lua_State *L) {
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) return luaL_error(L, "cannot change a protected metatable");
    if (t == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL) return luaL_error(L, "__gc metamethods are not allowed");
        lua_pop(L, 1);
    }
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

/* string.rep answering "" when there is nothing to repeat; upvalue 1: the original. The original copies the
 * empty string n times, so string.rep("", math.maxinteger) would never return. Otherwise it allocates the
 * whole result before its loop, which the memory cap bounds. */
int hw_guarded_rep(lua_State *L) {
    size_t length, separator;
    luaL_checklstring(L, 1, &length);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &separator);
    if (n <= 0 || length + separator == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    return call_original(L);
}

/* table.move charging one instruction per element; upvalue 1: the original, which would otherwise move up to
 * math.maxinteger nils in one call. */
int hw_guarded_move(lua_State *L) {
    lua_Integer first = luaL_checkinteger(L, 2);
    lua_Integer last = luaL_checkinteger(L, 3);
    if (last >= first) hw_charge(L, (lua_Unsigned)last - (lua_Unsigned)first + 1);
    return call_original(L);
}

/* table.insert and table.remove on tables without a metatable; upvalue 1: the original, 2: its name. They
 * shift elements up to #t, and a __len that lies, over __index and __newindex tables, makes that loop endless
 * without a single Lua instruction. Without a metatable #t is bounded by the memory cap. */
int hw_plain_table_only(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_getmetatable(L, 1)) {
        return luaL_error(L, "table.%s needs a table without a metatable", lua_tostring(L, lua_upvalueindex(2)));
    }
    return call_original(L);
}
