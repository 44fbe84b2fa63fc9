/* sync/engine.c: the deterministic parallel engine; see engine.h.
 *
 * Structure:
 *  - Topology (domains, partitions, units, links) is built on one thread and
 *    is read-only while running.
 *  - Each host thread (struct eng_ctx) owns a contiguous block of SM-kind or
 *    memory-kind partitions. A partition's runtime (struct eng_part_rt: wake
 *    times, per-unit send sequence numbers, inbound message heap) is
 *    allocated by its owner thread from its own arena.
 *  - Cross-partition messages go through one channel per ordered pair of
 *    threads (an SPSC ring plus a producer-owned overflow list per quantum
 *    parity); a consumer drains its inbound channels at the start of each
 *    quantum into the destination partitions' heaps. Messages between units
 *    of one partition go straight into the partition's heap.
 *  - Heap order is the key (arrival, source unit, source sequence), which is
 *    unique, so delivery order never depends on which thread got there first.
 *
 * Files: this one holds the public API (build, finalize, run, destroy),
 * the quantum loop (eng_thread_run), partition runs and the serial step;
 * engine_msg.c the messages (send, pool and heap, inbound drain, channels);
 * engine_threads.c the host threads (plan and mapping, NOTE(mixed-threads);
 * barrier spin/sleep policy, NOTE(oversubscribed-spin); creation and
 * pinning; re-partitioning and parking, NOTE(parking)); engine_adapt.c
 * when to re-partition (NOTE(adaptive)); engine_internal.h the shared
 * structures.
 *
 * Moving partitions: the adaptive engine (sync.adaptive) changes the
 * mapping at quantum boundaries, in the serial step. A partition's state
 * stays where its first owner allocated it (first touch); on one socket
 * that costs only the cache refill of the new owner. What it deliberately
 * does not do: move a partition inside a quantum, or migrate its memory.
 */
#include "sync/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/base/common.h"
#include "sim/base/diag.h"
#include "sync/arena.h"
#include "sync/atomics.h"
#include "sync/engine_internal.h"
#include "sync/futex.h"
#include "sync/qbarrier.h"
#include "sync/topo.h"

/* --------------------------------------------------------------- utils */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline double ns_to_s(uint64_t ns) { return (double)ns * 1e-9; }

/* First edge of period p at or after t. */
static inline ps_t edge_at_or_after(ps_t t, ps_t p)
{
    if (t >= PS_NEVER - p)
        return PS_NEVER;
    return (t + p - 1) / p * p;
}

/* --------------------------------------------------------------- build */

struct engine *eng_create(const struct engine_cfg *cfg, void *model)
{
    struct engine *e = xcalloc(1, sizeof *e);
    e->cfg = *cfg;
    e->model = model;
    e->lookahead = PS_NEVER;
    atomic_init(&e->active_hint, 0);
    atomic_init(&e->park_gen, 0);
    return e;
}

int eng_domain_add(struct engine *e, const char *name, ps_t period_ps)
{
    SIM_ASSERT(!e->finalized, "engine: domain added after finalize");
    SIM_ASSERT(period_ps > 0, "engine: domain %s has period 0", name);
    if (e->n_domains == e->cap_domains) {
        e->cap_domains = e->cap_domains ? 2 * e->cap_domains : 4;
        e->domains = xrealloc(e->domains, e->cap_domains * sizeof *e->domains);
    }
    struct eng_domain *d = &e->domains[e->n_domains];
    snprintf(d->name, sizeof d->name, "%s", name);
    d->period = period_ps;
    return (int)e->n_domains++;
}

int eng_partition_add(struct engine *e, const char *name, enum eng_part_kind kind, eng_part_init_fn init,
                      eng_part_fini_fn fini)
{
    SIM_ASSERT(!e->finalized, "engine: partition added after finalize");
    if (e->n_parts == e->cap_parts) {
        e->cap_parts = e->cap_parts ? 2 * e->cap_parts : 16;
        e->parts = xrealloc(e->parts, e->cap_parts * sizeof *e->parts);
    }
    struct eng_part_desc *p = &e->parts[e->n_parts];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->kind = kind;
    p->init = init;
    p->fini = fini;
    p->owner = -1;
    return (int)e->n_parts++;
}

uint32_t eng_unit_add(struct engine *e, int partition, int domain, const struct eng_unit_ops *ops)
{
    SIM_ASSERT(!e->finalized, "engine: unit added after finalize");
    SIM_ASSERT(partition >= 0 && (unsigned)partition < e->n_parts, "engine: bad partition %d", partition);
    SIM_ASSERT(domain >= 0 && (unsigned)domain < e->n_domains, "engine: bad domain %d", domain);
    SIM_ASSERT(ops && ops->tick && ops->recv, "engine: unit ops incomplete");
    if (e->n_units == e->cap_units) {
        e->cap_units = e->cap_units ? 2 * e->cap_units : 64;
        e->units = xrealloc(e->units, e->cap_units * sizeof *e->units);
    }
    struct eng_unit_rec *u = &e->units[e->n_units];
    memset(u, 0, sizeof *u);
    u->partition = partition;
    u->domain = domain;
    u->ops = ops;
    struct eng_part_desc *p = &e->parts[partition];
    if (p->n_units == p->cap_units) {
        p->cap_units = p->cap_units ? 2 * p->cap_units : 4;
        p->units = xrealloc(p->units, p->cap_units * sizeof *p->units);
    }
    p->units[p->n_units++] = e->n_units;
    return e->n_units++;
}

