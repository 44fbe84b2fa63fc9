/* sim/sm/lsu/l1d_gtsc.c: the L1D's G-TSC paths (coh.protocol = gtsc): the
 * access, reply and kernel-boundary paths that run the gtsc_l1 table
 * (sim/mem/coh_gtsc_l1.c) instead of the non-coherent ones of l1d.c. The
 * cache's structures (tags, data, MSHR, queues) are l1d.c's; the leases,
 * lock counts and warp timestamps are struct l1d_gtsc.
 *
 * NOTE(l1d-gtsc): what is modelled (spec coherence-gtsc.md 1.1, 2.1, 2.2,
 * 2.7-2.9, 2.12), with the open questions decided:
 *  - a cached load hits iff the line is present, not locked, and the warp's
 *    warp_ts <= the copy's rts; it then raises warp_ts to the copy's wts. A
 *    local-memory load hits any present line (local data is private to its
 *    thread: no lease is needed). A .cg/.cv/volatile load reads L2 (BusRd
 *    with no copy) and is not installed: a spin loop on it sees other SMs'
 *    stores, where an L1 hit would keep the warp's logical time still;
 *  - each waiting load records its warp_ts at the access; a reply serves the
 *    waiters in arrival order whose recorded warp_ts the lease covers and
 *    raises their warp_ts to wts; one renewal with the largest remaining
 *    warp_ts asks for the rest (spec 2.9 `combine`, renewal ts = max waiter);
 *  - stores are write-through without allocation (OQ-4); a store to a present
 *    copy writes it and locks it (update visibility, spec 2.8 option 1): the
 *    way is marked RESERVED so it is never a victim, and loads of any warp
 *    wait in its MSHR entry (a "blocked" entry, no read outstanding) until
 *    the last ack, which sets the newest acked lease. BusWr carries the
 *    copy's wts (OQ-5); an ack flagged MEM_RF_INVAL drops the copy at unlock;
 *  - a store, local store or atomic to a line with an open MSHR entry, and an
 *    atomic to a locked line, is refused (L1D_RF_STALE, counted in
 *    gtsc_open_refusals) until the entry closes: the line then has one
 *    outstanding transaction kind at a time, so a fill never overwrites a
 *    newer local store and a locked line never leaves the cache (the
 *    baseline's stale-MSHR rule would let a fill answer a load from the
 *    storing warp issued before its store with data from after it);
 *  - atomics are performed at L2 like stores and their reply raises the
 *    warp's warp_ts (spec 2.13 proposal); a present copy is dropped;
 *  - allocate-on-fill always (l1d.alloc is not used): the victim is chosen
 *    among the unlocked ways when the fill arrives; when every way of the
 *    set is locked the fill serves its loads and is not installed
 *    (FillNoWay); a renewal for a copy evicted meanwhile re-requests with
 *    wts 0 (OQ-6);
 *  - kernel launch: every line dropped, every warp_ts = 1 (spec 2.12); L2
 *    keeps its timestamps;
 *  - SC (sched.max_outstanding_mem_per_warp = 1) and RC (fences wait for the
 *    warp's loads and store acks, ldst.c) sit on top; the L1 is never
 *    invalidated by acquires or fences (l1d_coherent).
 * NOTE(l1d-gtsc-reset): the L1's side of the timestamp reset (spec 2.11;
 * the L2's side and the reasons are NOTE(gtsc-reset) in partitions/l2/l2.c).
 * The L1 keeps the generation of the newest reset it has heard of, stamps
 * its low bits on every request, and:
 *  - a reply of a newer generation first resets the L1: every copy keeps
 *    its data but drops its lease (wts = rts = 0, so the next load of it
 *    misses and, carrying no wts, gets a fill), every warp_ts = 1;
 *  - the waiters of an MSHR entry keep the generation their warp_ts belong
 *    to; before they are compared with a lease of a newer generation they
 *    take their warp's current warp_ts (they become loads of the new
 *    generation, issued after everything their warp did so far in it);
 *  - a BusFill or BusRnw of an older generation than the L1's is not used
 *    (its lease and its warp timestamps are from before the reset): the
 *    read is sent again (OldReply); a store ack or atomic of an older
 *    generation completes its access but sets no lease and raises no
 *    warp_ts (the copy is dropped at unlock).
 * Not modelled: visibility option 2 (keep_old), forward_all combining.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sm/lsu/l1d_internal.h"

/* The context of one G-TSC step. */
struct g1_step {
    struct l1d *l;
    const struct l1d_acc *a;     /* the access, else NULL */
    const struct mem_reply *rep; /* the reply, else NULL */
    uint64_t line;               /* line address */
    cycle_t cycle;               /* core cycle */
    int32_t li;                  /* the line's way, -1 = none */
    int32_t e;                   /* its MSHR entry, -1 = none */
    int32_t victim;              /* fill_line: the way chosen, -1 = none */
    uint32_t ts;                 /* the access's warp_ts */
    uint16_t warp;               /* the access's warp */
};

