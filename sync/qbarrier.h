/* sync/qbarrier.h: sense-reversing quantum barrier with one serial hook.
 *
 * All host threads of a run meet here at the end of every quantum. The last
 * thread to arrive runs the serial hook (end-of-quantum work: CTA dispatch,
 * termination check, time advance) while the others wait, then releases
 * them by advancing the shared sense. qbar_wait tells its caller whether it
 * was the serial thread.
 *
 * The sense is an episode counter: sense reversal widened from one bit to
 * 32, so the release of round r stores r+1 and a waiter waits while the
 * sense still holds the value it saw at its arrival. The width matters when
 * the set of participants changes (the engine parks and re-activates
 * threads at quantum boundaries): a thread that leaves the barrier late, after
 * later rounds already completed without it, still sees "changed" and
 * never waits for a value that will not come back.
 *
 * Participants: the serial hook may change how many threads take part from
 * the next round on (qbar_set_participants) and admit a thread that was not
 * taking part (qbar_state_join); the thread must then not arrive before the
 * round's release (the engine wakes it after qbar_wait returned true).
 *
 * Waiting: spin on the sense word with a pause instruction for up to
 * `spin_limit` iterations, then sleep in futex(FUTEX_WAIT) so that more
 * threads than cores still progress (a spinning thread would otherwise steal
 * the core of the thread everyone waits for). The spin limit can be changed
 * at any time (qbar_set_spin). An optional spin check, called every
 * `check_every` iterations, can end the spin early (the engine's asks
 * whether the thread being waited for is running at all). The releaser
 * issues FUTEX_WAKE only when some thread is asleep.
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

struct qbar_state;

/* Spin check: called by a spinning waiter every check_every iterations
 * (want: the sense value the waiter waits for, which every thread of this
 * round stores as its arrival mark; iter: iterations spun so far in this
 * wait); return false to stop spinning and sleep now. Runs concurrently in
 * every waiter; it must not read s->sense (a serial step of a later round
 * may be re-arming s for a thread that is leaving this one late). */
typedef bool (*qbar_spin_check_fn)(void *arg, struct qbar_state *s, uint32_t want, uint32_t iter);

struct qbar {
    CACHE_ALIGNED atomic_u32 remaining; /* threads still to arrive this round */
    CACHE_ALIGNED atomic_u32 sense;     /* episode counter, advanced by the last arriver; the futex word */
    atomic_u32 sleepers;                /* threads inside futex wait */
    CACHE_ALIGNED atomic_u32 n;         /* participants from the next round on (written by the hook) */
    atomic_u32 spin_limit;              /* pause-loop iterations before sleeping */
    qbar_spin_check_fn spin_check;      /* optional early end of spinning (read-only after init) */
    void *spin_check_arg;
    uint32_t check_every;               /* iterations between spin checks (>= 1) */
};

/* Per-thread companion: the sense this thread waits for, plus counters. */
struct qbar_state {
    uint32_t sense;       /* sense value after this thread's last release */
    uint32_t awaited;     /* sense value before this thread's last arrival (qbar_await waits for a change;
                           * apart from `sense`, which the hook's qbar_state_join may write meanwhile) */
    uint64_t rounds;      /* barriers passed */
    uint64_t serial;      /* rounds in which this thread ran the hook */
    uint64_t sleeps;      /* futex waits entered */
    uint64_t spin_aborts; /* spins ended early by the spin check */
    atomic_u64 sleep_ns;  /* ns spent in futex wait (owner adds; others may read) */
};

#define QBAR_STATE_INITIALIZER {0, 0, 0, 0, 0, 0, 0}

void qbar_init(struct qbar *b, uint32_t n_threads, uint32_t spin_limit);

/* Install a spin check (before any thread waits). */
void qbar_set_spin_check(struct qbar *b, qbar_spin_check_fn fn, void *arg, uint32_t check_every);

/* Change the spin limit (any thread, any time; read at the start of a wait). */
void qbar_set_spin(struct qbar *b, uint32_t spin_limit);

/* From the serial hook only: the number of threads that take part in the
 * rounds after this one. */
void qbar_set_participants(struct qbar *b, uint32_t n_threads);

/* From the serial hook only: prepare s, the companion of a thread that did
 * not take part in this round, to take part in the next one. */
void qbar_state_join(const struct qbar *b, struct qbar_state *s);

/* Arrive and wait. The last arriver calls serial(arg) (if non-NULL) before
 * releasing the others and returns true; everyone else returns false. All
 * memory written by any thread before its arrival is visible to the serial
 * hook, and everything written by the hook is visible to all threads after
 * they return. */
bool qbar_wait(struct qbar *b, struct qbar_state *s, void (*serial)(void *arg), void *arg);

/* qbar_wait in two halves, so that a thread may work between arriving and
 * waiting (NOTE(ahead) in sync/engine.c): qbar_arrive arrives and, for the
 * last arriver, runs serial and releases (true); the others (false) must
 * call qbar_await before arriving again. Same memory ordering as
 * qbar_wait. */
bool qbar_arrive(struct qbar *b, struct qbar_state *s, void (*serial)(void *arg), void *arg);
void qbar_await(struct qbar *b, struct qbar_state *s);

#endif /* GPUSIM_SYNC_QBARRIER_H */