void eng_link_add(struct engine *e, uint32_t src, uint32_t dst, ps_t min_latency_ps)
{
    SIM_ASSERT(!e->finalized, "engine: link added after finalize");
    SIM_ASSERT(src < e->n_units && dst < e->n_units, "engine: link %u->%u names no unit", src, dst);
    SIM_ASSERT(min_latency_ps > 0, "engine: link %u->%u has zero latency", src, dst);
    struct eng_unit_rec *u = &e->units[src];
    for (unsigned i = 0; i < u->n_links; i++) {
        if (u->links[i].dst == dst) {
            u->links[i].min_lat = MIN(u->links[i].min_lat, min_latency_ps);
            return;
        }
    }
    if (u->n_links == u->cap_links) {
        u->cap_links = u->cap_links ? 2 * u->cap_links : 4;
        u->links = xrealloc(u->links, u->cap_links * sizeof *u->links);
    }
    /* keep sorted by dst for binary search in eng_send */
    unsigned i = u->n_links;
    while (i > 0 && u->links[i - 1].dst > dst) {
        u->links[i] = u->links[i - 1];
        i--;
    }
    u->links[i].dst = dst;
    u->links[i].min_lat = min_latency_ps;
    u->n_links++;
}

void eng_set_serial(struct engine *e, eng_serial_fn fn) { e->serial = fn; }
void eng_set_ahead(struct engine *e, eng_ahead_fn fn) { e->ahead_fn = fn; }

static int cmp_tick_order(const void *a, const void *b, void *arg)
{
    const struct engine *e = arg;
    uint32_t ua = *(const uint32_t *)a, ub = *(const uint32_t *)b;
    int da = e->units[ua].domain, db = e->units[ub].domain;
    if (da != db)
        return da < db ? -1 : 1;
    return ua < ub ? -1 : ua > ub;
}

int eng_finalize(struct engine *e, struct diag *d)
{
    size_t before = diag_count(d);
    if (e->n_parts == 0)
        diag_add(d, NULL, 0, 0, "engine: the model has no partitions");
    for (unsigned p = 0; p < e->n_parts; p++) {
        struct eng_part_desc *pd = &e->parts[p];
        qsort_r(pd->units, pd->n_units, sizeof *pd->units, cmp_tick_order, e);
        for (unsigned i = 0; i < pd->n_units; i++)
            e->units[pd->units[i]].local = i;
    }
    ps_t L = PS_NEVER;
    for (unsigned u = 0; u < e->n_units; u++) {
        const struct eng_unit_rec *ur = &e->units[u];
        for (unsigned i = 0; i < ur->n_links; i++)
            if (e->units[ur->links[i].dst].partition != ur->partition)
                L = MIN(L, ur->links[i].min_lat);
    }
    e->lookahead = L;
    /* NOTE(ahead): an SM partition may run ahead when every partition that
     * sends to it is a memory partition (those run first in a quantum). */
    for (unsigned p = 0; p < e->n_parts; p++)
        e->parts[p].ahead_capable = e->parts[p].kind == ENG_PART_SM;
    for (unsigned u = 0; u < e->n_units; u++) {
        const struct eng_unit_rec *ur = &e->units[u];
        for (unsigned i = 0; i < ur->n_links; i++) {
            int dp = e->units[ur->links[i].dst].partition;
            if (dp != ur->partition && e->parts[ur->partition].kind != ENG_PART_MEM)
                e->parts[dp].ahead_capable = false;
        }
    }
    /* NOTE(link-table): every send checks its latency against the link's
     * minimum (the lookahead's guarantee); a dense table answers that with
     * one load instead of a binary search of the sender's sorted links
     * (0.6 % of bfs small's instructions). Up to ENG_LINK_TABLE_MAX units
     * (8 MiB); larger models keep the search. */
    free(e->link_min);
    e->link_min = NULL;
    if (e->n_units <= ENG_LINK_TABLE_MAX) {
        e->link_min = xcalloc((size_t)e->n_units * e->n_units, sizeof *e->link_min);
        for (unsigned u = 0; u < e->n_units; u++)
            for (unsigned i = 0; i < e->units[u].n_links; i++)
                e->link_min[(size_t)u * e->n_units + e->units[u].links[i].dst] = e->units[u].links[i].min_lat;
    }
    if (e->cfg.quantum_ps)
        e->quantum = e->cfg.quantum_ps;
    else
        e->quantum = (L != PS_NEVER) ? L : 1000000; /* no cross-partition traffic: 1 us */
    if (L != PS_NEVER && e->quantum > L && !e->cfg.relaxed)
        diag_add(d, NULL, 0, 0,
                 "key 'sync.quantum': %llu ps is larger than the lookahead L = %llu ps (the minimum "
                 "cross-partition latency); exact mode needs quantum <= L: set sync.relaxed = true "
                 "for relaxed mode, or lower sync.quantum",
                 (unsigned long long)e->quantum, (unsigned long long)L);
    if (!is_pow2_u64(e->cfg.ring_slots) || e->cfg.ring_slots > (1u << 30))
        diag_add(d, NULL, 0, 0, "key 'sync.ring_slots': %llu is not a power of two up to 2^30",
                 (unsigned long long)e->cfg.ring_slots);
    e->finalized = diag_count(d) == before;
    return e->finalized ? 0 : -1;
}

ps_t eng_lookahead(const struct engine *e) { return e->lookahead; }
ps_t eng_quantum(const struct engine *e) { return e->quantum; }
unsigned eng_n_partitions(const struct engine *e) { return e->n_parts; }
unsigned eng_n_units(const struct engine *e) { return e->n_units; }
ps_t eng_now(const struct engine *e) { return e->q_start; }
int eng_ctx_thread(const struct eng_ctx *ctx) { return ctx->index; }

void eng_thread_report_add(struct eng_thread_report *acc, const struct eng_thread_report *r)
{
    acc->n_partitions = r->n_partitions;
    acc->cpu = r->cpu;
    acc->msgs_sent += r->msgs_sent;
    acc->msgs_overflow += r->msgs_overflow;
    acc->msgs_xthread += r->msgs_xthread;
    acc->barrier_sleeps += r->barrier_sleeps;
    acc->spin_aborts += r->spin_aborts;
    acc->quanta += r->quanta;
    acc->steals += r->steals;
    acc->ahead_runs += r->ahead_runs;
    acc->busy_s += r->busy_s;
    acc->wait_s += r->wait_s;
    acc->ahead_s += r->ahead_s;
    acc->ahead_wait_s += r->ahead_wait_s;
    acc->parked_s += r->parked_s;
}

void eng_unit_bind(struct eng_ctx *ctx, uint32_t unit, void *self)
{
    struct engine *e = ctx->eng;
    SIM_ASSERT(unit < e->n_units, "engine: bind of unknown unit %u", unit);
    SIM_ASSERT(e->parts[e->units[unit].partition].owner == ctx->index,
               "engine: unit %u bound by thread %d, which does not own it", unit, ctx->index);
    e->units[unit].self = self;
}

void *eng_unit_self(const struct engine *e, uint32_t unit)
{
    SIM_ASSERT(unit < e->n_units, "engine: unknown unit %u", unit);
    return e->units[unit].self;
}

void *eng_alloc(struct eng_ctx *ctx, size_t bytes) { return arena_alloc(&ctx->arena, bytes); }

/* ----------------------------------------------------------- partitions */

static void part_rt_create(struct engine *e, struct eng_ctx *ctx, int id)
{
    struct eng_part_desc *pd = &e->parts[id];
    struct eng_part_rt *p = eng_alloc(ctx, sizeof *p);
    p->id = id;
    p->n_units = pd->n_units;
    p->units = pd->units;
    p->next = eng_alloc(ctx, (pd->n_units + 1) * sizeof *p->next);
    p->period = eng_alloc(ctx, (pd->n_units + 1) * sizeof *p->period);
    p->seq = eng_alloc(ctx, (pd->n_units + 1) * sizeof *p->seq);
    for (unsigned i = 0; i < pd->n_units; i++) {
        p->next[i] = 0; /* every unit ticks at time 0 */
        p->period[i] = e->domains[e->units[pd->units[i]].domain].period;
    }
    e->rt[id] = p;
}

/* Run partition p over [current, t_end). Per time T: deliver messages due
 * by T in key order, then tick due units in (domain, id) order. */
static void part_run(struct engine *e, struct eng_ctx *ctx, struct eng_part_rt *p, ps_t t_end)
{
    const unsigned n = p->n_units;
    for (;;) {
        ps_t T = p->heap_n ? p->heap[0].arrival : PS_NEVER;
        for (unsigned i = 0; i < n; i++)
            if (p->next[i] < T)
                T = p->next[i];
        if (T >= t_end)
            break;

        while (p->heap_n && p->heap[0].arrival <= T) {
            struct heap_ent he = heap_pop(p);
            struct eng_msg *m = pool_msg(p, he.slot);
            const struct eng_unit_rec *u = &e->units[m->dst];
            ps_t w = u->ops->recv(u->self, ctx, m, T);
            if (w != PS_NEVER) {
                ps_t a = edge_at_or_after(w > T ? w : T, p->period[u->local]);
                if (a < p->next[u->local])
                    p->next[u->local] = a;
            }
            pool_put(p, he.slot);
        }

        for (unsigned i = 0; i < n; i++) {
            if (p->next[i] != T)
                continue;
            const struct eng_unit_rec *u = &e->units[p->units[i]];
            ps_t r = u->ops->tick(u->self, ctx, T);
            /* T is an edge of the unit's domain, so the commonest answer,
             * the next edge, needs no rounding (a 64-bit division). */
            if (r != T + p->period[i])
                r = (r == PS_NEVER) ? PS_NEVER : edge_at_or_after(r > T ? r : T + 1, p->period[i]);
            p->next[i] = r;
        }
    }
}