/* Way state byte of each protocol state (I and IP have no way). */
static const uint8_t g1_ta[COH_G1_N_STATES] = {
    [COH_G1_I] = TA_INVALID, [COH_G1_IP] = TA_INVALID, [COH_G1_VP] = TA_VALID,
    [COH_G1_V] = TA_VALID,   [COH_G1_L] = TA_RESERVED, [COH_G1_M] = TA_MODIFIED,
};

static unsigned g1_state(const struct l1d *l, int32_t li, int32_t e)
{
    if (li >= 0) {
        enum ta_state t = ta_state_of(&l->tags, (uint32_t)li);
        if (t == TA_MODIFIED)
            return COH_G1_M;
        if (l->g->pend[li])
            return COH_G1_L;
        return e >= 0 && !l->g->blocked[e] ? COH_G1_VP : COH_G1_V;
    }
    return e >= 0 ? COH_G1_IP : COH_G1_I;
}

static unsigned g1_step(struct g1_step *s, unsigned state, unsigned ev)
{
    unsigned next = coh_step(&s->l->coh, s->line, state, ev, s);
    if (s->li >= 0 && g1_ta[next] != TA_INVALID && ta_state_of(&s->l->tags, (uint32_t)s->li) != g1_ta[next])
        ta_set_state(&s->l->tags, (uint32_t)s->li, (enum ta_state)g1_ta[next]);
    return next;
}

static inline void raise_ts(struct l1d_gtsc *g, uint32_t warp, uint32_t ts)
{
    if (warp < L1D_GTSC_WARPS && g->warp_ts[warp] < ts) {
        g->warp_ts[warp] = ts;
        if (ts > g->st.warp_ts_max)
            g->st.warp_ts_max = ts;
    }
}

/* NOTE(l1d-gtsc-reset): entry e's waiters take their warps' current
 * warp_ts when their generation is not the L1's. */
static void sync_entry(struct l1d *l, uint32_t e)
{
    struct l1d_gtsc *g = l->g;
    if (g->egen[e] == g->gen)
        return;
    uint32_t n = mshr_count(&l->mshr, e);
    for (uint32_t k = 0; k < n; k++) {
        struct l1d_pend *p = mshr_slot(&l->mshr, e, k);
        p->ts = p->warp < L1D_GTSC_WARPS ? g->warp_ts[p->warp] : 1;
    }
    g->egen[e] = g->gen;
}

/* Replace step on victim way v before a new line is installed there. */
static void g1_replace(struct l1d *l, int32_t v, cycle_t cycle)
{
    uint64_t tag = ta_tag_of(&l->tags, (uint32_t)v);
    bool present = ta_state_of(&l->tags, (uint32_t)v) != TA_INVALID;
    struct g1_step r = {.l = l, .line = tag, .cycle = cycle, .li = v, .e = present ? mshr_lookup(&l->mshr, tag) : -1,
                        .victim = -1};
    g1_step(&r, present ? g1_state(l, v, r.e) : COH_G1_I, COH_G1_REPLACE);
}

/* The data and lease a serve step may use: the present copy, else a fill's
 * bytes; false when there is none (a dropped copy, a lost renewal). */
static bool serve_source(const struct g1_step *s, const uint8_t **data, uint32_t *wts, uint32_t *rts)
{
    struct l1d *l = s->l;
    if (s->li >= 0) {
        *data = l1d_line_data(l, (uint32_t)s->li);
        *wts = l->g->wts[s->li];
        *rts = l->g->rts[s->li];
        return true;
    }
    if (s->rep && s->rep->op == MEM_OP_READ && !(s->rep->cflags & MEM_RF_RENEW)) {
        *data = s->rep->data;
        *wts = s->rep->wts;
        *rts = s->rep->rts;
        return true;
    }
    return false;
}

/* Waiting loads of entry e the source covers. */
static uint32_t covered(const struct g1_step *s)
{
    const uint8_t *d;
    uint32_t wts, rts, n = mshr_count(&s->l->mshr, (uint32_t)s->e), c = 0;
    if (!serve_source(s, &d, &wts, &rts))
        return 0;
    for (uint32_t k = 0; k < n; k++)
        c += ((const struct l1d_pend *)mshr_slot(&s->l->mshr, (uint32_t)s->e, k))->ts <= rts;
    return c;
}

/* ------------------------------------------------------------- actions */

static void ga_touch(void *ctx)
{
    struct g1_step *s = ctx;
    ta_touch(&s->l->tags, (uint32_t)s->li);
}

static void ga_hit_done(void *ctx)
{
    struct g1_step *s = ctx;
    struct l1d *l = s->l;
    if (s->a->txn.op == COAL_LOAD) {
        l1d_push_hit_done(l, s->line, s->a->token, L1D_DONE_LOAD, l1d_line_data(l, (uint32_t)s->li), s->cycle);
        if (!s->a->is_local)
            raise_ts(l->g, s->warp, l->g->wts[s->li]);
    } else {
        l1d_push_hit_done(l, s->line, s->a->token, L1D_DONE_STORE, NULL, s->cycle);
    }
}

