/* The limits of a Lua state: a memory-capped allocator and the count hook that enforces the instruction
 * budget and the time limit. Both find their hw_limits as the allocator's userdata. */

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <lua5.4/lauxlib.h>
#include "CLuaShim.h"
#include "internal.h"

/* Refuses growth past the cap. Returning NULL is all it ever does to say no: Lua then collects garbage, retries
 * once, and raises "not enough memory" itself, so the allocator never raises and never runs Lua code. */
static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    hw_limits *lim = (hw_limits *)ud;
    size_t old = ptr ? osize : 0; /* without a block, osize is a type tag, not a size */
    if (nsize == 0) {
        free(ptr);
        lim->used -= old;
        return NULL;
    }
    if (nsize > old) {
        size_t growth = nsize - old;
        if (growth > lim->cap || lim->used > lim->cap - growth) return NULL;
    }
    void *block = realloc(ptr, nsize);
    if (block == NULL) return NULL;
    lim->used = lim->used - old + nsize;
    return block;
}

/* An unprotected error is a bug in the engine, not in a script: say so before Lua aborts. */
static int panic(lua_State *L) {
    const char *message = lua_tostring(L, -1);
    fprintf(stderr, "Scoring: unprotected Lua error: %s\n", message ? message : "(not a string)");
    return 0;
}

/* The coarse clock is a vDSO read of a few nanoseconds; its few milliseconds of resolution suit a backstop. */
static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static hw_limits *limits_of(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (hw_limits *)ud;
}

static void count_hook(lua_State *L, lua_Debug *ar);

/* Stops the running call. From now on the hook fires on every instruction and stops it again, so a script that
 * catches the error with pcall cannot run on: each enclosing pcall level unwinds in turn.
 *
 * The stop is raised as a memory error, never with lua_error: lua_error calls the message handler of an
 * enclosing xpcall, and from inside this hook Lua runs that handler with hooks disabled, so it would run
 * unmetered (xpcall(f, function() while true do end end) never returned). A memory error is the one Lua error
 * that calls no handler and no metamethod: the stopped call refuses every further allocation (cap 0, until
 * hw_end), and this one fails. __close handlers that run while the error unwinds do so with hooks enabled, so
 * the hook stops them after one instruction. The engine words the message from lim->stop. */
static int stop_call(lua_State *L, hw_limits *lim, int why) {
    if (lim->stop == HW_STOP_NONE) lim->stop = why;
    lim->cap = 0;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    lua_newuserdatauv(L, 0, 0); /* refused: raises LUA_ERRMEM and does not return */
    return luaL_error(L, "the script was stopped"); /* not reached: Lua always raises on a refused allocation */
}

static void count_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    hw_limits *lim = limits_of(L);
    if (lim->stop == HW_STOP_NONE) {
        lim->spent += HW_HOOK_EVERY;
        if (lim->spent > lim->budget) {
            stop_call(L, lim, HW_STOP_BUDGET);
        } else if (now_ns() > lim->deadline_ns) {
            stop_call(L, lim, HW_STOP_TIME);
        }
        return;
    }
    stop_call(L, lim, lim->stop);
}

void hw_charge(lua_State *L, lua_Unsigned instructions) {
    hw_limits *lim = limits_of(L);
    lua_Unsigned left = lim->spent < lim->budget ? (lua_Unsigned)(lim->budget - lim->spent) : 0;
    if (lim->stop != HW_STOP_NONE || instructions > left) stop_call(L, lim, HW_STOP_BUDGET);
    lim->spent += (long long)instructions;
}

lua_State *hw_newstate(hw_limits *lim) {
    *lim = (hw_limits){.cap = SIZE_MAX, .budget = LLONG_MAX, .deadline_ns = LLONG_MAX};
    lua_State *L = lua_newstate(capped_alloc, lim);
    if (L) lua_atpanic(L, panic);
    return L;
}

void hw_begin(lua_State *L, hw_limits *lim, long long budget, long long time_limit_ns, size_t cap) {
    lim->budget = budget;
    lim->spent = 0;
    lim->stop = HW_STOP_NONE;
    lim->deadline_ns = now_ns() + time_limit_ns;
    lim->cap = cap;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, HW_HOOK_EVERY);
}

void hw_end(hw_limits *lim) { lim->cap = SIZE_MAX; }

void hw_gc_stop(lua_State *L) { lua_gc(L, LUA_GCSTOP); }

void hw_gc_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }
