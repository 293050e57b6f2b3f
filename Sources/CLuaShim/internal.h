#ifndef CLUASHIM_INTERNAL_H
#define CLUASHIM_INTERNAL_H

#include <lua5.4/lua.h>

/* Charges a library call's own work to the running call's instruction budget; raises (longjmp) when the
 * budget cannot pay for it. For C code that runs inside a Lua call only: never visible to Swift. */
void hw_charge(lua_State *L, lua_Unsigned instructions);

#endif