static void ga_open_read(void *ctx)
{
    struct g1_step *s = ctx;
    s->e = l1d_open_entry(s->l, s->line, s->li < 0, s->cycle); /* probe a tag miss only */
    s->l->g->blocked[s->e] = 0;
    s->l->g->egen[s->e] = s->l->g->gen;
}

static void ga_send_read(void *ctx)
{
    struct g1_step *s = ctx;
    struct l1d *l = s->l;
    uint32_t e = (uint32_t)s->e, n = mshr_count(&l->mshr, e), ts = 0;
    sync_entry(l, e);
    for (uint32_t k = 0; k < n; k++) {
        const struct l1d_pend *p = mshr_slot(&l->mshr, e, k);
        ts = MAX(ts, p->ts);
    }
    struct mem_req *r = l1d_mq_push(l, MEM_OP_READ, s->line, L1D_ID_FILL | e, (uint8_t)l->line, s->cycle);
    memset(&r->coh, 0, sizeof r->coh);
    r->coh.warp_ts = ts;
    r->coh.l1_wts = s->li >= 0 ? l->g->wts[s->li] : 0;
    mem_req_set_gen(r, l->g->gen);
    if (r->coh.l1_wts)
        l->g->st.renewals_sent++;
    l->g->blocked[e] = 0;
}

static void add_waiter(struct g1_step *s)
{
    sync_entry(s->l, (uint32_t)s->e);
    struct l1d_pend *p = mshr_add(&s->l->mshr, (uint32_t)s->e);
    SIM_ASSERT(p, "l1d[%d]: MSHR merge after check", s->l->sm_id);
    p->token = s->a->token;
    p->t_acc = s->cycle;
    p->ts = s->ts;
    p->warp = s->warp;
}

static void ga_add_waiter(void *ctx) { add_waiter(ctx); }

static void ga_wait_unlock(void *ctx)
{
    struct g1_step *s = ctx;
    if (s->e < 0) {
        ga_open_read(ctx);
        s->l->g->blocked[s->e] = 1;
    }
    add_waiter(s);
    s->l->g->st.blocked_loads++;
}

static void ga_write_data(void *ctx)
{
    struct g1_step *s = ctx;
    l1d_write_bytes(l1d_line_data(s->l, (uint32_t)s->li), s->a->data, s->a->txn.bytes);
}

static void ga_lock(void *ctx)
{
    struct g1_step *s = ctx;
    SIM_ASSERT(s->l->g->pend[s->li] < UINT16_MAX, "l1d[%d]: lock count overflow", s->l->sm_id);
    s->l->g->pend[s->li]++;
    s->l->g->st.store_locks++;
}

static void ga_send_write(void *ctx)
{
    struct g1_step *s = ctx;
    struct mem_req *r = l1d_queue_write(s->l, s->a, s->cycle); /* coh.mask aliases the mask it set */
    r->coh.warp_ts = s->ts;
    r->coh.l1_wts = s->li >= 0 && !s->a->is_local ? s->l->g->wts[s->li] : 0;
    mem_req_set_gen(r, s->l->g->gen);
}

static void ga_send_atomic(void *ctx)
{
    struct g1_step *s = ctx;
    struct mem_req *r = l1d_queue_atomic(s->l, s->a, s->cycle);
    r->atom.warp_ts = s->ts;
    mem_req_set_gen(r, s->l->g->gen);
}

static void ga_evict(void *ctx)
{
    struct g1_step *s = ctx;
    ta_invalidate(&s->l->tags, (uint32_t)s->li);
    if (s->a)
        s->l->st.evictions++;
    else
        s->l->g->st.stale_drops++;
    s->li = -1;
}

static void ga_writeback(void *ctx)
{
    struct g1_step *s = ctx;
    l1d_writeback_line(s->l, (uint32_t)s->li, s->cycle);
}

static void set_copy(struct l1d *l, uint32_t li, const struct mem_reply *rep)
{
    memcpy(l1d_line_data(l, li), rep->data, l->line);
    l->g->wts[li] = rep->wts;
    l->g->rts[li] = rep->rts;
    l->g->pend[li] = 0;
    l->g->stale[li] = 0;
}

static void ga_fill_line(void *ctx)
{
    struct g1_step *s = ctx;
    struct l1d *l = s->l;
    uint32_t v = (uint32_t)s->victim;
    g1_replace(l, s->victim, s->cycle);
    ta_install(&l->tags, v, s->line, TA_VALID);
    l1d_set_inserter(l, v, l->mshr_warp[s->e]);
    set_copy(l, v, s->rep);
    s->li = s->victim;
}

static void ga_update_line(void *ctx)
{
    struct g1_step *s = ctx;
    set_copy(s->l, (uint32_t)s->li, s->rep);
}

static void ga_extend_lease(void *ctx)
{
    struct g1_step *s = ctx;
    uint32_t *rts = &s->l->g->rts[s->li];
    *rts = MAX(*rts, s->rep->rts);
}