static ps_t part_next(const struct eng_part_rt *p)
{
    ps_t t = p->heap_n ? p->heap[0].arrival : PS_NEVER;
    for (unsigned i = 0; i < p->n_units; i++)
        if (p->next[i] < t)
            t = p->next[i];
    return t;
}

/* -------------------------------------------------------------- serial */

/* Decide what comes after the quantum ending at now: stop (e->stop,
 * e->finish) or the start of the next quantum to run (e->q_start), jumping
 * over quanta in which nothing is due anywhere. */
static void serial_advance(struct engine *e, ps_t now, ps_t next)
{
    if (e->progress)
        e->progress(e->progress_arg, now);
    if (e->stop_flag && at_load_acq_u32(e->stop_flag)) {
        e->stop = true;
        e->finish = ENG_FINISH_INTERRUPTED;
        e->q_start = now;
        return;
    }
    e->serial_wake_min = PS_NEVER;
    if (e->serial && !e->serial(e->model, e, now)) {
        e->stop = true;
        e->finish = ENG_FINISH_SERIAL;
        e->q_start = now;
        return;
    }
    next = MIN(next, e->serial_wake_min);
    if (next == PS_NEVER) {
        e->stop = true;
        e->finish = ENG_FINISH_IDLE;
        e->q_start = now;
        return;
    }
    ps_t start = now;
    if (next > now)
        start = next - next % e->quantum; /* quanta stay aligned to multiples of Q */
    if (start < now)
        start = now;
    if (e->cfg.max_time_ps && start >= e->cfg.max_time_ps) {
        e->stop = true;
        e->finish = ENG_FINISH_MAX_TIME;
        e->q_start = now;
        return;
    }
    e->skipped += (start - now) / e->quantum;
    e->q_start = start;
}

/* The barrier hook, run by the last thread to arrive (arg: its context)
 * while the threads of the quantum just run wait. */
static void serial_step(void *arg)
{
    struct eng_ctx *sctx = arg;
    struct engine *e = sctx->eng;
    ps_t now = e->q_start + e->quantum; /* end of the quantum just run */
    ps_t next = PS_NEVER;
    for (unsigned i = 0; i < e->n_active; i++) /* the threads that ran it */
        next = MIN(next, e->threads[i].local_next);
    bool sampled = eng_sampled(e, e->q_index);
    e->quanta++;
    e->q_index++;
    e->adapt_rep.quanta++;
    e->adapt_rep.thread_quanta += e->n_active;

    serial_advance(e, now, next);
    /* The serial thread arrived last: its arrival time is when the quantum
     * ended for everyone. May re-partition (not when stopping), but not
     * while threads may be running ahead (NOTE(ahead)). */
    unsigned before = e->n_active;
    eng_adapt_quantum(e, sctx->t_arrive_ns, sampled, !e->ahead_next);
    e->ahead_next = e->ahead_on && e->n_active > 1 && !e->ahead_hold && !e->stop &&
                    (!e->cfg.max_time_ps || e->q_start + e->quantum < e->cfg.max_time_ps);
    e->ahead_hold = false;
    if (e->n_active > before) {
        sctx->post_join_lo = before;
        sctx->post_join_hi = e->n_active;
    }
    if (e->stop)
        sctx->post_exit = true;
    e->t_release_ns = sync_mono_ns();
    e->t_serial_ns = e->t_release_ns > sctx->t_arrive_ns ? e->t_release_ns - sctx->t_arrive_ns : 0;
    e->prof.serial_s += ns_to_s(e->t_serial_ns);
}

void eng_wake_serial(struct engine *e, uint32_t unit, ps_t t)
{
    const struct eng_unit_rec *u = &e->units[unit];
    struct eng_part_rt *p = e->rt[u->partition];
    ps_t a = edge_at_or_after(t, p->period[u->local]);
    if (a < p->next[u->local])
        p->next[u->local] = a;
    if (a < e->serial_wake_min)
        e->serial_wake_min = a;
}

void eng_serial_again(struct engine *e)
{
    ps_t now = e->q_start + e->quantum; /* the hook runs before q_start moves on */
    if (now < e->serial_wake_min)
        e->serial_wake_min = now;
}

/* --------------------------------------------------------- quantum loop */

/* Run partition id over the quantum; time it when sampling (the clock read
 * that ends one partition's run starts the next one's, *t). */
static void run_timed(struct engine *e, struct eng_ctx *ctx, int id, ps_t *local, uint64_t *t)
{
    struct eng_part_rt *p = e->rt[id];
    part_run(e, ctx, p, ctx->t_end);
    *local = MIN(*local, part_next(p));
    if (e->ahead_on && e->parts[id].ahead_capable) /* NOTE(ahead): asked whatever the thread count */
        p->ahead_ok = e->ahead_fn(e->model, id, ctx->t_end);
    if (ctx->sampling) {
        uint64_t t2 = sync_mono_ns();
        p->sample_ns = t2 - *t + p->ahead_ns;
        p->work_ns += t2 - *t + p->ahead_ns;
        p->ahead_ns = 0;
        *t = t2;
    }
}

