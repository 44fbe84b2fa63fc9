/* sync/futex.h: the two futex calls the engine sleeps and wakes with.
 *
 * Used by the quantum barrier (sync/qbarrier.c: waiters that stop spinning)
 * and by the engine's parked threads (sync/engine_threads.c: threads that
 * own no partition while the engine runs on fewer threads). Both wait on a
 * 32-bit atomic word for it to change from an expected value; the kernel
 * re-checks the value under its own lock, so a wake issued after the word
 * changed is never lost. Private futexes: the words never leave the process.
 *
 * Not a lock and not a condition variable: callers loop on their own
 * condition around sync_futex_wait (spurious and time-out returns are
 * normal).
 */
#ifndef GPUSIM_SYNC_FUTEX_H
#define GPUSIM_SYNC_FUTEX_H

#include <limits.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sync/atomics.h"

/* Sleep while *addr == expect (or until to elapses; NULL = no limit). */
static inline long sync_futex_wait(atomic_u32 *addr, uint32_t expect, const struct timespec *to)
{
    return syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT_PRIVATE, expect, to, NULL, 0);
}

/* Wake every thread sleeping on addr. */
static inline void sync_futex_wake_all(atomic_u32 *addr)
{
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* CLOCK_MONOTONIC in ns (vDSO, about 20 ns). */
static inline uint64_t sync_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif /* GPUSIM_SYNC_FUTEX_H */