static void ga_ack_lease(void *ctx)
{
    struct g1_step *s = ctx;
    struct l1d_gtsc *g = s->l->g;
    if (s->rep->gen != g->gen) /* NOTE(l1d-gtsc-reset): no lease from before a reset */
        g->stale[s->li] = 1;
    else if (s->rep->wts > g->wts[s->li]) { /* several pending stores: keep the newest lease */
        g->wts[s->li] = s->rep->wts;
        g->rts[s->li] = s->rep->rts;
    }
    if (s->rep->cflags & MEM_RF_INVAL)
        g->stale[s->li] = 1;
    SIM_ASSERT(g->pend[s->li] > 0, "l1d[%d]: ack for line 0x%llx with no pending store", s->l->sm_id,
               (unsigned long long)s->line);
    g->pend[s->li]--;
}

static void ga_unlock(void *ctx)
{
    struct g1_step *s = ctx;
    SIM_ASSERT(s->l->g->pend[s->li] == 0, "l1d[%d]: unlock of line 0x%llx with stores pending", s->l->sm_id,
               (unsigned long long)s->line);
    s->l->g->stale[s->li] = 0;
}

static void ga_serve(void *ctx)
{
    struct g1_step *s = ctx;
    struct l1d *l = s->l;
    const uint8_t *d;
    uint32_t wts, rts, e = (uint32_t)s->e, n = mshr_count(&l->mshr, e), kept = 0;
    bool src = serve_source(s, &d, &wts, &rts);
    for (uint32_t k = 0; k < n; k++) {
        struct l1d_pend *p = mshr_slot(&l->mshr, e, k);
        if (src && p->ts <= rts) {
            struct l1d_done *fd =
                l1d_push_fill_done(l, s->line, p->token, L1D_DONE_LOAD, L1D_SRC_FILL, p->t_acc, s->cycle);
            memcpy(fd->data, d, MEM_LINE_BYTES);
            stat_avg_add(&l->st.miss_lat, s->cycle - p->t_acc);
            raise_ts(l->g, p->warp, wts);
        } else {
            if (kept != k)
                memcpy(mshr_slot(&l->mshr, e, kept), p, sizeof *p);
            kept++;
        }
    }
    l->mshr.count[e] = kept;
}

static void ga_drop_lease(void *ctx)
{
    struct g1_step *s = ctx;
    s->l->g->wts[s->li] = 0;
    s->l->g->rts[s->li] = 0;
}

static void ga_release_mshr(void *ctx)
{
    struct g1_step *s = ctx;
    SIM_ASSERT(mshr_count(&s->l->mshr, (uint32_t)s->e) == 0, "l1d[%d]: MSHR entry released with loads waiting",
               s->l->sm_id);
    mshr_close(&s->l->mshr, (uint32_t)s->e);
    mshr_release(&s->l->mshr, (uint32_t)s->e);
    s->l->g->blocked[s->e] = 0;
    s->e = -1;
}

static const coh_action_fn g1_fns[COH_G1A_N_ACTIONS] = {
    [COH_G1A_TOUCH] = ga_touch,
    [COH_G1A_HIT_DONE] = ga_hit_done,
    [COH_G1A_OPEN_READ] = ga_open_read,
    [COH_G1A_SEND_READ] = ga_send_read,
    [COH_G1A_ADD_WAITER] = ga_add_waiter,
    [COH_G1A_WAIT_UNLOCK] = ga_wait_unlock,
    [COH_G1A_WRITE_DATA] = ga_write_data,
    [COH_G1A_LOCK] = ga_lock,
    [COH_G1A_SEND_WRITE] = ga_send_write,
    [COH_G1A_SEND_ATOMIC] = ga_send_atomic,
    [COH_G1A_EVICT] = ga_evict,
    [COH_G1A_WRITEBACK] = ga_writeback,
    [COH_G1A_FILL_LINE] = ga_fill_line,
    [COH_G1A_UPDATE_LINE] = ga_update_line,
    [COH_G1A_EXTEND_LEASE] = ga_extend_lease,
    [COH_G1A_ACK_LEASE] = ga_ack_lease,
    [COH_G1A_UNLOCK] = ga_unlock,
    [COH_G1A_SERVE] = ga_serve,
    [COH_G1A_RELEASE_MSHR] = ga_release_mshr,
    [COH_G1A_DROP_LEASE] = ga_drop_lease,
};

/* ------------------------------------------------------------- init */

void l1d_gtsc_init(struct l1d *l, const struct l1d_cfg *cfg)
{
    uint32_t n = ta_n_lines(&l->tags);
    struct l1d_gtsc *g = xcalloc(1, sizeof *g);
    g->wts = xcalloc(n, sizeof *g->wts);
    g->rts = xcalloc(n, sizeof *g->rts);
    g->pend = xcalloc(n, sizeof *g->pend);
    g->stale = xcalloc(n, 1);
    g->blocked = xcalloc(cfg->mshr, 1);
    g->egen = xcalloc(cfg->mshr, sizeof *g->egen);
    for (uint32_t w = 0; w < L1D_GTSC_WARPS; w++)
        g->warp_ts[w] = 1; /* spec 0: initial warp_ts */
    g->st.warp_ts_max = 1;
    l->g = g;
    coh_table_init(&l->coh, &coh_gtsc_l1, g1_fns, "l1d", l->sm_id);
}

