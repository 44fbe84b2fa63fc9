/* sync/qbarrier.c: see qbarrier.h. */
#include "sync/qbarrier.h"

#include <time.h>

#include "sync/futex.h"

void qbar_init(struct qbar *b, uint32_t n_threads, uint32_t spin_limit)
{
    SIM_ASSERT(n_threads >= 1, "barrier needs at least one thread");
    atomic_init(&b->remaining, n_threads);
    atomic_init(&b->sense, 0);
    atomic_init(&b->sleepers, 0);
    atomic_init(&b->n, n_threads);
    atomic_init(&b->spin_limit, spin_limit);
    b->spin_check = NULL;
    b->spin_check_arg = NULL;
    b->check_every = 1;
}

void qbar_set_spin_check(struct qbar *b, qbar_spin_check_fn fn, void *arg, uint32_t check_every)
{
    b->spin_check = fn;
    b->spin_check_arg = arg;
    b->check_every = check_every ? check_every : 1;
}

void qbar_set_spin(struct qbar *b, uint32_t spin_limit) { at_store_rlx_u32(&b->spin_limit, spin_limit); }

void qbar_set_participants(struct qbar *b, uint32_t n_threads)
{
    SIM_ASSERT(n_threads >= 1, "barrier needs at least one thread");
    at_store_rlx_u32(&b->n, n_threads); /* read by this thread right after the hook */
}

void qbar_state_join(const struct qbar *b, struct qbar_state *s)
{
    /* Inside the hook the sense still holds this round's value; the release
     * will advance it by one, which is the value the joiner's next arrival
     * starts from. Only serial threads write the sense, so relaxed is enough. */
    s->sense = at_load_rlx_u32(&b->sense) + 1u;
}

#ifndef NDEBUG
static uint64_t mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec;
}
#endif

bool qbar_arrive(struct qbar *b, struct qbar_state *s, void (*serial)(void *arg), void *arg)
{
    uint32_t want = s->sense + 1u;
    s->awaited = s->sense;
    s->sense = want;
    s->rounds++;

    /* acq_rel: our writes before arrival are released to the last arriver,
     * and the last arriver acquires everyone's. */
    if (at_fetch_sub_acqrel_u32(&b->remaining, 1) == 1) {
        if (serial)
            serial(arg);
        s->serial++;
        /* the hook may have changed n; published by the release below */
        at_store_rlx_u32(&b->remaining, at_load_rlx_u32(&b->n));
        /* seq_cst store then seq_cst load of sleepers: pairs with the waiter's
         * seq_cst increment of sleepers then (kernel) re-check of sense. One of
         * the two sides always sees the other, so no wake is lost. */
        atomic_store_explicit(&b->sense, want, memory_order_seq_cst);
        if (atomic_load_explicit(&b->sleepers, memory_order_seq_cst) != 0)
            sync_futex_wake_all(&b->sense);
        return true;
    }
    return false;
}

bool qbar_wait(struct qbar *b, struct qbar_state *s, void (*serial)(void *arg), void *arg)
{
    if (qbar_arrive(b, s, serial, arg))
        return true;
    qbar_await(b, s);
    return false;
}

void qbar_await(struct qbar *b, struct qbar_state *s)
{
    uint32_t old = s->awaited, want = old + 1u;
    /* Spin, then sleep. The acquire load pairs with the releaser's store of
     * sense; "changed" rather than "equals want" (see the header). */
    uint32_t limit = at_load_rlx_u32(&b->spin_limit), every = b->check_every, next_check = every;
    for (uint32_t i = 0; i < limit; i++) {
        if (at_load_acq_u32(&b->sense) != old)
            return;
        cpu_relax();
        if (b->spin_check && i + 1 == next_check) {
            next_check += every;
            if (!b->spin_check(b->spin_check_arg, s, want, i + 1)) {
                s->spin_aborts++;
                break;
            }
        }
    }
#ifndef NDEBUG
    uint64_t start = mono_s();
#endif
    while (at_load_acq_u32(&b->sense) == old) {
        struct timespec to = {1, 0};
        uint64_t t0 = sync_mono_ns();
        atomic_fetch_add_explicit(&b->sleepers, 1, memory_order_seq_cst);
        s->sleeps++;
        sync_futex_wait(&b->sense, old, &to);
        atomic_fetch_sub_explicit(&b->sleepers, 1, memory_order_seq_cst);
        at_fetch_add_rlx_u64(&s->sleep_ns, sync_mono_ns() - t0);
#ifndef NDEBUG
        if (at_load_acq_u32(&b->sense) == old && mono_s() - start > QBAR_DEBUG_DEADLINE_S)
            sim_panic("quantum barrier: no release after %d s (%u threads, round %llu)",
                      QBAR_DEBUG_DEADLINE_S, at_load_rlx_u32(&b->n), (unsigned long long)s->rounds);
#endif
    }
}
