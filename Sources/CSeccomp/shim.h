#ifndef CSECCOMP_SHIM_H
#define CSECCOMP_SHIM_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <signal.h>
#include <unistd.h>
#include <seccomp.h>

/* seccomp.h's actions are macros (one of them function-like): as constants Swift can read. */
static const uint32_t hw_seccomp_allow = SCMP_ACT_ALLOW;
static const uint32_t hw_seccomp_kill_process = SCMP_ACT_KILL_PROCESS;
static const uint32_t hw_seccomp_errno_nosys = SCMP_ACT_ERRNO(ENOSYS);
static const uint32_t hw_seccomp_errno_access = SCMP_ACT_ERRNO(EACCES);

/* Closes every descriptor from `first` up: a worker keeps only its socket and stdio. */
static inline int hw_close_from(unsigned int first) { return close_range(first, ~0U, 0); }

/* The kernel kills the worker when the server thread that started it ends (pool threads live as long as the
   server): a worker busy with a file when the server stops does not outlive it. */
static inline int hw_die_with_parent(void) { return prctl(PR_SET_PDEATHSIG, SIGKILL); }

/* One malloc arena for every thread: threads allocate as the main thread does (brk and mmap), never creating or
   trimming heaps of their own, which reads /proc. */
static inline int hw_single_malloc_arena(void) { return mallopt(M_ARENA_MAX, 1); }
#endif
