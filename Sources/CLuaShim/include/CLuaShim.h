#ifndef CLUASHIM_H
#define CLUASHIM_H

/*
 * CLuaShim: the C that Swift cannot be for the scoring sandbox.
 *  - a memory-capped allocator and the count hook (the hook raises Lua errors, which longjmp: that must not
 *    cross Swift frames), both reading one hw_limits per lua_State;
 *  - guards for the few library functions whose single C call could loop without running a Lua instruction,
 *    so neither the count hook nor the clock could stop them;
 *  - wrappers for Lua's function-like macros and variadic functions, which Swift does not import.
 */

#include <stddef.h>
#include <lua5.4/lua.h>

/* Why the count hook stopped the running call (hw_limits.stop). */
#define HW_STOP_NONE 0
#define HW_STOP_BUDGET 1
#define HW_STOP_TIME 2

/* The count hook runs every this many VM instructions: the budget's granularity, and the deadline's. */
#define HW_HOOK_EVERY 100

/* The limits of one lua_State: the allocator's userdata, found again by the hook through lua_getallocf. */
typedef struct hw_limits {
    size_t used;            /* bytes the state has allocated right now */
    size_t cap;             /* an allocation that would take `used` past this is refused; SIZE_MAX = no cap */
    long long budget;       /* VM instructions the current call may run */
    long long spent;        /* instructions counted so far (in steps of the hook's count) */
    long long deadline_ns;  /* CLOCK_MONOTONIC_COARSE time after which the current call is stopped */
    int stop;               /* HW_STOP_*: why the current call was stopped */
} hw_limits;

/* A new state allocating through the capped allocator (uncapped until hw_begin), or NULL without memory. */
lua_State *hw_newstate(hw_limits *lim);

/* Arms the limits for one protected call: a fresh count and deadline, the hook re-armed at its normal count
 * (a stop leaves it firing on every instruction), and the memory cap switched on. */
void hw_begin(lua_State *L, hw_limits *lim, long long budget, long long time_limit_ns, size_t cap);

/* Switches the memory cap off, so that the engine's own bookkeeping between calls can never fail. */
void hw_end(hw_limits *lim);

/* lua_gc is variadic: the two uses the engine needs. */
void hw_gc_stop(lua_State *L);
void hw_gc_collect(lua_State *L);

/* Library guards (lua_CFunctions installed by the sandbox; see guards.c for their upvalues). */
int hw_readonly_newindex(lua_State *L);
int hw_guarded_rawset(lua_State *L);
int hw_guarded_setmetatable(lua_State *L);
int hw_guarded_rep(lua_State *L);
int hw_guarded_move(lua_State *L);
int hw_plain_table_only(lua_State *L);

/* Lua's macros, as functions Swift can call. */
static inline int hw_registry_index(void) { return LUA_REGISTRYINDEX; }
static inline int hw_pcall(lua_State *L, int nargs, int nresults) { return lua_pcall(L, nargs, nresults, 0); }

#endif