void l1d_gtsc_fini(struct l1d *l)
{
    if (!l->g)
        return;
    free(l->g->wts);
    free(l->g->rts);
    free(l->g->pend);
    free(l->g->stale);
    free(l->g->blocked);
    free(l->g->egen);
    free(l->g);
    l->g = NULL;
}

/* ------------------------------------------------------------- access */

static enum l1d_result g_load(struct l1d *l, struct g1_step *s, enum l1d_rf_cause *cause)
{
    const struct l1d_acc *a = s->a;
    const struct coal_txn *t = &a->txn;
    if (t->l1_bypass) { /* BusRd without a copy; the reply is not installed */
        if (reqq_free(&l->mq) < 1)
            return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
        struct mem_req *r = l1d_mq_push(l, MEM_OP_READ, s->line | t->seg_offset, a->token, (uint8_t)t->seg_size,
                                        s->cycle);
        memset(&r->coh, 0, sizeof r->coh);
        r->coh.warp_ts = s->ts;
        mem_req_set_gen(r, l->g->gen);
        l->st.loads++;
        l->st.bypass_loads++;
        return L1D_SENT;
    }
    unsigned st = g1_state(l, s->li, s->e);
    bool present = st == COH_G1_V || st == COH_G1_VP || st == COH_G1_M;
    if (present && (a->is_local || st == COH_G1_M || s->ts <= l->g->rts[s->li])) {
        if (idx_ring_full(&l->hq_r))
            return l1d_fail(l, L1D_RF_DONE_FULL, cause);
        g1_step(s, st, COH_G1_LOAD_HIT);
        l->st.loads++;
        l->st.load_hits++;
        return L1D_HIT;
    }
    if (s->e >= 0) { /* IP, VP (combine) or L with a blocked entry */
        if (!mshr_can_merge(&l->mshr, (uint32_t)s->e))
            return l1d_fail(l, L1D_RF_MERGE_LIMIT, cause);
        g1_step(s, st, COH_G1_LOAD);
        l->st.loads++;
        l->st.mshr_merges++;
        return L1D_MERGED;
    }
    if (mshr_full(&l->mshr))
        return l1d_fail(l, L1D_RF_MSHR_FULL, cause);
    if (st != COH_G1_L && reqq_free(&l->mq) < 1)
        return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
    if (st == COH_G1_V)
        l->g->st.lease_misses++;
    else if (st == COH_G1_I)
        l1d_miss_class(l, s->line);
    g1_step(s, st, COH_G1_LOAD);
    l->st.loads++;
    l->st.load_misses++;
    return L1D_MISS;
}

static enum l1d_result g_store(struct l1d *l, struct g1_step *s, enum l1d_rf_cause *cause)
{
    const struct l1d_acc *a = s->a;
    unsigned st = g1_state(l, s->li, s->e);
    if (s->e >= 0) {
        l->g->st.open_refusals++;
        return l1d_fail(l, L1D_RF_STALE, cause);
    }
    bool hit = st != COH_G1_I;
    if (a->is_local && hit) { /* the line absorbs it */
        if (idx_ring_full(&l->hq_r))
            return l1d_fail(l, L1D_RF_DONE_FULL, cause);
    } else if (reqq_free(&l->mq) < 1) {
        return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
    }
    g1_step(s, st, a->is_local ? COH_G1_LOCAL_STORE : COH_G1_STORE);
    l->st.stores++;
    if (hit)
        l->st.store_hits++;
    else
        l->st.store_misses++;
    return a->is_local && hit ? L1D_HIT : L1D_SENT;
}

static enum l1d_result g_atomic(struct l1d *l, struct g1_step *s, enum l1d_rf_cause *cause)
{
    unsigned st = g1_state(l, s->li, s->e);
    if (s->e >= 0 || st == COH_G1_L) {
        l->g->st.open_refusals++;
        return l1d_fail(l, L1D_RF_STALE, cause);
    }
    if (reqq_free(&l->mq) < 1u + (st == COH_G1_M ? 1u : 0u))
        return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
    g1_step(s, st, COH_G1_ATOMIC);
    l->st.atomics++;
    return L1D_SENT;
}

enum l1d_result l1d_gtsc_access(struct l1d *l, const struct l1d_acc *a, cycle_t cycle, enum l1d_rf_cause *cause)
{
    uint64_t line = a->txn.line_addr;
    struct g1_step s = {.l = l, .a = a, .line = line, .cycle = cycle, .li = ta_probe(&l->tags, line),
                        .e = mshr_lookup(&l->mshr, line), .victim = -1, .warp = a->warp};
    s.ts = a->warp < L1D_GTSC_WARPS ? l->g->warp_ts[a->warp] : 1;
    switch (a->txn.op) {
    case COAL_LOAD: return g_load(l, &s, cause);
    case COAL_STORE: return g_store(l, &s, cause);
    case COAL_ATOMIC: return g_atomic(l, &s, cause);
    default: sim_panic("l1d[%d]: bad op %u", l->sm_id, a->txn.op);
    }
}

