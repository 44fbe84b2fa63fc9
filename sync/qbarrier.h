/* sync/qbarrier.h: sense-reversing quantum barrier with one serial hook.
 *
 * All host threads of a run meet here at the end of every quantum. The last
 * thread to arrive runs the serial hook (end-of-quantum work: CTA dispatch,
 * termination check, time advance) while the others wait, then releases
 * them by flipping the shared sense. qbar_wait tells its caller whether it
 * was the serial thread.
 *
 * Waiting: spin on the sense word with a pause instruction for up to
 * `spin_limit` iterations, then sleep in futex(FUTEX_WAIT) so that more
 * threads than cores still progress (a spinning thread would otherwise steal
 * the core of the thread everyone waits for). The releaser issues
 * FUTEX_WAKE only when some thread is asleep.
 *
 * In debug builds (no NDEBUG) a waiter that sees no release for
 * `QBAR_DEBUG_DEADLINE_S` seconds panics instead of hanging.
 *
 * No locks; only atomics (sync/atomics.h) and the futex system call.
 */
#ifndef GPUSIM_SYNC_QBARRIER_H
#define GPUSIM_SYNC_QBARRIER_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/base/common.h"
#include "sync/atomics.h"

#define QBAR_DEBUG_DEADLINE_S 120

struct qbar {
    CACHE_ALIGNED atomic_u32 remaining; /* threads still to arrive this round */
    CACHE_ALIGNED atomic_u32 sense;     /* flipped by the last arriver; the futex word */
    atomic_u32 sleepers;                /* threads inside futex wait */
    CACHE_ALIGNED uint32_t n;           /* participating threads (read-only) */
    uint32_t spin_limit;                /* pause-loop iterations before sleeping */
};

/* Per-thread companion: the sense this thread waits for, plus counters. */
struct qbar_state {
    uint32_t sense;    /* local sense, flipped at each arrival */
    uint64_t rounds;   /* barriers passed */
    uint64_t serial;   /* rounds in which this thread ran the hook */
    uint64_t sleeps;   /* futex waits entered */
};

#define QBAR_STATE_INITIALIZER {0, 0, 0, 0}

void qbar_init(struct qbar *b, uint32_t n_threads, uint32_t spin_limit);

/* Arrive and wait. The last arriver calls serial(arg) (if non-NULL) before
 * releasing the others and returns true; everyone else returns false. All
 * memory written by any thread before its arrival is visible to the serial
 * hook, and everything written by the hook is visible to all threads after
 * they return. */
bool qbar_wait(struct qbar *b, struct qbar_state *s, void (*serial)(void *arg), void *arg);

#endif /* GPUSIM_SYNC_QBARRIER_H */