/* NOTE(steal-gate): only with at least 3 partitions per thread; with
 * fewer, an owner's first partition is always started before a thief
 * looks (see the rule in run_stealing), so nothing would be taken and the
 * thieves' scan would be pure cost. */
bool eng_steal_on(const struct engine *e)
{
    return e->cfg.steal && !e->ahead_on && e->n_active > 1 && e->n_parts >= 3 * e->n_active;
}

/* Claim partition id for this quantum: true for exactly one caller. The
 * claim word is ENG_CLAIM(q_index, thread) (engine_internal.h). */
static bool claim(struct engine *e, struct eng_ctx *ctx, int id)
{
    uint64_t want = ENG_CLAIM(e->q_index, ctx->index);
    uint64_t old = at_load_rlx_u64(&e->claims[id].q);
    if (old >> ENG_CLAIM_SHIFT == want >> ENG_CLAIM_SHIFT)
        return false; /* taken this quantum */
    /* A compare-exchange, not an exchange: the loser must not overwrite
     * the winner's word, which the message shortcut reads (engine_msg.c). */
    return atomic_compare_exchange_strong_explicit(&e->claims[id].q, &old, want, memory_order_acq_rel,
                                                   memory_order_relaxed);
}

/* NOTE(steal): the quantum with stealing (sync.steal, more than one active
 * thread). Which SMs have work changes from quantum to quantum (a quantum
 * is the lookahead, 8 interconnect cycles on gtx480), so a mapping that is
 * balanced on average still leaves threads waiting at the barrier for the
 * one that got the busy partitions this time (bfs small on 2 threads: 12.6 %
 * of all samples in the barrier spin). Here a thread runs the partitions it
 * owns, each claimed first (claim()), then goes round the other active
 * threads and runs the ones they have not started yet, taking each
 * victim's list from its end while the owner works from the front.
 *
 * Results do not change: a partition is run by exactly one thread per
 * quantum, whichever it is; a cross-partition message arrives at or after
 * the quantum's end and goes through the channel of (sending thread, static
 * owner of the destination), which the owner drains into the destination's
 * heap at the next quantum start, and heaps deliver in key order. So that
 * no thread writes into a heap another thread may be running, the
 * same-thread shortcut (NOTE(same-thread-send)) is taken in such quanta
 * only for a destination the sender has claimed in this quantum
 * (engine_msg.c); and a thief takes a partition only once its owner has
 * drained this quantum's inbound messages into its heaps (drained_q,
 * release/acquire). Returns the monotonic ns at the end. */
static uint64_t run_stealing(struct engine *e, struct eng_ctx *ctx, ps_t *local)
{
    uint64_t q1 = e->q_index + 1;
    at_store_rel_u64(&ctx->drained_q, q1);
    uint64_t t = ctx->sampling ? sync_mono_ns() : 0;
    /* NOTE(steal-debug): partitions claimed for us in the serial step. All
     * their owners must have drained before the first one runs, since
     * running one may send straight into the heap of another (claimed by
     * us, so the shortcut applies). */
    for (unsigned i = 0; i < ctx->n_forced; i++) {
        const struct eng_ctx *v = &e->threads[e->parts[ctx->forced[i]].owner];
        while (at_load_acq_u64(&v->drained_q) != q1)
            cpu_relax(); /* its owner drains first thing in the quantum */
    }
    for (unsigned i = 0; i < ctx->n_forced; i++) {
        run_timed(e, ctx, ctx->forced[i], local, &t);
        ctx->rep.steals++;
    }
    for (unsigned i = 0; i < ctx->n_parts; i++)
        if (claim(e, ctx, ctx->parts[i]))
            run_timed(e, ctx, ctx->parts[i], local, &t);
    unsigned n = e->n_active;
    for (unsigned k = 1; k < n; k++) {
        const struct eng_ctx *v = &e->threads[((unsigned)ctx->index + k) % n];
        if (at_load_acq_u64(&v->drained_q) != q1)
            continue; /* its heaps are not ready: the owner runs them all */
        /* Only while the owner still has another unstarted partition
         * before this one: taking its last one saves little and moves a
         * partition's state to another core. */
        for (unsigned i = v->n_parts; i-- > 1;) {
            int id = v->parts[i];
            if (at_load_rlx_u64(&e->claims[v->parts[i - 1]].q) >> ENG_CLAIM_SHIFT == q1) /* started */
                break;
            if (claim(e, ctx, id)) {
                run_timed(e, ctx, id, local, &t);
                ctx->rep.steals++;
            }
        }
    }
    return ctx->sampling ? t : sync_mono_ns();
}