/* ------------------------------------------------------------- replies */

/* Does entry e hold a load the lease ending at rts does not cover? */
static bool uncovered(struct l1d *l, uint32_t e, uint32_t rts)
{
    uint32_t n = mshr_count(&l->mshr, e);
    for (uint32_t k = 0; k < n; k++)
        if (((const struct l1d_pend *)mshr_slot(&l->mshr, e, k))->ts > rts)
            return true;
    return false;
}

/* After a reply changed the line: serve the loads waiting in entry s->e. */
static void serve_waiters(struct g1_step *s)
{
    if (s->e < 0 || s->l->mshr.state[s->e] != MSHR_OPEN)
        return;
    uint32_t n = mshr_count(&s->l->mshr, (uint32_t)s->e), c = covered(s);
    unsigned st = s->li >= 0 ? COH_G1_V : COH_G1_I;
    if (c < n)
        s->l->g->st.waiter_renewals++;
    g1_step(s, st, c == n ? COH_G1_SERVE : COH_G1_SERVE_PART);
}

/* NOTE(l1d-gtsc-reset): L2 has reset its timestamps to generation gen. */
static void gen_reset(struct l1d *l, uint32_t gen, cycle_t cycle)
{
    struct l1d_gtsc *g = l->g;
    uint32_t n = ta_n_lines(&l->tags);
    for (uint32_t i = 0; i < n; i++) {
        if (ta_state_of(&l->tags, i) == TA_INVALID)
            continue;
        struct g1_step s = {.l = l, .line = ta_tag_of(&l->tags, i), .cycle = cycle, .li = (int32_t)i, .victim = -1};
        s.e = mshr_lookup(&l->mshr, s.line);
        g1_step(&s, g1_state(l, s.li, s.e), COH_G1_RESET);
    }
    for (uint32_t w = 0; w < L1D_GTSC_WARPS; w++)
        g->warp_ts[w] = 1;
    g->gen = gen;
    g->st.resets++;
}

