/* sync/engine_threads.c: the parallel engine's host threads: how many of
 * each kind and which partitions each owns (plan_threads,
 * assign_partitions, NOTE(mixed-threads)), the thread contexts of the first
 * run, the quantum barrier's spin/sleep policy (NOTE(oversubscribed-spin)),
 * and thread creation, pinning and arena set-up. What a thread does once
 * started (partition init, the quantum loop) is eng_thread_run in engine.c.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sync/arena.h"
#include "sync/engine.h"
#include "sync/engine_internal.h"
#include "sync/qbarrier.h"
#include "sync/topo.h"

/* -------------------------------------------------------------- threads */

/* Entry of an engine thread: pin it, create its arena (first run; its
 * partitions' state is allocated from it), then run (engine.c). */
static void *thread_main(void *arg)
{
    struct eng_ctx *ctx = arg;
    struct engine *e = ctx->eng;

    if (e->topo_ready)
        ctx->pin_cpu = topo_pin_self(&e->topo, e->pin, (unsigned)ctx->index);
    if (!ctx->arena_ready) {
        if (arena_init(&ctx->arena) != 0)
            sim_panic("engine: thread %d cannot create its allocation arena", ctx->index);
        ctx->arena_ready = true;
    }

    eng_thread_run(ctx);
    return NULL;
}

/* Decide how many threads of each kind, and which partitions each owns. */
static int plan_threads(struct engine *e, const struct eng_run_opts *o, unsigned *n_sm_thr,
                        unsigned *n_mem_thr, char *err, size_t err_len)
{
    unsigned n_sm = 0, n_mem = 0;
    for (unsigned p = 0; p < e->n_parts; p++) {
        if (e->parts[p].kind == ENG_PART_SM)
            n_sm++;
        else
            n_mem++;
    }
    if (o->sm_threads || o->mem_threads) {
        if ((n_sm && !o->sm_threads) || (n_mem && !o->mem_threads)) {
            snprintf(err, err_len, "--sm-threads and --mem-threads must be given together (the model has "
                     "%u SM and %u memory partitions)", n_sm, n_mem);
            return -1;
        }
        if (o->sm_threads > n_sm || o->mem_threads > n_mem) {
            snprintf(err, err_len, "--sm-threads %u / --mem-threads %u exceed the model's %u SM and %u memory "
                     "partitions", o->sm_threads, o->mem_threads, n_sm, n_mem);
            return -1;
        }
        if (o->threads && o->threads != o->sm_threads + o->mem_threads) {
            snprintf(err, err_len, "--threads %u differs from --sm-threads + --mem-threads = %u", o->threads,
                     o->sm_threads + o->mem_threads);
            return -1;
        }
        *n_sm_thr = o->sm_threads;
        *n_mem_thr = o->mem_threads;
        return 0;
    }
    unsigned n = o->threads;
    if (n == 0)
        n = e->topo_ready ? topo_physical_cores(&e->topo) : 1;
    if (n > e->n_parts)
        n = e->n_parts;
    if (n <= 1) {
        *n_sm_thr = 1; /* one thread owns every partition */
        *n_mem_thr = 0;
        return 0;
    }
    if (!n_sm || !n_mem) {
        *n_sm_thr = n_sm ? n : 0;
        *n_mem_thr = n_mem ? n : 0;
        return 0;
    }
    /* NOTE(mixed-threads): without an explicit split every thread owns a
     * contiguous slice of the SM partitions and a slice of the memory
     * partitions (assign_partitions). SM partitions carry most of the work
     * of a GPU model, so a split by kind (one memory thread out of two)
     * would leave the SM thread as the bottleneck; partitions never share
     * state, so mixing kinds on a thread changes nothing in the results. */
    if (!o->sm_threads) {
        *n_sm_thr = n;
        *n_mem_thr = 0;
        return 0;
    }
    /* Split in proportion to partition counts, at least one thread each. */
    unsigned m = (unsigned)((2ull * n * n_mem + e->n_parts) / (2ull * e->n_parts));
    if (m < 1)
        m = 1;
    if (m > n - 1)
        m = n - 1;
    if (m > n_mem)
        m = n_mem;
    unsigned s = n - m;
    if (s > n_sm) {
        s = n_sm;
        m = MIN(n - s, n_mem);
    }
    *n_sm_thr = s;
    *n_mem_thr = m;
    return 0;
}