/* NOTE(ahead): running ahead (sync.ahead, on by default for the GPU).
 * Stealing (NOTE(steal)) evens out a quantum's work only by moving
 * partitions, and their state, between cores (12 % more busy time on
 * sgemm small at 2 threads, docs/engine.md), and a barrier per quantum
 * still makes the thread that finished first wait for the other. Here a
 * thread that has arrived at the barrier of quantum q runs quantum q + 1
 * of some of its own SM partitions instead of waiting, so that the work
 * of one quantum can fill the wait of another and no state moves.
 *
 * Why the results do not change. A cross-partition message sent in
 * quantum q arrives at or after q's end (exact mode: latency >= L >= Q;
 * relaxed mode: clamped to the end), so an SM partition's quantum q + 1
 * needs only what its senders sent up to the end of q. The senders of an
 * ahead-capable SM partition are all memory partitions (checked on the
 * links at eng_finalize), and every thread runs its memory partitions
 * first in a quantum and then publishes mem_done; once every active
 * thread's mem_done covers q, all of q + 1's input is in the rings or in
 * the memory partitions' overflow lists of q's parity, which the thread
 * drains (eng_drain_ahead). Memory partitions never run ahead: their
 * quantum q + 1 needs every SM's quantum q, which the barrier gives.
 * Delivery order is the message key, so it does not matter that these
 * messages reach the heap early, nor that messages of the run ahead reach
 * other heaps early. When the thread comes to quantum q + 1 it runs the
 * partition again over the same interval, which does nothing: everything
 * due in it was done, and nothing due in it can arrive later.
 *
 * The serial step of q runs at the same time as these runs, so a
 * partition runs ahead only if the model said, right after the partition
 * ran quantum q (on its thread, before the barrier), that this serial step
 * will neither write the partition nor read more of it than what the hook
 * saved, nor stop the run while the partition has work (eng_ahead_fn; the
 * GPU's answer is in sim/gpu/gpu.c, NOTE(ahead-gpu)). The hook is asked
 * after every run of such a partition whenever sync.ahead is on, at any
 * thread count and whether or not anything runs ahead, so the serial
 * step sees the same answers at 1 and at N threads. The adaptive engine
 * changes the mapping only in a serial step that no run ahead overlaps:
 * when it wants to, it asks for the next barrier without runs ahead
 * (ahead_hold) and changes it there. Stealing is off while this is on.
 *
 * The overflow lists of a channel are kept per quantum parity and per
 * sending partition kind: a thread about to run ahead reads the memory
 * partitions' list of q's parity while the producer may still be running
 * its SM partitions of q (their list is read at the start of q + 1, after
 * the barrier); the producer's runs ahead write the SM list of q + 1's
 * parity, read at the start of q + 2; the consumer empties the memory list
 * of q's parity before it publishes its own mem_done of q + 1, which every
 * producer waits for before it writes that parity again (runs ahead of
 * q + 2). A thread waits for the others' mem_done by spinning, at most
 * AHEAD_SPIN iterations (the thread it waits for may have lost its CPU),
 * and then waits at the barrier as usual. */
#define AHEAD_SPIN 4096u

static void run_ahead(struct engine *e, struct eng_ctx *ctx)
{
    uint64_t want = ctx->q_cur + 1;
    /* A thread publishes mem_done before it arrives, so this ends once the
     * barrier is released. The debug re-partitioner waits as long as it
     * takes, so that tests do not depend on host timing for runs ahead. */
    uint32_t lim = e->cfg.debug_seed ? UINT32_MAX : AHEAD_SPIN;
    bool ready = true;
    for (unsigned i = 0; ready && i < ctx->n_active_q; i++) {
        const struct eng_ctx *o = &e->threads[i];
        for (uint32_t k = 0; ready && at_load_acq_u64(&o->mem_done) < want; k++) {
            ready = k < lim;
            cpu_relax();
        }
    }
    uint64_t t0 = sync_mono_ns(), t = t0; /* the spin's end: what it waited counts either way */
    if (t0 > ctx->t_arrive_ns)
        ctx->rep.ahead_wait_s += ns_to_s(t0 - ctx->t_arrive_ns);
    if (!ready)
        return;
    bool sampled = eng_sampled(e, want);
    eng_drain_ahead(e, ctx);
    ps_t t_end = ctx->t_end, sent = ctx->sent_min;
    unsigned parity = ctx->parity;
    ctx->t_end = t_end + e->quantum;
    ctx->parity = parity ^ 1u;
    ctx->sent_min = PS_NEVER;
    for (unsigned i = 0; i < ctx->n_ahead; i++) {
        struct eng_part_rt *p = e->rt[ctx->ahead[i]];
        part_run(e, ctx, p, ctx->t_end);
        if (sampled) { /* its share of the sample of quantum q + 1 (run_timed) */
            uint64_t t2 = sync_mono_ns();
            p->ahead_ns += t2 - t;
            t = t2;
        }
    }
    ctx->ahead_sent = ctx->sent_min; /* the next quantum's sends, as far as the serial step is concerned */
    ctx->t_end = t_end;
    ctx->parity = parity;
    ctx->sent_min = sent;
    ctx->rep.ahead_runs += ctx->n_ahead;
    ctx->t_ahead_end_ns = sync_mono_ns();
    ctx->rep.ahead_s += ns_to_s(ctx->t_ahead_end_ns - t0);
}