bool l1d_gtsc_reply(struct l1d *l, const struct mem_reply *rep, cycle_t cycle)
{
    struct l1d_gtsc *g = l->g;
    if (UNLIKELY(rep->gen > g->gen))
        gen_reset(l, rep->gen, cycle);
    bool cur = rep->gen == g->gen; /* else a reply from before a reset this L1 has heard of */
    if (rep->op == MEM_OP_READ && (rep->id & L1D_ID_FILL)) {
        uint32_t e = rep->id & ~L1D_ID_FILL;
        SIM_ASSERT(e < l->mshr.n_entries && l->mshr.state[e] == MSHR_OPEN && !g->blocked[e] &&
                       mshr_line(&l->mshr, e) == mem_line_of(rep->addr),
                   "l1d[%d]: reply 0x%llx for MSHR entry %u that does not expect it", l->sm_id,
                   (unsigned long long)rep->addr, e);
        uint64_t line = mshr_line(&l->mshr, e);
        struct g1_step s = {.l = l, .rep = rep, .line = line, .cycle = cycle, .li = ta_probe(&l->tags, line),
                            .e = (int32_t)e, .victim = -1, .warp = l->mshr_warp[e]};
        unsigned st = g1_state(l, s.li, s.e);
        SIM_ASSERT(st == COH_G1_IP || st == COH_G1_VP, "l1d[%d]: reply for line 0x%llx in state %u", l->sm_id,
                   (unsigned long long)line, st);
        /* OldReply: a reply of an older generation; also a BusRnw for a read sent before the L1's last
         * reset (a slice renews only a request of its own generation; this one's 6 bits aliased) */
        if (UNLIKELY(!cur || ((rep->cflags & MEM_RF_RENEW) && g->egen[e] != rep->gen))) {
            if (reqq_free(&l->mq) < 1)
                return false;
            l->cur_warp = l->mshr_warp[e];
            l->cur_cta = l->mshr_cta[e];
            g->st.old_replies++;
            g1_step(&s, st, COH_G1_OLD_REPLY);
            l->cur_warp = MEM_WARP_NONE;
            l->cur_cta = MEM_CTA_NONE;
            return true;
        }
        sync_entry(l, e);
        /* room first: the served loads, a renewal for the rest, a dirty victim's write-back */
        bool renew = (rep->cflags & MEM_RF_RENEW) != 0;
        uint32_t need_mq;
        if (renew)
            need_mq = st == COH_G1_IP ? 1u : uncovered(l, e, MAX(g->rts[s.li], rep->rts));
        else
            need_mq = uncovered(l, e, rep->rts);
        if (!renew && st == COH_G1_IP) {
            s.victim = ta_victim(&l->tags, ta_set_of(&l->tags, line));
            need_mq += s.victim >= 0 && ta_state_of(&l->tags, (uint32_t)s.victim) == TA_MODIFIED;
        }
        if (idx_ring_free(&l->fq_r) < mshr_count(&l->mshr, e) || reqq_free(&l->mq) < need_mq)
            return false;
        l->cur_warp = l->mshr_warp[e]; /* the renewal or victim write-back is this miss's doing */
        l->cur_cta = l->mshr_cta[e];
        if (rep->cflags & MEM_RF_RENEW) {
            g->st.rnw_recv++;
            if (st == COH_G1_IP)
                g->st.renew_lost++;
            g1_step(&s, st, COH_G1_RENEW);
            if (st == COH_G1_VP)
                serve_waiters(&s);
        } else {
            l->st.fills++;
            if (st == COH_G1_IP) {
                if (s.victim < 0)
                    g->st.fills_noway++;
                g1_step(&s, st, s.victim < 0 ? COH_G1_FILL_NOWAY : COH_G1_FILL);
            } else {
                g1_step(&s, st, COH_G1_FILL);
            }
            serve_waiters(&s);
        }
        l->cur_warp = MEM_WARP_NONE;
        l->cur_cta = MEM_CTA_NONE;
        return true;
    }
    SIM_ASSERT(rep->op == MEM_OP_READ || rep->op == MEM_OP_WRITE || rep->op == MEM_OP_ATOMIC,
               "l1d[%d]: reply with op %u", l->sm_id, rep->op);
    /* a pass-through reply: a store ack, an atomic, a bypassing read */
    uint64_t line = mem_line_of(rep->addr);
    struct g1_step s = {.l = l, .rep = rep, .line = line, .cycle = cycle, .li = -1, .e = -1, .victim = -1,
                        .warp = rep->warp};
    unsigned ev = COH_G1_N_EVENTS;
    if (rep->op == MEM_OP_WRITE) {
        s.li = ta_probe(&l->tags, line);
        if (s.li >= 0 && g->pend[s.li] > 0) {
            s.e = mshr_lookup(&l->mshr, line);
            bool last = g->pend[s.li] == 1;
            ev = !last                                                           ? COH_G1_WR_ACK
                 : !cur || g->stale[s.li] || (rep->cflags & MEM_RF_INVAL) ? COH_G1_WR_ACK_DROP
                                                                                 : COH_G1_WR_ACK_LAST;
            bool waiters = last && s.e >= 0;
            if (waiters)
                sync_entry(l, (uint32_t)s.e);
            uint32_t need = 1 + (waiters ? mshr_count(&l->mshr, (uint32_t)s.e) : 0);
            uint32_t rts = cur && rep->wts > g->wts[s.li] ? rep->rts : g->rts[s.li]; /* the lease after ack_lease */
            bool renewal = waiters && (ev == COH_G1_WR_ACK_DROP || uncovered(l, (uint32_t)s.e, rts));
            if (idx_ring_free(&l->fq_r) < need || (renewal && reqq_free(&l->mq) < 1))
                return false;
        }
    }
    if (idx_ring_full(&l->fq_r))
        return false;
    if (cur)
        raise_ts(g, rep->warp, rep->wts); /* the writer's clock jumps to its store's (or atomic's, read's) wts */
    else
        g->st.old_replies++;
    if (ev != COH_G1_N_EVENTS) {
        if (s.e >= 0) {
            l->cur_warp = l->mshr_warp[s.e];
            l->cur_cta = l->mshr_cta[s.e];
        }
        g1_step(&s, COH_G1_L, ev);
        if (ev != COH_G1_WR_ACK)
            serve_waiters(&s);
        l->cur_warp = MEM_WARP_NONE;
        l->cur_cta = MEM_CTA_NONE;
    }
    l1d_pass_through(l, rep, cycle);
    return true;
}

/* ------------------------------------------------------------- kernel boundary */

void l1d_gtsc_flush_line(struct l1d *l, uint32_t li, cycle_t cycle)
{
    struct g1_step s = {.l = l, .line = ta_tag_of(&l->tags, li), .cycle = cycle, .li = (int32_t)li, .e = -1,
                        .victim = -1};
    g1_step(&s, COH_G1_M, COH_G1_FLUSH);
}

void l1d_gtsc_invalidate_all(struct l1d *l)
{
    struct l1d_gtsc *g = l->g;
    uint32_t n = ta_n_lines(&l->tags);
    for (uint32_t i = 0; i < n; i++) { /* M (unflushed) and L (unacked) have no InvAll row: they panic */
        struct g1_step s = {.l = l, .line = ta_tag_of(&l->tags, i), .li = -1, .e = -1, .victim = -1};
        unsigned st = ta_state_of(&l->tags, i) == TA_INVALID ? COH_G1_I : g1_state(l, (int32_t)i, -1);
        g1_step(&s, st, COH_G1_INV_ALL);
    }
    memset(g->wts, 0, n * sizeof *g->wts);
    memset(g->rts, 0, n * sizeof *g->rts);
    memset(g->pend, 0, n * sizeof *g->pend);
    memset(g->stale, 0, n);
    for (uint32_t w = 0; w < L1D_GTSC_WARPS; w++)
        g->warp_ts[w] = 1; /* spec 2.12: timestamps restart at every kernel */
}

