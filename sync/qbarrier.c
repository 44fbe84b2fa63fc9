/* sync/qbarrier.c: see qbarrier.h. */
#include "sync/qbarrier.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long futex_wait(atomic_u32 *addr, uint32_t expect, const struct timespec *to)
{
    return syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT_PRIVATE, expect, to, NULL, 0);
}

static void futex_wake_all(atomic_u32 *addr)
{
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void qbar_init(struct qbar *b, uint32_t n_threads, uint32_t spin_limit)
{
    SIM_ASSERT(n_threads >= 1, "barrier needs at least one thread");
    atomic_init(&b->remaining, n_threads);
    atomic_init(&b->sense, 0);
    atomic_init(&b->sleepers, 0);
    b->n = n_threads;
    b->spin_limit = spin_limit;
}

#ifndef NDEBUG
static uint64_t mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec;
}
#endif

bool qbar_wait(struct qbar *b, struct qbar_state *s, void (*serial)(void *arg), void *arg)
{
    uint32_t want = s->sense ^ 1u;
    s->sense = want;
    s->rounds++;

    /* acq_rel: our writes before arrival are released to the last arriver,
     * and the last arriver acquires everyone's. */
    if (at_fetch_sub_acqrel_u32(&b->remaining, 1) == 1) {
        if (serial)
            serial(arg);
        s->serial++;
        at_store_rlx_u32(&b->remaining, b->n); /* published by the release below */
        /* seq_cst store then seq_cst load of sleepers: pairs with the waiter's
         * seq_cst increment of sleepers then (kernel) re-check of sense. One of
         * the two sides always sees the other, so no wake is lost. */
        atomic_store_explicit(&b->sense, want, memory_order_seq_cst);
        if (atomic_load_explicit(&b->sleepers, memory_order_seq_cst) != 0)
            futex_wake_all(&b->sense);
        return true;
    }

    /* Spin, then sleep. The acquire load pairs with the releaser's store of sense. */
    for (uint32_t i = 0; i < b->spin_limit; i++) {
        if (at_load_acq_u32(&b->sense) == want)
            return false;
        cpu_relax();
    }
#ifndef NDEBUG
    uint64_t start = mono_s();
#endif
    while (at_load_acq_u32(&b->sense) != want) {
        struct timespec to = {1, 0};
        atomic_fetch_add_explicit(&b->sleepers, 1, memory_order_seq_cst);
        s->sleeps++;
        futex_wait(&b->sense, want ^ 1u, &to);
        atomic_fetch_sub_explicit(&b->sleepers, 1, memory_order_seq_cst);
#ifndef NDEBUG
        if (at_load_acq_u32(&b->sense) != want && mono_s() - start > QBAR_DEBUG_DEADLINE_S)
            sim_panic("quantum barrier: no release after %d s (%u threads, round %llu)",
                      QBAR_DEBUG_DEADLINE_S, b->n, (unsigned long long)s->rounds);
#endif
    }
    return false;
}