/* When the thread could start its next quantum: the release, or the end of
 * its run ahead if that ran past the release. Busy time counts from here,
 * so that the part of a run ahead that overran the release is counted once
 * (in the barrier's time, as running ahead), not also as busy. */
static inline uint64_t resume_ns(const struct engine *e, const struct eng_ctx *ctx)
{
    return MAX(e->t_release_ns, ctx->t_ahead_end_ns);
}

void eng_thread_run(struct eng_ctx *ctx)
{
    struct engine *e = ctx->eng;

    /* First run: partitions are initialised by their owner, one thread at a
     * time, so that model code may register statistics without locks and in
     * a deterministic order. */
    if (!e->initialized) {
        for (unsigned turn = 0; turn < e->n_threads; turn++) {
            if ((unsigned)ctx->index == turn) { /* every thread is active in the first run */
                for (unsigned i = 0; i < ctx->n_parts; i++)
                    part_rt_create(e, ctx, ctx->parts[i]);
                for (unsigned i = 0; i < ctx->n_parts; i++) {
                    struct eng_part_desc *pd = &e->parts[ctx->parts[i]];
                    if (pd->init)
                        pd->init(e->model, ctx, ctx->parts[i]);
                }
            }
            qbar_wait(&e->bar, &ctx->bar, NULL, NULL);
        }
    }

    for (;;) {
        if (at_load_acq_u32(&ctx->state) != ENG_THR_ACTIVE && !eng_park(ctx))
            break; /* pairs with the serial thread's release in eng_after_release */
        ps_t t_start = e->q_start;
        ctx->t_end = t_start + e->quantum;
        ctx->parity = (unsigned)(e->q_index & 1u);
        ctx->sent_min = ctx->ahead_sent; /* NOTE(ahead): what runs ahead into this quantum sent */
        ctx->ahead_sent = PS_NEVER;
        ctx->sampling = eng_sampled(e, e->q_index);
        ctx->steal = eng_steal_on(e);
        ctx->ahead_q = e->ahead_next;
        ctx->q_cur = e->q_index;
        ctx->n_active_q = e->n_active;
        eng_drain_inbound(e, ctx);
        ps_t local = PS_NEVER;
        if (!ctx->steal && e->ahead_on) {
            /* NOTE(ahead): memory partitions first, then the SMs, noting
             * the ones that may run ahead at this quantum's barrier. */
            uint64_t t = ctx->sampling ? sync_mono_ns() : 0;
            for (unsigned i = 0; i < ctx->n_parts; i++)
                if (e->parts[ctx->parts[i]].kind == ENG_PART_MEM)
                    run_timed(e, ctx, ctx->parts[i], &local, &t);
            at_store_rel_u64(&ctx->mem_done, ctx->q_cur + 1);
            ctx->n_ahead = 0;
            for (unsigned i = 0; i < ctx->n_parts; i++) {
                int id = ctx->parts[i];
                if (e->parts[id].kind == ENG_PART_MEM)
                    continue;
                run_timed(e, ctx, id, &local, &t);
                if (e->parts[id].ahead_capable && e->rt[id]->ahead_ok)
                    ctx->ahead[ctx->n_ahead++] = id;
            }
            ctx->t_arrive_ns = ctx->sampling ? t : sync_mono_ns();
        } else if (!ctx->steal) {
            /* A sampled quantum times each partition (engine_adapt.c). */
            uint64_t t = ctx->sampling ? sync_mono_ns() : 0;
            for (unsigned i = 0; i < ctx->n_parts; i++)
                run_timed(e, ctx, ctx->parts[i], &local, &t);
            ctx->t_arrive_ns = ctx->sampling ? t : sync_mono_ns();
        } else {
            ctx->t_arrive_ns = run_stealing(e, ctx, &local);
        }
        ctx->local_next = MIN(local, ctx->sent_min);
        /* One clock read per quantum: busy is from the release that started
         * this quantum (so a thread woken late counts its lateness), or from
         * the end of a run ahead that overran it. */
        uint64_t from = resume_ns(e, ctx);
        ctx->t_ahead_end_ns = 0;
        if (ctx->t_arrive_ns > from)
            ctx->rep.busy_s += ns_to_s(ctx->t_arrive_ns - from);
        ctx->rep.quanta++;
        at_store_rlx_u32(&ctx->arrived, ctx->bar.sense + 1u); /* read by spin checks */
        if (qbar_arrive(&e->bar, &ctx->bar, serial_step, ctx)) {
            eng_after_release(ctx);
        } else {
            if (ctx->ahead_q && ctx->n_ahead)
                run_ahead(e, ctx);
            qbar_await(&e->bar, &ctx->bar);
        }
        /* A thread parked by this serial step is no longer in the barrier's
         * count: later serial steps may run now, so it reads nothing more of
         * the engine until eng_park returns. */
        if (at_load_acq_u32(&ctx->state) != ENG_THR_ACTIVE)
            continue;
        ctx->rep.wait_s += ns_to_s(resume_ns(e, ctx) - ctx->t_arrive_ns);
        if (e->stop)
            break;
    }
    ctx->rep.barrier_sleeps = ctx->bar.sleeps;
    ctx->rep.spin_aborts = ctx->bar.spin_aborts;
}

