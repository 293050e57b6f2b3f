#ifndef CSECCOMP_SHIM_H
#define CSECCOMP_SHIM_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <unistd.h>
#include <seccomp.h>

/* seccomp.h's actions are macros (one of them function-like): as constants Swift can read. */
static const uint32_t hw_seccomp_allow = SCMP_ACT_ALLOW;
static const uint32_t hw_seccomp_kill_process = SCMP_ACT_KILL_PROCESS;

/* Closes every descriptor from `first` up: a worker keeps only its socket and stdio. */
static inline int hw_close_from(unsigned int first) { return close_range(first, ~0U, 0); }
#endif