static void assign_partitions(struct engine *e, unsigned n_sm_thr, unsigned n_mem_thr, int *owner)
{
    unsigned n_sm = 0, n_mem = 0;
    for (unsigned p = 0; p < e->n_parts; p++) {
        if (e->parts[p].kind == ENG_PART_SM)
            n_sm++;
        else
            n_mem++;
    }
    unsigned i_sm = 0, i_mem = 0;
    for (unsigned p = 0; p < e->n_parts; p++) {
        if (n_mem_thr == 0 && n_sm_thr == 1) {
            owner[p] = 0;
        } else if (e->parts[p].kind == ENG_PART_SM) {
            owner[p] = (int)((uint64_t)i_sm++ * n_sm_thr / n_sm);
        } else if (n_mem_thr == 0) {
            /* mixed threads: memory slices in reverse thread order, so that
             * the thread with the smaller SM slice gets the larger memory one */
            owner[p] = (int)(n_sm_thr - 1 - (uint64_t)i_mem++ * n_sm_thr / n_mem);
        } else {
            owner[p] = (int)(n_sm_thr + (uint64_t)i_mem++ * n_mem_thr / n_mem);
        }
    }
}
/* Thread plan and partition mapping of one run (engine_internal.h). */
int eng_threads_map(struct engine *e, const struct eng_run_opts *o, char *err, size_t err_len)
{
    unsigned s_thr = 0, m_thr = 0;
    if (plan_threads(e, o, &s_thr, &m_thr, err, err_len) != 0)
        return -1;
    unsigned n_thr = s_thr + m_thr;
    int *owner = xcalloc(e->n_parts, sizeof *owner);
    assign_partitions(e, s_thr, m_thr, owner);

    if (e->initialized) {
        bool same = n_thr == e->n_threads;
        for (unsigned p = 0; same && p < e->n_parts; p++)
            same = owner[p] == e->parts[p].owner;
        if (!same) {
            free(owner);
            snprintf(err, err_len, "the thread mapping cannot change between runs of one engine");
            return -1;
        }
    } else {
        e->n_threads = n_thr;
        e->threads = aligned_alloc(CACHE_LINE, u64_round_up(n_thr * sizeof *e->threads, CACHE_LINE));
        if (!e->threads)
            sim_panic("out of memory");
        memset(e->threads, 0, n_thr * sizeof *e->threads);
        e->rt = xcalloc(e->n_parts, sizeof *e->rt);
        for (unsigned p = 0; p < e->n_parts; p++)
            e->parts[p].owner = owner[p];
        for (unsigned t = 0; t < n_thr; t++) {
            struct eng_ctx *c = &e->threads[t];
            c->eng = e;
            c->index = (int)t;
            c->pin_cpu = -1;
            c->parts = xcalloc(e->n_parts, sizeof *c->parts);
        }
        for (unsigned p = 0; p < e->n_parts; p++) {
            struct eng_ctx *c = &e->threads[owner[p]];
            c->parts[c->n_parts++] = (int)p;
        }
        eng_chans_create(e);
    }
    free(owner);
    return 0;
}

void eng_threads_barrier_init(struct engine *e)
{
    unsigned n_thr = e->n_threads;
    /* NOTE(oversubscribed-spin): with more threads than hardware threads, a
     * spinning waiter steals the core of the thread everyone waits for.
     * bench/engine on a 2-core VM: 3-4 threads cost ~1 ms per quantum with a
     * 20000-iteration spin but 25-55 us when waiters sleep at once. */
    uint64_t spin = e->cfg.spin_limit;
    if (e->topo_ready && n_thr > topo_pus(&e->topo))
        spin = 0;
    qbar_init(&e->bar, n_thr, (uint32_t)MIN(spin, UINT32_MAX));
    for (unsigned t = 0; t < n_thr; t++) {
        struct eng_ctx *c = &e->threads[t];
        memset(&c->rep, 0, sizeof c->rep);
        c->bar = (struct qbar_state)QBAR_STATE_INITIALIZER;
    }
}

void eng_threads_spawn_join(struct engine *e)
{
    unsigned n_thr = e->n_threads;
    for (unsigned t = 0; t < n_thr; t++) {
        int rc = pthread_create(&e->threads[t].tid, NULL, thread_main, &e->threads[t]);
        if (rc != 0)
            sim_panic("engine: pthread_create failed: %s", strerror(rc));
    }
    for (unsigned t = 0; t < n_thr; t++)
        pthread_join(e->threads[t].tid, NULL);
}