/* ----------------------------------------------------------------- run */

int eng_run(struct engine *e, const struct eng_run_opts *o, struct eng_result *res, char *err, size_t err_len)
{
    SIM_ASSERT(e->finalized, "engine: eng_run before a successful eng_finalize");
    memset(res, 0, sizeof *res);
    if (!e->topo_ready)
        e->topo_ready = topo_init(&e->topo) == 0;
    e->pin = o->pin;
    e->stop_flag = o->stop_flag;
    e->progress = o->progress;
    e->progress_arg = o->progress_arg;

    if (eng_threads_map(e, o, err, err_len) != 0)
        return -1;
    unsigned n_thr = e->n_threads;
    /* NOTE(pin-auto): pinning pays only to a run that owns its CPUs. Jobs
     * that share a machine (a sweep, a job array, GNU parallel) each pin
     * from the first CPU of their binding, so pinned 1-thread jobs all
     * land on CPU 0 and pinned k-thread jobs on CPUs 0..k-1, whatever is
     * idle. The default therefore pins only when the run takes every CPU
     * it may use (its binding, NOTE(pin-allowed) in topo.c); otherwise the
     * OS places the threads. Set once, when the first run spawns them. */
    if (o->pin == ENG_PIN_AUTO)
        e->pin = n_thr >= topo_pus(&e->topo) ? ENG_PIN_CORES : ENG_PIN_NONE;
    /* Adapt only when the split is ours to choose and there is a choice;
     * the debug re-partitioner works whatever the options. */
    e->adaptive = e->cfg.adaptive && !e->explicit_split && n_thr > 1;
    eng_threads_barrier_init(e);
    e->ahead_on = e->cfg.ahead && e->ahead_fn;
    e->ahead_next = false; /* the first quantum's barrier: threads are just starting */
    e->ahead_hold = false;
    for (unsigned t = 0; t < n_thr; t++) {
        e->threads[t].ahead_sent = PS_NEVER;
        e->threads[t].t_ahead_end_ns = 0;
    }
    eng_adapt_begin_run(e);
    e->stop = false;
    e->quanta = 0;
    e->skipped = 0;

    double t0 = now_s();
    e->t_release_ns = sync_mono_ns();
    eng_threads_spawn_join(e);
    e->initialized = true;

    free(e->reports);
    e->reports = xcalloc(n_thr, sizeof *e->reports);
    for (unsigned t = 0; t < n_thr; t++) {
        e->prof.msgs += e->threads[t].rep.msgs_sent;
        /* NOTE(msgs-xthread): the messages that crossed threads under the
         * mappings the run used, against which bench/speed checks its
         * projection's assumption that (1 - 1/k) of them cross at k
         * threads (bench/README.md, "Out-of-sample check"). */
        e->prof.msgs_xthread += e->threads[t].rep.msgs_xthread;
        e->reports[t] = e->threads[t].rep;
        e->reports[t].n_partitions = e->threads[t].n_parts;
        e->reports[t].cpu = e->threads[t].pin_cpu;
    }
    res->finish = e->finish;
    res->end_time = e->q_start;
    res->quanta = e->quanta;
    res->quanta_skipped = e->skipped;
    res->threads = n_thr;
    res->wall_s = now_s() - t0;
    res->per_thread = e->reports;
    e->adapt_rep.active_end = e->n_active;
    res->adapt = e->adapt_rep;
    res->profile = e->prof;
    return 0;
}

void eng_destroy(struct engine *e)
{
    if (!e)
        return;
    if (e->initialized) {
        for (unsigned t = 0; t < e->n_threads; t++) {
            struct eng_ctx *c = &e->threads[t];
            for (unsigned i = 0; i < c->n_parts; i++) {
                struct eng_part_desc *pd = &e->parts[c->parts[i]];
                if (pd->fini)
                    pd->fini(e->model, c, c->parts[i]);
            }
        }
        for (unsigned p = 0; p < e->n_parts; p++)
            if (e->rt[p])
                eng_part_rt_free(e->rt[p]);
    }
    for (unsigned t = 0; t < e->n_threads; t++) {
        if (e->threads[t].arena_ready)
            arena_fini(&e->threads[t].arena);
        free(e->threads[t].parts);
        free(e->threads[t].forced);
        free(e->threads[t].ahead);
    }
    eng_chans_free(e);
    eng_adapt_free(e);
    free(e->owner_tmp);
    free(e->claims);
    free(e->threads);
    free(e->rt);
    free(e->reports);
    free(e->link_min);
    for (unsigned u = 0; u < e->n_units; u++)
        free(e->units[u].links);
    for (unsigned p = 0; p < e->n_parts; p++)
        free(e->parts[p].units);
    free(e->units);
    free(e->parts);
    free(e->domains);
    if (e->topo_ready)
        topo_fini(&e->topo);
    free(e);
}