/* NOTE(gtsc-sync): warp_ts is per warp, but CUDA orders warps through the
 * CTA barrier and a fence's cumulativity, which the timestamps must follow
 * or a warp would read, within its lease, a copy older than a store that
 * happened-before its load (001 describes neither; pushrel's grid barrier,
 * where one thread per CTA acquires and __syncthreads hands the order to
 * the other warps, returned wrong heights without this):
 *  - a CTA barrier: when it releases, every warp of the CTA takes the
 *    largest warp_ts among them, so loads after the barrier are logically
 *    after everything any of its warps had seen (the acquirer's included);
 *  - a gpu-scope fence or release waits until every older write of the SM
 *    is acknowledged (ldst.c NOTE(fence)), whose acks raised their writers'
 *    warp_ts; the fencing warp then takes the largest warp_ts of the SM, so
 *    the store that follows is stamped after every write it must publish.
 * Both only raise logical time: values stay correct, and a warp may take
 * more lease misses than strictly needed (the SM-wide maximum is a
 * superset of the writes the fence waited for). */
void l1d_gtsc_fence(struct l1d *l, uint32_t warp)
{
    l->gen++; /* NOTE(fail-memo) */
    if (!l->g || warp >= L1D_GTSC_WARPS)
        return;
    uint32_t m = 0;
    for (uint32_t w = 0; w < L1D_GTSC_WARPS; w++)
        m = MAX(m, l->g->warp_ts[w]);
    l->g->warp_ts[warp] = m;
}

void l1d_gtsc_barrier(struct l1d *l, uint32_t w0, uint32_t n)
{
    l->gen++; /* NOTE(fail-memo) */
    if (!l->g || w0 >= L1D_GTSC_WARPS)
        return;
    uint32_t end = MIN(w0 + n, (uint32_t)L1D_GTSC_WARPS), m = 0;
    for (uint32_t w = w0; w < end; w++)
        m = MAX(m, l->g->warp_ts[w]);
    for (uint32_t w = w0; w < end; w++)
        l->g->warp_ts[w] = m;
}

uint32_t l1d_warp_ts(const struct l1d *l, uint32_t warp)
{
    return l->g && warp < L1D_GTSC_WARPS ? l->g->warp_ts[warp] : 0;
}

/* ------------------------------------------------------------- statistics */

void l1d_gtsc_stats_register(struct l1d *l, struct stats *s)
{
    int i = l->sm_id;
    const char *gr = "l1d";
    struct l1d_gtsc *g = l->g;
    stats_counter(s, gr, i, "gtsc_lease_misses", &g->st.lease_misses,
                  "G-TSC loads that found their line with an expired lease (coherence misses)");
    stats_counter(s, gr, i, "gtsc_blocked_loads", &g->st.blocked_loads,
                  "G-TSC loads that waited for a locked line's store acks (update visibility)");
    stats_counter(s, gr, i, "gtsc_renewals_sent", &g->st.renewals_sent, "G-TSC BusRd sent for a present copy");
    stats_counter(s, gr, i, "gtsc_rnw_recv", &g->st.rnw_recv, "G-TSC BusRnw received (lease renewed without data)");
    stats_counter(s, gr, i, "gtsc_renew_lost", &g->st.renew_lost,
                  "G-TSC renewals for a copy evicted meanwhile (re-requested with wts 0)");
    stats_counter(s, gr, i, "gtsc_fills_noway", &g->st.fills_noway, "G-TSC fills not installed: every way locked");
    stats_counter(s, gr, i, "gtsc_store_locks", &g->st.store_locks, "G-TSC stores that locked a present copy");
    stats_counter(s, gr, i, "gtsc_stale_drops", &g->st.stale_drops,
                  "G-TSC copies dropped at unlock because an ack flagged them possibly stale");
    stats_counter(s, gr, i, "gtsc_open_refusals", &g->st.open_refusals,
                  "G-TSC stores/atomics refused while their line had an open MSHR entry (per attempt)");
    stats_counter(s, gr, i, "gtsc_waiter_renewals", &g->st.waiter_renewals,
                  "G-TSC renewals for waiting loads a reply's lease did not cover");
    stats_counter(s, gr, i, "gtsc_warp_ts_max", &g->st.warp_ts_max, "G-TSC largest warp_ts reached (logical time)");
    stats_counter(s, gr, i, "gtsc_resets", &g->st.resets,
                  "G-TSC timestamp resets taken by this L1 (a reply of a newer generation, NOTE(l1d-gtsc-reset))");
    stats_counter(s, gr, i, "gtsc_old_replies", &g->st.old_replies,
                  "G-TSC replies of an older generation than the L1's (reads sent again, acks without lease)");
}
