/* partitions/l2/l2.c: L2 slice of a memory sub-partition. See l2.h for what is
 * modelled and the timing rules, docs/l2.md for the decisions.
 *
 * Stage order inside l2_tick, back to front (STYLE.md item 2), so that an
 * item moves at most one stage per cycle without shadow state:
 *   1. data-port output -> reply queue (replies whose data transfer ended);
 *   2. MSHR drain: one reply per cycle of a filled entry -> reply queue;
 *   3. fill port: head of the DRAM->L2 queue fills its reserved line;
 *   4. miss queue -> L2->DRAM queue (one per cycle);
 *   5. ROP delay line -> input queue (one per cycle);
 *   6. tag lookup of the input-queue head (hit, merge, miss or reservation fail).
 * Stage 5 runs before 6 on purpose: the ROP line is a pure delay, so a
 * request is in the input queue at t + R and may be looked up in that cycle
 * (NOTE(rop_then_lookup): this makes "ROP delay R" mean exactly R cycles from
 * push to lookup for R >= 1).
 */
#include "partitions/l2/l2.h"

#include <stdlib.h>
#include <string.h>

#include "sim/base/stats.h"

static inline uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* ------------------------------------------------------------- init */

static const coh_action_fn l2_coh_fns[COH_L2A_N_ACTIONS]; /* the protocol actions (below) */

void l2_init(struct l2 *l, const struct l2_cfg *cfg, const struct l2_init_args *a)
{
    const char *key;
    const char *why = l2_cfg_invalid(cfg, &key);
    SIM_ASSERT(!why, "l2 slice %d: %s %s", a->instance, key, why);
    memset(l, 0, sizeof *l);
    l->instance = a->instance;
    l->lk_fail_gen = UINT64_MAX; /* NOTE(l2-fail-memo): no fail memoised */
    if (cfg->locality_stats) {
        l->loc = xcalloc(1, sizeof *l->loc);
        lastacc_init(l->loc, 4096);
    }
    l->atom = a->atom;
    l->line = (uint32_t)cfg->line;
    l->port_bytes = (uint32_t)cfg->data_port;
    l->fill_cycles = (uint32_t)((cfg->line + cfg->data_port - 1) / cfg->data_port);
    l->line_cycles = l->fill_cycles;
    l->mshr_merge = (uint32_t)cfg->mshr_merge;
    l->rop_cycles = a->rop_cycles;
    l->write_miss = cfg->write_miss;

    uint32_t n_sets = (uint32_t)(cfg->size_per_sub / (cfg->assoc * cfg->line));
    struct ta_opts to = {.repl = ta_repl_of(cfg->repl),
                         .vt_entries = (uint32_t)cfg->victim_tags,
                         .vt_assoc = (uint32_t)cfg->victim_tags_assoc};
    ta_init_opts(&l->tags, n_sets, (uint32_t)cfg->assoc, l->line, a->set_fn, a->set_ctx, &to);
    static const struct coh_proto *const l2_protos[] = {
        [L2_WRITE_MISS_FETCH] = &coh_noncoh_l2_fetch,
        [L2_WRITE_MISS_BYTE_MASK] = &coh_noncoh_l2_byte_mask,
        [L2_WRITE_MISS_FETCH_WRITE] = &coh_noncoh_l2_fetch_write,
    };
    coh_table_init(&l->coh, l2_protos[cfg->write_miss], l2_coh_fns, "l2", a->instance);
    l->cache_stats = cfg->repl != TA_REPL_LRU || cfg->victim_tags != 0;
    l->n_lines = ta_n_lines(&l->tags);
    l->data = xcalloc(l->n_lines, l->line);
    l->valid = xcalloc((size_t)l->n_lines * 2, sizeof *l->valid);
    l->dirty_res = xcalloc(l->n_lines, 1);
    if (a->coh && a->coh->protocol == COH_PROTO_GTSC) {
        SIM_ASSERT(cfg->write_miss != L2_WRITE_MISS_BYTE_MASK, "l2 slice %d: gtsc with l2.write_miss = byte_mask",
                   a->instance);
        l->g = xcalloc(1, sizeof *l->g);
        l->g->lease = (uint32_t)a->coh->gtsc_lease;
        l->g->rd_extend = a->coh->gtsc_rd_extend;
        l->g->mem_ts = 1; /* spec 0: initial values */
        l->g->mem_ts_stat = 1;
        uint32_t bits = (uint32_t)a->coh->gtsc_ts_bits;
        SIM_ASSERT(bits >= 12 && bits <= 32, "l2 slice %d: coh.gtsc_ts_bits %u", a->instance, bits);
        l->g->max_ts = (uint32_t)((1ull << bits) - 1);
        l->g->reset_at = l->g->max_ts - (uint32_t)(1ull << (bits - 2)) + 1;
        l->g->wts = xcalloc(l->n_lines, sizeof *l->g->wts);
        l->g->rts = xcalloc(l->n_lines, sizeof *l->g->rts);
    } else if (a->coh && a->coh->protocol == COH_PROTO_TC) {
        SIM_ASSERT(cfg->write_miss != L2_WRITE_MISS_BYTE_MASK && a->period_ps && a->tc_lease_ps,
                   "l2 slice %d: TC needs fetch/fetch_write, a clock period and a lease", a->instance);
        l->tc = xcalloc(1, sizeof *l->tc);
        l->tc->period_ps = a->period_ps;
        l->tc->lease_ps = a->tc_lease_ps;
        l->tc->strong = a->coh->tc_variant == COH_TC_STRONG;
        l->tc->gts = xcalloc(l->n_lines, sizeof *l->tc->gts);
    }

    uint32_t n_mshr = (uint32_t)cfg->mshr;
    mshr_init(&l->mshr, n_mshr, l->mshr_merge, sizeof(struct l2_pend));
    stat_hist_init(&l->merge_at_fill, l->mshr_merge + 1, 1);
    l->mshr_lineidx = xcalloc(n_mshr, sizeof *l->mshr_lineidx);
    l->drain_from = xcalloc(n_mshr, sizeof *l->drain_from);
    l->drain_pos = xcalloc(n_mshr, sizeof *l->drain_pos);
    l->drain = xcalloc(n_mshr, sizeof *l->drain);
    idx_ring_init(&l->drain_r, n_mshr);

    /* NOTE(rop_ring): the spec's ROP line is unbounded. It shares one ring
     * with the input queue; the ring holds the queue plus 2 x (R + 1)
     * entries, i.e. two arrivals per L2 cycle for the whole delay, twice what
     * a one-flit-per-cycle ejection port at the L2 clock can deliver. When it
     * is full, l2_can_accept says so (explicit backpressure, nothing lost). */
    uint32_t q = (uint32_t)cfg->queue;
    l->in_q_cap = q;
    idx_ring_init(&l->in_r, q + 2 * (uint32_t)(l->rop_cycles + 1));
    l->in = xcalloc(l->in_r.cap, sizeof *l->in);
    idx_ring_init(&l->mq_r, (uint32_t)cfg->miss_queue);
    l->mq = xcalloc(l->mq_r.cap, sizeof *l->mq);
    idx_ring_init(&l->dq_r, q);
    l->dq = xcalloc(q, sizeof *l->dq);
    idx_ring_init(&l->fq_r, q);
    l->fq = xcalloc(q, sizeof *l->fq);
    idx_ring_init(&l->rq_r, q);
    l->rq = xcalloc(q, sizeof *l->rq);
    l->sector_replies = cfg->sector_replies;
    /* A hit's reply waits in the data port for n cycles; the port serialises
     * hits, so at most ceil(1 + 1/n) replies are in it at once: 2 suffice. */
    idx_ring_init(&l->sq_r, 2);
    l->sq = xcalloc(2, sizeof *l->sq);
}

void l2_fini(struct l2 *l)
{
    if (l->g) {
        free(l->g->wts);
        free(l->g->rts);
        free(l->g);
    }
    if (l->tc) {
        free(l->tc->gts);
        free(l->tc);
    }
    if (l->loc) {
        lastacc_fini(l->loc);
        free(l->loc);
    }
    ta_fini(&l->tags);
    mshr_fini(&l->mshr);
    stat_hist_fini(&l->merge_at_fill);
    free(l->data);
    free(l->valid);
    free(l->dirty_res);
    free(l->mshr_lineidx);
    free(l->drain_from);
    free(l->drain_pos);
    free(l->drain);
    free(l->in);
    free(l->mq);
    free(l->dq);
    free(l->fq);
    free(l->rq);
    free(l->sq);
    memset(l, 0, sizeof *l);
}

/* ------------------------------------------------------------- line data */

static inline uint8_t *line_data(struct l2 *l, uint32_t li) { return l->data + (size_t)li * l->line; }
static inline uint64_t *line_valid(struct l2 *l, uint32_t li) { return l->valid + (size_t)li * 2; }
static inline bool line_all_valid(const struct l2 *l, uint32_t li)
{
    return l->valid[(size_t)li * 2] == UINT64_MAX && l->valid[(size_t)li * 2 + 1] == UINT64_MAX;
}

static inline uint64_t le_load(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}
static inline void le_store(uint8_t *p, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline unsigned atom_es(const struct l2 *l, const struct mem_atom *a) { return l->atom->elem_bytes(a->type); }

/* Are all bytes the request reads present in line li (byte_mask lines may be partial)? */
static bool bytes_present(const struct l2 *l, uint32_t li, const struct mem_req *rq)
{
    if (line_all_valid(l, li))
        return true;
    const uint64_t *v = l->valid + (size_t)li * 2;
    switch (rq->op) {
    case MEM_OP_READ:
        return mem_mask_all(v, mem_line_off(rq->addr), rq->size);
    case MEM_OP_ATOMIC: {
        unsigned es = atom_es(l, &rq->atom);
        for (uint32_t k = 0; k < rq->atom.n_lanes; k++)
            if (!mem_mask_all(v, rq->atom.off[k], es))
                return false;
        return true;
    }
    default:
        return true; /* writes merge into a partial line */
    }
}

/* NOTE(l2-gtsc): with coh.protocol = gtsc every line carries [wts, rts]
 * (spec coherence-gtsc.md 2.3-2.6). The timestamps are set where a request
 * is applied to the line (a hit, or the replay of the queued requests at
 * fill), so the L2 FSM keeps the non-coherent table's rows: G-TSC never
 * stalls or recalls at L2, it only stamps.
 *  - read: rts = max(rts, wts + lease, warp_ts + lease) (tardis; min_cover:
 *    max(rts, warp_ts)); a read whose l1_wts equals the line's wts is answered
 *    without data (BusRnw: size 0, one flit, one data-port cycle);
 *  - write / atomic: st_ts = max(warp_ts, rts + 1), the line becomes
 *    [st_ts, st_ts + lease]; the ack carries both. The ack tells the writer
 *    to drop its L1 copy (MEM_RF_INVAL) when that copy's wts differs from the
 *    line's pre-store wts, or when the write waited for a fill and the writer
 *    had a copy (OQ-5: a refilled line's wts = mem_ts may equal an old one);
 *  - local write-backs carry private data: no stamp;
 *  - a fill installs [mem_ts, mem_ts + lease]; an eviction raises mem_ts to
 *    the victim's rts (non-inclusive: no L1 is told, OQ-12: one mem_ts per
 *    slice). Timestamps are coh.gtsc_ts_bits wide: NOTE(gtsc-reset). */

/* NOTE(gtsc-reset): the timestamp overflow reset (spec coherence-gtsc.md
 * 2.11, OQ-7). Timestamps are coh.gtsc_ts_bits wide (16 by default, as in
 * 001). Only L2 creates larger timestamps, so only a slice can run out:
 *  - when a slice produces a timestamp >= reset_at = max - 2^(bits-2), it
 *    asks for a reset (reset_req). The GPU's serial step, at the end of the
 *    quantum, resets every slice at the same simulated instant (the spec's
 *    "global event at a quantum barrier", deterministic whatever the thread
 *    count): every line becomes [1, lease], mem_ts = 1, and the slice's
 *    generation counter advances. The quarter of the range kept free covers
 *    the growth within one quantum (each stamp adds at most lease + 1, and
 *    coh_cfg.c refuses a width whose free quarter holds fewer than 64
 *    leases); a timestamp past the maximum is a model error (panic naming
 *    the key), never a wrap;
 *  - a request carries the low 6 bits of its L1's generation (mem_req.flags,
 *    MEM_F_GEN_*; the spec proposes 1 bit). A request from an older
 *    generation ("pre-reset") is answered as if its warp_ts were 1 and its
 *    L1 held no copy: a read gets a full BusFill (never BusRnw), a write's
 *    ack tells the writer to drop its copy. Every reply carries the slice's
 *    full generation (mem_reply.gen);
 *  - the L1 follows lazily (NOTE(l1d-gtsc-reset) in l1d_gtsc.c): a reply of
 *    a newer generation makes it drop every lease and set every warp_ts to
 *    1 before it uses the reply; a reply of an older one is not used for
 *    leases or timestamps. Everything of an older generation is ordered
 *    before everything of a newer one, so an L1 that has not heard of the
 *    reset yet may keep hitting on its old leases.
 * The generation is a counter, not a bit: an L1 that stays silent through
 * two resets would otherwise take the second for the first. The 6 bits on
 * requests alias only if a request stays in flight through 64 resets (at
 * 16 bits, over a million of logical time); the L1 then still refuses a
 * BusRnw for a read sent before its last reset. */
static uint32_t gtsc_add(struct l2 *l, uint32_t a, uint32_t b)
{
    uint64_t v = (uint64_t)a + b;
    if (UNLIKELY(v > l->g->max_ts))
        sim_panic("l2 slice %d: G-TSC timestamp %llu passed the maximum %u of coh.gtsc_ts_bits before the reset "
                  "took effect (more than a quarter of the range in one quantum); raise coh.gtsc_ts_bits",
                  l->instance, (unsigned long long)v, l->g->max_ts);
    if (UNLIKELY(v >= l->g->reset_at))
        l->g->reset_req = true;
    return (uint32_t)v;
}

bool l2_gtsc_reset_wanted(const struct l2 *l) { return l->g && l->g->reset_req; }

void l2_gtsc_reset(struct l2 *l)
{
    struct l2_gtsc *g = l->g;
    if (!g)
        return;
    for (uint32_t i = 0; i < l->n_lines; i++) { /* spec 2.11: wts = 1, rts = LEASE */
        g->wts[i] = 1;
        g->rts[i] = g->lease;
    }
    g->mem_ts = 1; /* mem_ts_stat keeps the largest value reached */
    g->gen++;
    l->lk_gen++; /* NOTE(l2-fail-memo) */
    g->reset_req = false;
    g->st.resets++;
}

static void gtsc_stamp(struct l2 *l, uint32_t li, const struct mem_req *rq, struct mem_reply *rep, bool replay)
{
    struct l2_gtsc *g = l->g;
    uint32_t wts = g->wts[li], rts = g->rts[li];
    bool old = mem_req_gen(rq) != (g->gen & MEM_F_GEN_MASK); /* NOTE(gtsc-reset): stamped before a reset */
    if (UNLIKELY(old))
        g->st.old_reqs++;
    rep->gen = g->gen;
    if (rq->op == MEM_OP_READ) {
        uint32_t ts = old ? 1 : rq->coh.warp_ts;
        if (g->rd_extend == COH_RD_TARDIS) {
            rts = MAX(rts, gtsc_add(l, wts, g->lease));
            rts = MAX(rts, gtsc_add(l, ts, g->lease));
        } else {
            rts = MAX(rts, ts);
        }
        g->rts[li] = rts;
        if (!old && rq->coh.l1_wts != 0 && rq->coh.l1_wts == wts) { /* BusRnw: the L1 holds this version */
            rep->size = 0;
            rep->cflags |= MEM_RF_RENEW;
            memset(rep->data, 0, sizeof rep->data);
            g->st.rd_renewals++;
        } else {
            g->st.rd_fills++;
        }
    } else { /* write or atomic */
        uint32_t ts = old ? 1 : rq->op == MEM_OP_ATOMIC ? rq->atom.warp_ts : rq->coh.warp_ts;
        uint32_t st = MAX(ts, gtsc_add(l, rts, 1));
        if (rq->op == MEM_OP_WRITE && rq->coh.l1_wts != 0 && (old || replay || rq->coh.l1_wts != wts)) {
            rep->cflags |= MEM_RF_INVAL;
            g->st.inval_acks++;
        }
        wts = st;
        rts = gtsc_add(l, st, g->lease);
        g->wts[li] = wts;
        g->rts[li] = rts;
        g->st.stamps++;
    }
    rep->wts = wts;
    rep->rts = rts;
}

/* NOTE(l2-tc): with coh.protocol = tc every line keeps gts, the latest
 * lease expiry it handed out (physical time, ps; spec coherence-gtsc.md
 * 3.3). A read sets gts = max(gts, now + lease) and tells the L1 its copy
 * expires at now + lease. A write or atomic is acknowledged with the GWCT =
 * gts, the time every copy another SM may hold has expired (TC-Weak: the
 * writer's fences wait for it). TC-Strong holds a write or atomic to a
 * present line at the head of the input queue until now >= gts (the "lease
 * stall": later requests of every line wait behind it, a simplification of
 * a per-line queue). The L2 stays inclusive of live leases: a miss whose
 * victim way still has a live lease waits (the "eviction stall"; the LRU
 * victim only, no search for an expired way). A filled line starts with no
 * lease. Local write-backs carry private data: no lease. */
static void tc_lease(struct l2 *l, uint32_t li, const struct mem_req *rq, struct mem_reply *rep)
{
    struct l2_tc *t = l->tc;
    if (rq->op == MEM_OP_READ) {
        uint64_t exp = t->now_ps + t->lease_ps;
        t->gts[li] = MAX(t->gts[li], exp);
        mem_rep_set_time(rep, exp);
        t->st.leases++;
    } else {
        mem_rep_set_time(rep, t->gts[li]);
    }
}

/* Apply one request to line li and build its reply (rep must not alias rq);
 * replay: the request waited in the line's MSHR entry for the fill.
 * Returns true when the line's bytes changed owner-visible state (write or atomic). */
static bool apply(struct l2 *l, uint32_t li, const struct mem_req *rq, struct mem_reply *rep, bool replay)
{
    uint8_t *d = line_data(l, li);
    memset(rep, 0, sizeof *rep);
    rep->addr = rq->addr;
    rep->id = rq->id;
    rep->src = rq->src;
    rep->op = rq->op;
    rep->warp = rq->warp;
    if (UNLIKELY(l->g != NULL) && rq->op != MEM_OP_WRITEBACK)
        gtsc_stamp(l, li, rq, rep, replay); /* before the data moves: a renewal carries none */
    if (UNLIKELY(l->tc != NULL) && rq->op != MEM_OP_WRITEBACK)
        tc_lease(l, li, rq, rep);
    switch (rq->op) {
    case MEM_OP_READ:
        if (rep->cflags & MEM_RF_RENEW)
            return false;
        memcpy(rep->data, d, l->line);
        rep->size = rq->size;
        return false;
    case MEM_OP_WRITE:
    case MEM_OP_WRITEBACK: {
        uint64_t *v = line_valid(l, li);
        for (uint32_t w = 0; w < 2; w++) {
            uint64_t m = rq->mask[w];
            v[w] |= m;
            while (m) {
                uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(m);
                d[i] = rq->data[i];
                m &= m - 1;
            }
        }
        rep->size = 0;
        return true;
    }
    case MEM_OP_ATOMIC: {
        const struct mem_atom *a = &rq->atom;
        unsigned es = atom_es(l, a);
        bool cas = l->atom->two_operands(a->aop);
        unsigned stride = es * (cas ? 2u : 1u);
        bool ftz = a->flags & MEM_ATOM_FTZ;
        /* Lanes in lane order [proposal, spec 2.8]: a later lane to the same
         * word sees the earlier lane's result, as in the functional executor. */
        for (uint32_t k = 0; k < a->n_lanes; k++) {
            uint8_t *p = d + a->off[k];
            uint64_t old = le_load(p, es);
            uint64_t b = le_load(rq->data + k * stride, es);
            uint64_t c = cas ? le_load(rq->data + k * stride + es, es) : 0;
            bool bad = false;
            uint64_t nv = l->atom->apply(a->aop, a->type, old, b, c, ftz, &bad);
            if (bad) {
                char nm[48];
                l->atom->name(a->aop, a->type, nm, sizeof nm);
                sim_panic("l2 slice %d: unsupported atomic %s", l->instance, nm);
            }
            le_store(p, es, nv);
            le_store(rep->data + k * es, es, old);
        }
        rep->n_lanes = a->n_lanes;
        rep->size = rq->size;
        return true;
    }
    default:
        sim_panic("l2 slice %d: bad request op %u", l->instance, rq->op);
    }
}

/* ------------------------------------------------------------- external API */

void l2_set_merge_hook(struct l2 *l, l2_merge_fn fn, void *ctx)
{
    l->on_merge = fn;
    l->merge_ctx = ctx;
}

bool l2_can_accept(const struct l2 *l) { return l->in_q < l->in_q_cap && !idx_ring_full(&l->in_r); }

static inline bool is_write_op(unsigned op) { return op == MEM_OP_WRITE || op == MEM_OP_WRITEBACK; }

static void check_req(const struct l2 *l, const struct mem_req *rq)
{
    uint32_t off = mem_line_off(rq->addr);
    SIM_ASSERT(rq->op < MEM_OP_COUNT, "l2 slice %d: request op %u", l->instance, rq->op);
    if (rq->op == MEM_OP_READ)
        SIM_ASSERT(rq->size >= 1 && off + rq->size <= l->line,
                   "l2 slice %d: read of %u bytes at line offset %u crosses the line", l->instance, rq->size, off);
    if (rq->op == MEM_OP_ATOMIC) {
        const struct mem_atom *a = &rq->atom;
        SIM_ASSERT(l->atom, "l2 slice %d: atomic request but no atomic semantics (l2_init_args.atom)", l->instance);
        unsigned es = atom_es(l, a);
        SIM_ASSERT(es >= 1 && a->n_lanes >= 1 && a->n_lanes <= mem_atom_max_lanes(es, l->atom->two_operands(a->aop)),
                   "l2 slice %d: atomic with %u lanes of %u bytes", l->instance, a->n_lanes, es);
        for (uint32_t k = 0; k < a->n_lanes; k++)
            SIM_ASSERT(a->off[k] % es == 0 && a->off[k] + es <= l->line,
                       "l2 slice %d: atomic lane slot %u at offset %u", l->instance, k, a->off[k]);
    }
}

bool l2_push(struct l2 *l, const struct mem_req *req, cycle_t cycle) { return l2_push_late(l, req, cycle, 0); }

bool l2_push_late(struct l2 *l, const struct mem_req *req, cycle_t cycle, cycle_t late)
{
    if (!l2_can_accept(l))
        return false;
    check_req(l, req);
    struct l2_in *e = &l->in[idx_ring_tail(&l->in_r)];
    e->req = *req;
    e->t_push = cycle;
    uint64_t r = (req->flags & MEM_F_NO_ROP) ? 0 : l->rop_cycles;
    /* tick(cycle) has run: the earliest use is cycle + 1. A late request
     * (relaxed mode, NOTE(relaxed-due) in mempart_unit.c) starts its ROP
     * delay at its due cycle, cycle - late; entries still leave in order. */
    e->rop_ready = r > late ? cycle + (r - late) : cycle + 1;
    l->in_r.n++;
    return true;
}

/* Sectors (bit k = bytes 32k..32k+31) of the bytes off .. off + size - 1 of a line. */
static uint8_t byte_sectors(uint32_t off, uint32_t size)
{
    uint8_t m = 0;
    for (uint32_t b = off & ~31u; b < off + size; b += 32)
        m |= (uint8_t)(1u << (b / 32));
    return m;
}

/* NOTE(sector-replies): with l2.sector_replies a read reply whose bytes
 * span k > 1 32-byte sectors leaves the reply queue as k packets, lowest
 * sector first, one per L2 cycle (the queue's one-reply-per-cycle pop), each
 * carrying one sector (mem_reply.sect: all k sector bits and its own,
 * mem_reply_part / mem_reply_parts; its wire payload is 32 bytes, sized by
 * the memory partition) and the whole line's data, of which
 * the SM keeps the sector's bytes. GPGPU-Sim 4.x splits every request of a
 * sectored L2 into sector requests at the sub-partition's input
 * (breakdown_request_to_sector_requests) and returns each sector as its own
 * reply, which the L1 reassembles (its SECTOR_ASSOC MSHR's pending_read);
 * the sector packets are 1-flit packets with 40-byte flits, each
 * allocated through the router on its own. Here the split is at the
 * output only: the slice's queues, tags, MSHRs and data port still work on
 * the whole request, so the queue holds lines, not sectors (4.x's 64
 * entries are 16 lines; a quarter of the depth changed bfs by 0.5 %,
 * docs/correlation.md session 21). Atomics, write acks and single-sector
 * reads are not split. The SM's side: NOTE(sector-replies) in sim/sm/sm.c. */
/* mem_reply.sect of the next packet of the (non-empty) reply queue: 0 when
 * the head leaves whole. No copy of the 160-byte head: the memory
 * partition asks this for the head's size on every step. */
uint8_t l2_head_sect(const struct l2 *l)
{
    const struct mem_reply *h = &l->rq[l->rq_r.head];
    if (!l->sector_replies || h->op != MEM_OP_READ || h->size == 0)
        return 0;
    uint8_t all = byte_sectors(mem_line_off(h->addr), h->size);
    if (all & (all - 1)) { /* two sectors or more */
        uint8_t left = l->rq_left ? l->rq_left : all;
        return (uint8_t)(all | (left & -left) << 4);
    }
    return 0;
}

/* The next reply l2_pop_reply would give (a sector part of the head when
 * splitting: mem_reply.sect); false when the queue is empty. */
bool l2_peek_reply(const struct l2 *l, struct mem_reply *out)
{
    if (l->rq_r.n == 0)
        return false;
    *out = l->rq[l->rq_r.head];
    uint8_t s = l2_head_sect(l);
    if (s)
        out->sect = s;
    return true;
}

/* NOTE(sector-replies): the head's next sector; the head leaves with its last. */
__attribute__((noinline, cold)) static void pop_sector(struct l2 *l, struct mem_reply *out)
{
    l2_peek_reply(l, out);
    uint8_t part = mem_reply_part(out);
    if (part) {
        l->rq_left = (uint8_t)((l->rq_left ? l->rq_left : mem_reply_parts(out)) & ~part);
        if (l->rq_left)
            return;
    }
    idx_ring_pop(&l->rq_r);
}

bool l2_pop_reply(struct l2 *l, struct mem_reply *out, cycle_t cycle)
{
    if (l->rq_r.n == 0 || l->last_pop == cycle + 1)
        return false;
    l->last_pop = cycle + 1; /* one reply per L2 cycle [GPGPU-Sim] */
    if (__builtin_expect(l->sector_replies, 0)) {
        pop_sector(l, out);
        return true;
    }
    *out = l->rq[l->rq_r.head];
    idx_ring_pop(&l->rq_r);
    return true;
}

/* NOTE(sector-fetch): the 32-byte sectors a request needs from DRAM (bit k =
 * bytes 32k..32k+31): a read its bytes, an atomic its lanes' words, any
 * other request (a write that fetches its line) the whole line. With
 * l2.sector_fetch the memory partition charges a line read one full DRAM
 * column access per sector of its MSHR entry's requests as it leaves
 * (mempart.c), which is what GPGPU-Sim 4.x's sectored L2 costs with a
 * 64-byte DRAM atom: each 32-byte sector miss is its own DRAM request of
 * one atom, so a whole-line miss reads 256 bytes' worth of bursts for 128
 * bytes of data. The L2 itself stays line-granular: tags, valid bytes,
 * MSHR entries, fills and replies are per line, the fill brings the whole
 * line's bytes (the backing store is read at line granularity), and a
 * later access to a sector the fill was not charged for hits, where 4.x
 * would miss once more; 4.x's per-sector MSHR entries and per-sector reply
 * packets are not modelled. Off (default), a line read is one 128-byte
 * request, as 3.x's unsectored L2. */
static uint8_t req_sectors(const struct l2 *l, const struct mem_req *rq)
{
    uint8_t m = 0;
    switch (rq->op) {
    case MEM_OP_READ:
        return byte_sectors(mem_line_off(rq->addr), rq->size);
    case MEM_OP_ATOMIC: {
        unsigned es = atom_es(l, &rq->atom);
        for (uint32_t k = 0; k < rq->atom.n_lanes; k++)
            m |= (uint8_t)(1u << (rq->atom.off[k] / 32)) | (uint8_t)(1u << ((rq->atom.off[k] + es - 1) / 32));
        return m;
    }
    default:
        return 0xF;
    }
}

bool l2_pop_dram_req(struct l2 *l, struct l2_dram_req *out, cycle_t cycle)
{
    (void)cycle;
    if (l->dq_r.n == 0)
        return false;
    *out = l->dq[l->dq_r.head].r;
    idx_ring_pop(&l->dq_r);
    if (!out->is_write) { /* merge count as the read leaves (requester identity) */
        int32_t e = mshr_lookup(&l->mshr, out->line_addr);
        if (e >= 0) {
            uint32_t n = mshr_count(&l->mshr, (uint32_t)e);
            out->merges = (uint16_t)n;
            out->t_create_sum = 0;
            uint8_t sec = 0;
            for (uint32_t k = 0; k < n; k++) {
                const struct mem_req *rq = &((const struct l2_pend *)mshr_slot(&l->mshr, (uint32_t)e, k))->u.req;
                out->t_create_sum += rq->t_create;
                sec |= req_sectors(l, rq);
            }
            out->sectors = sec ? sec : 0xF;
        }
    }
    return true;
}

bool l2_can_fill(const struct l2 *l) { return !idx_ring_full(&l->fq_r); }

bool l2_dram_fill(struct l2 *l, uint64_t line_addr, const uint8_t data[MEM_LINE_BYTES], cycle_t cycle)
{
    SIM_ASSERT(mem_line_of(line_addr) == line_addr, "l2 slice %d: fill of unaligned address", l->instance);
    if (idx_ring_full(&l->fq_r))
        return false;
    struct l2_fill *f = &l->fq[idx_ring_tail(&l->fq_r)];
    f->line_addr = line_addr;
    f->ready = cycle + 1;
    memcpy(f->data, data, MEM_LINE_BYTES);
    l->fq_r.n++;
    return true;
}

/* ------------------------------------------------------------- tick stages */

static void missq_push(struct l2 *l, uint64_t line_addr, bool wb, const uint64_t mask[2], const uint8_t *data,
                       const struct mem_req *who, uint64_t ready)
{
    SIM_ASSERT(!idx_ring_full(&l->mq_r), "l2 slice %d: miss queue overflow", l->instance);
    struct l2_missq *m = &l->mq[idx_ring_tail(&l->mq_r)];
    memset(&m->r, 0, sizeof m->r);
    m->r.line_addr = line_addr;
    m->r.is_write = wb;
    m->r.sm = who->src;
    m->r.warp = who->warp;
    m->r.cta = who->cta;
    m->r.space = who->space;
    m->r.t_create = who->t_create;
    m->r.merges = wb ? 0 : 1;
    m->r.sectors = 0xF;
    if (wb) {
        m->r.mask[0] = mask[0];
        m->r.mask[1] = mask[1];
        memcpy(m->r.data, data, MEM_LINE_BYTES);
    }
    m->ready = ready;
    l->mq_r.n++;
}

/* Evict whatever line v holds; a MODIFIED victim goes to the miss queue as a
 * write-back. Returns true when it did (the data port reads the line out). */
static bool evict(struct l2 *l, uint32_t v, const struct mem_req *who, uint64_t c)
{
    if (ta_state_of(&l->tags, v) != TA_MODIFIED)
        return false;
    missq_push(l, ta_tag_of(&l->tags, v), true, line_valid(l, v), line_data(l, v), who, c + 1);
    l->st.writebacks++;
    return true;
}

/* NOTE(stage-in-place): a reply is built straight in the data-port
 * queue's tail slot (stage_slot), then queued (stage_commit). Built on the
 * stack and copied, its copy's wide loads waited for the narrower stores
 * that had just filled it (the store buffer cannot forward those): about
 * 85 % of act_hit's samples in bfs small. tmp takes a reply that is not
 * queued (a write-back's), so a full queue's head is never written. */
static struct mem_reply *stage_slot(struct l2 *l, const struct mem_req *rq, struct mem_reply *tmp)
{
    if (rq->op == MEM_OP_WRITEBACK)
        return tmp;
    SIM_ASSERT(!idx_ring_full(&l->sq_r), "l2 slice %d: data-port output overflow", l->instance);
    return &l->sq[idx_ring_tail(&l->sq_r)].rep;
}

static void stage_commit(struct l2 *l, uint64_t ready)
{
    l->sq[idx_ring_tail(&l->sq_r)].ready = ready;
    l->sq_r.n++;
}

static inline uint32_t port_cycles(const struct l2 *l, uint32_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    return (bytes + l->port_bytes - 1) / l->port_bytes;
}

static void *mshr_put(struct l2 *l, uint32_t e, const struct l2_in *h)
{
    struct l2_pend *p = mshr_add(&l->mshr, e);
    SIM_ASSERT(p, "l2 slice %d: MSHR entry %u over its merge limit", l->instance, e);
    p->u.req = h->req;
    p->t_push = h->t_push;
    p->no_reply = 0;
    p->forwarded = 0;
    return p;
}

/* ------------------------------------------------------------- protocol actions
 *
 * NOTE(l2-coh): the line control is the (state x event) table of
 * sim/mem/coh_noncoh_l2.c (docs/coherence.md). lookup() checks resources
 * first (a reservation fail changes nothing), then steps the line (its way's
 * state byte is the protocol state; an absent line is I); fill() steps R on
 * Fill or FillDirty. l2_step writes the next state into the line's way. */

/* The context of one protocol step. */
struct l2_step {
    struct l2 *l;
    const struct l2_in *h;   /* the input-queue head (request steps), else NULL */
    const struct mem_req *rq;/* its request; for Replace the request that caused it */
    const struct l2_fill *f; /* the fill (Fill, FillDirty), else NULL */
    uint64_t line;           /* line address */
    uint64_t c;              /* L2 cycle */
    int32_t li;              /* the line's way, -1 = none */
    int32_t e;               /* its MSHR entry, -1 = none */
    int32_t victim;          /* way a new line goes to, -1 = none */
    bool wb;                 /* a Replace wrote a dirty victim back */
    bool dirty;              /* fill_line: the line ended up written */
    bool forwarded;          /* forward ran: the queued request is already on its way to DRAM */
};

static inline void l2_step(struct l2_step *s, unsigned state, unsigned ev)
{
    s->l->lk_gen++; /* tags, MSHRs or the miss queue may change (NOTE(l2-fail-memo)) */
    unsigned next = coh_step(&s->l->coh, s->line, state, ev, s);
    if (next != COH_L2_I && s->li >= 0 && ta_state_of(&s->l->tags, (uint32_t)s->li) != (enum ta_state)next)
        ta_set_state(&s->l->tags, (uint32_t)s->li, (enum ta_state)next);
}

/* Replace step on the victim way of s (before the install of a new line);
 * sets s->wb when the victim was written back. */
static void replace_way(struct l2_step *s)
{
    struct l2 *l = s->l;
    uint32_t v = (uint32_t)s->victim;
    struct l2_step r = {.l = l, .rq = s->rq, .line = ta_tag_of(&l->tags, v), .c = s->c, .li = s->victim,
                        .e = -1, .victim = -1};
    if (UNLIKELY(l->g != NULL) && ta_state_of(&l->tags, v) >= TA_VALID && l->g->rts[v] > l->g->mem_ts) {
        l->g->mem_ts = l->g->rts[v]; /* NOTE(l2-gtsc): non-inclusive, the leases live on in mem_ts */
        if (l->g->mem_ts > l->g->mem_ts_stat)
            l->g->mem_ts_stat = l->g->mem_ts;
        l->g->st.mem_ts_raises++;
    }
    l2_step(&r, ta_state_of(&l->tags, v), COH_L2_REPLACE);
    s->wb = r.wb;
}

static void act_writeback(void *ctx)
{
    struct l2_step *s = ctx;
    s->wb = evict(s->l, (uint32_t)s->li, s->rq, s->c);
}

static void act_hit(void *ctx)
{
    /* Hit: tag at c, data port c+1 .. c+n, reply poppable at c+1+n. */
    struct l2_step *s = ctx;
    struct l2 *l = s->l;
    const struct mem_req *rq = s->rq;
    uint32_t n = port_cycles(l, rq->size);
    struct mem_reply tmp, *rep = stage_slot(l, rq, &tmp);
    apply(l, (uint32_t)s->li, rq, rep, false);
    if (rep->cflags & MEM_RF_RENEW) /* G-TSC BusRnw: no data through the port */
        n = port_cycles(l, 0);
    ta_touch(&l->tags, (uint32_t)s->li);
    l->port_free = s->c + 1 + n;
    if (rq->op != MEM_OP_WRITEBACK) {
        stage_commit(l, s->c + 1 + n);
        stat_avg_add(&l->st.hit_lat, s->c + 1 + n - s->h->t_push);
    }
}

static void act_add_request(void *ctx)
{
    struct l2_step *s = ctx;
    struct l2_pend *p = mshr_put(s->l, (uint32_t)s->e, s->h);
    p->forwarded = s->forwarded;
}

static void act_forward(void *ctx)
{
    /* fetch_write: the write's bytes go to DRAM now, ahead of the line read
     * (GPGPU-Sim 3.2.2 data_cache::wr_miss_wa sends the write first). The
     * request is still queued (add_request) so the fill applies it whatever
     * DRAM's order; marked forwarded, it leaves the line clean. */
    struct l2_step *s = ctx;
    struct l2 *l = s->l;
    missq_push(l, s->line, true, s->rq->mask, s->rq->data, s->rq, s->c + 1);
    l->st.write_forwards++;
    s->forwarded = true;
}

static void act_open_miss(void *ctx)
{
    struct l2_step *s = ctx;
    struct l2 *l = s->l;
    s->e = mshr_alloc(&l->mshr, s->line);
    ta_victim_probe(&l->tags, s->line);
    missq_push(l, s->line, false, NULL, NULL, s->rq, s->c + 1); /* the read first, the write-back right behind it */
}

static void act_reserve(void *ctx)
{
    struct l2_step *s = ctx;
    struct l2 *l = s->l;
    uint32_t v = (uint32_t)s->victim;
    replace_way(s);
    if (s->wb)
        l->port_free = s->c + 1 + l->line_cycles;
    ta_install(&l->tags, v, s->line, TA_RESERVED);
    uint64_t *vm = line_valid(l, v);
    vm[0] = vm[1] = 0;
    l->dirty_res[v] = 0;
    l->mshr_lineidx[s->e] = v;
    s->li = s->victim;
}

static void act_refetch(void *ctx)
{
    /* byte_mask line present but missing bytes this read/atomic needs:
     * fetch it now; the fill fills only the invalid bytes. */
    struct l2_step *s = ctx;
    struct l2 *l = s->l;
    uint32_t li = (uint32_t)s->li;
    s->e = mshr_alloc(&l->mshr, s->line);
    l->mshr_lineidx[s->e] = li;
    l->dirty_res[li] = ta_state_of(&l->tags, li) == TA_MODIFIED;
    ta_touch(&l->tags, li);
    missq_push(l, s->line, false, NULL, NULL, s->rq, s->c + 1);
}

static void act_alloc_write(void *ctx)
{
    /* Allocate without fetching; only a dirty victim needed the miss queue. */
    struct l2_step *s = ctx;
    struct l2 *l = s->l;
    const struct mem_req *rq = s->rq;
    uint32_t v = (uint32_t)s->victim;
    ta_victim_probe(&l->tags, s->line);
    replace_way(s);
    ta_install(&l->tags, v, s->line, TA_MODIFIED);
    uint64_t *vm = line_valid(l, v);
    vm[0] = vm[1] = 0;
    l->dirty_res[v] = 0;
    struct mem_reply tmp, *rep = stage_slot(l, rq, &tmp);
    apply(l, v, rq, rep, false);
    uint32_t n = port_cycles(l, rq->size) + (s->wb ? l->line_cycles : 0);
    l->port_free = s->c + 1 + n;
    if (rq->op != MEM_OP_WRITEBACK) {
        stage_commit(l, s->c + 1 + n);
        stat_avg_add(&l->st.hit_lat, s->c + 1 + n - s->h->t_push);
    }
    s->li = s->victim;
}

static void act_fill_line(void *ctx)
{
    struct l2_step *s = ctx;
    struct l2 *l = s->l;
    const struct l2_fill *f = s->f;
    uint32_t li = (uint32_t)s->li, e = (uint32_t)s->e;
    uint8_t *d = line_data(l, li);
    uint64_t *vm = line_valid(l, li);
    if ((vm[0] | vm[1]) == 0) {
        memcpy(d, f->data, l->line);
    } else {
        const uint64_t inv[2] = {~vm[0], ~vm[1]}; /* the bytes the line does not hold yet */
        mem_mask_copy(d, f->data, inv, l->line);
    }
    vm[0] = vm[1] = UINT64_MAX;
    if (UNLIKELY(l->g != NULL)) { /* NOTE(l2-gtsc): a filled line starts at [mem_ts, mem_ts + lease] */
        l->g->wts[li] = l->g->mem_ts;
        l->g->rts[li] = gtsc_add(l, l->g->mem_ts, l->g->lease);
    }
    if (UNLIKELY(l->tc != NULL)) /* NOTE(l2-tc): no lease yet */
        l->tc->gts[li] = 0;
    bool dirty = l->dirty_res[li];
    l->dirty_res[li] = 0;
    mshr_close(&l->mshr, e);
    uint32_t n = mshr_count(&l->mshr, e);
    for (uint32_t k = 0; k < n; k++) {
        struct l2_pend *p = mshr_slot(&l->mshr, e, k);
        struct mem_req rq = p->u.req;
        p->no_reply = rq.op == MEM_OP_WRITEBACK;
        bool wrote = apply(l, li, &rq, &p->u.rep, true);
        dirty |= wrote && !p->forwarded;
    }
    s->dirty = dirty;
}

static const coh_action_fn l2_coh_fns[COH_L2A_N_ACTIONS] = {
    [COH_L2A_HIT] = act_hit,
    [COH_L2A_ADD_REQUEST] = act_add_request,
    [COH_L2A_OPEN_MISS] = act_open_miss,
    [COH_L2A_RESERVE] = act_reserve,
    [COH_L2A_REFETCH] = act_refetch,
    [COH_L2A_ALLOC_WRITE] = act_alloc_write,
    [COH_L2A_FILL_LINE] = act_fill_line,
    [COH_L2A_WRITEBACK] = act_writeback,
    [COH_L2A_FORWARD] = act_forward,
};

/* Request op -> event (MEM_OP_READ, WRITE, ATOMIC, WRITEBACK). */
static const uint8_t l2_op_event[MEM_OP_COUNT] = {
    [MEM_OP_READ] = COH_L2_READ,
    [MEM_OP_WRITE] = COH_L2_WRITE,
    [MEM_OP_ATOMIC] = COH_L2_ATOMIC,
    [MEM_OP_WRITEBACK] = COH_L2_WRITEBACK,
};

/* NOTE(l2-fail-memo): a reservation fail of the input head (the rf_*
 * causes below) depends only on the head, the tag array (line state, the
 * replacement order), the MSHRs and the miss queue's room. All of these
 * change only in a protocol step (a lookup that succeeds, a fill), an MSHR
 * release in the drain and the miss queue's move to the DRAM queue, and
 * each bumps lk_gen (so does a G-TSC reset, to be safe). While lk_gen is
 * unchanged the head fails again for the same cause: the lookup charges
 * that cause without probing the tags. A head stuck behind a full miss
 * queue or full MSHRs retries every cycle (NOTE(head_polls)), which in
 * memory-bound phases is most lookups (bfs medium: 42 M fails against
 * 11 M accepted requests). Not with TC (its lease stalls depend on the
 * time). GPUSIM_PARANOID builds probe anyway and panic when the outcome
 * differs. */
static bool fail_rf(struct l2 *l, enum l2_rf_cause cause)
{
    l->st.rf[cause]++;
    if (l->tc == NULL) {
        l->lk_fail_gen = l->lk_gen;
        l->lk_fail_cause = (uint8_t)cause;
    }
    return false;
}

static bool lookup_probe(struct l2 *l, uint64_t c);

/* Stage 6: tag lookup of the input-queue head. Returns true when it was consumed. */
static bool lookup_once(struct l2 *l, uint64_t c)
{
    if (l->rq_r.n + l->sq_r.n >= l->rq_r.cap) {
        l->st.stall_reply_full++;
        return false;
    }
    if (l->port_free > c + 1) {
        l->st.stall_data_port++;
        return false;
    }
    if (l->lk_fail_gen == l->lk_gen) { /* NOTE(l2-fail-memo) */
        enum l2_rf_cause cause = (enum l2_rf_cause)l->lk_fail_cause;
#ifdef GPUSIM_PARANOID
        uint64_t want = l->st.rf[cause] + 1;
        if (lookup_probe(l, c) || l->st.rf[cause] != want)
            sim_panic("l2 slice %d: memoised lookup fail (cause %d) differs from a probe (NOTE(l2-fail-memo))",
                      l->instance, (int)cause);
#else
        l->st.rf[cause]++;
#endif
        return false;
    }
    return lookup_probe(l, c);
}

/* The tag lookup proper (after the reply-room and data-port tests). */
static bool lookup_probe(struct l2 *l, uint64_t c)
{
    const struct l2_in *h = &l->in[l->in_r.head];
    const struct mem_req *rq = &h->req;
    uint64_t la = mem_line_of(rq->addr);
    struct l2_step s = {.l = l, .h = h, .rq = rq, .line = la, .c = c, .li = ta_probe(&l->tags, la), .e = -1,
                        .victim = -1};
    unsigned ev = l2_op_event[rq->op];

    if (s.li >= 0 && ta_state_of(&l->tags, (uint32_t)s.li) == TA_RESERVED) {
        /* Miss to a line with an outstanding fill: queue in its MSHR entry. */
        s.e = mshr_lookup(&l->mshr, la);
        SIM_ASSERT(s.e >= 0, "l2 slice %d: RESERVED line 0x%llx without an MSHR entry", l->instance,
                   (unsigned long long)la);
        if (!mshr_can_merge(&l->mshr, (uint32_t)s.e)) {
            return fail_rf(l, L2_RF_MERGE_LIMIT);
        }
        if (l->write_miss == L2_WRITE_MISS_FETCH_WRITE && is_write_op(rq->op) && idx_ring_full(&l->mq_r)) {
            return fail_rf(l, L2_RF_MISS_QUEUE); /* the forwarded write needs a miss-queue slot */
        }
        l2_step(&s, COH_L2_R, ev);
        l->st.merges++;
        if (mshr_count(&l->mshr, (uint32_t)s.e) == 2)
            l->n_multi++;
        l->st.acc[rq->op]++;
        if (UNLIKELY(l->on_merge != NULL))
            l->on_merge(l->merge_ctx, l->instance, la, mshr_count(&l->mshr, (uint32_t)s.e), rq);
        return true;
    }

    if (s.li >= 0 && bytes_present(l, (uint32_t)s.li, rq)) {
        if (UNLIKELY(l->tc != NULL) && l->tc->strong && (rq->op == MEM_OP_WRITE || rq->op == MEM_OP_ATOMIC) &&
            l->tc->gts[s.li] > l->tc->now_ps) { /* NOTE(l2-tc): TC-Strong lease stall */
            l->tc->st.write_stalls++;
            return false;
        }
        l2_step(&s, ta_state_of(&l->tags, (uint32_t)s.li), ev);
        l->st.hits++;
        l->st.acc[rq->op]++;
        return true;
    }

    if (s.li >= 0) { /* a partial line lacks bytes: refetch */
        if (l->mq_r.cap - l->mq_r.n < 2) {
            return fail_rf(l, L2_RF_MISS_QUEUE);
        }
        if (mshr_full(&l->mshr)) {
            return fail_rf(l, L2_RF_MSHR_FULL);
        }
        l2_step(&s, ta_state_of(&l->tags, (uint32_t)s.li), COH_L2_PARTIAL);
        l->st.misses++;
        l->st.dram_reads++;
        l->st.acc[rq->op]++;
        return true;
    }

    /* Line absent. */
    uint32_t set = ta_set_of(&l->tags, la);
    s.victim = ta_victim(&l->tags, set);
    if (s.victim < 0) {
        return fail_rf(l, L2_RF_SET_RESERVED);
    }
    if (UNLIKELY(l->tc != NULL) && ta_state_of(&l->tags, (uint32_t)s.victim) >= TA_VALID &&
        l->tc->gts[s.victim] > l->tc->now_ps) { /* NOTE(l2-tc): inclusive of live leases */
        l->tc->st.evict_stalls++;
        return false;
    }
    bool is_write = is_write_op(rq->op);
    if (is_write && l->write_miss == L2_WRITE_MISS_BYTE_MASK) {
        /* only a dirty victim needs the miss queue */
        bool dirty_victim = ta_state_of(&l->tags, (uint32_t)s.victim) == TA_MODIFIED;
        if (dirty_victim && idx_ring_full(&l->mq_r)) {
            return fail_rf(l, L2_RF_MISS_QUEUE);
        }
        l2_step(&s, COH_L2_I, ev);
        l->st.misses++;
        l->st.acc[rq->op]++;
        return true;
    }
    /* New miss: victim, two miss-queue slots (read + possible write-back; a
     * third for the write itself with fetch_write), an MSHR entry. */
    uint32_t need = 2u + (is_write && l->write_miss == L2_WRITE_MISS_FETCH_WRITE);
    if (l->mq_r.cap - l->mq_r.n < need) {
        return fail_rf(l, L2_RF_MISS_QUEUE);
    }
    if (mshr_full(&l->mshr)) {
        return fail_rf(l, L2_RF_MSHR_FULL);
    }
    l2_step(&s, COH_L2_I, ev);
    l->st.misses++;
    l->st.dram_reads++;
    l->st.acc[rq->op]++;
    return true;
}

/* NOTE(l2-locality): with l2.locality_stats, every request the lookup
 * accepts records its SM as the line's last accessor (a simulation-only map
 * per slice, never cleared: lines keep their accessor across kernels); a
 * hit is intra-core when the previous accessor was the same SM, inter-core
 * when another SM, and unknown when the line was never requested. */
static bool lookup(struct l2 *l, uint64_t c)
{
    if (LIKELY(l->loc == NULL))
        return lookup_once(l, c);
    const struct mem_req *rq = &l->in[l->in_r.head].req;
    uint64_t la = mem_line_of(rq->addr), src = rq->src, hits = l->st.hits;
    if (!lookup_once(l, c))
        return false;
    uint64_t prev = lastacc_swap(l->loc, la, src);
    if (l->st.hits != hits)
        l->st.loc_hits[prev == LASTACC_NONE ? 2 : prev == src ? 0 : 1]++;
    return true;
}

/* Stage 3: a fill at cycle c installs the line and applies the entry's
 * requests in arrival order; their replies leave from c + fill_cycles. */
static void fill(struct l2 *l, const struct l2_fill *f, uint64_t c)
{
    int32_t e = mshr_lookup(&l->mshr, f->line_addr);
    SIM_ASSERT(e >= 0, "l2 slice %d: fill of line 0x%llx with no outstanding miss", l->instance,
               (unsigned long long)f->line_addr);
    uint32_t li = l->mshr_lineidx[e];
    SIM_ASSERT(ta_tag_of(&l->tags, li) == f->line_addr && ta_state_of(&l->tags, li) == TA_RESERVED,
               "l2 slice %d: fill of line 0x%llx: reserved line %u holds 0x%llx in state %d", l->instance,
               (unsigned long long)f->line_addr, li, (unsigned long long)ta_tag_of(&l->tags, li),
               (int)ta_state_of(&l->tags, li));
    /* The event: will the line be written (bytes written while reserved, or a
     * queued write, write-back or atomic)? */
    bool dirty = l->dirty_res[li];
    uint32_t n = mshr_count(&l->mshr, (uint32_t)e);
    for (uint32_t k = 0; k < n && !dirty; k++) {
        const struct l2_pend *p = mshr_slot(&l->mshr, (uint32_t)e, k);
        dirty = p->u.req.op != MEM_OP_READ && !p->forwarded;
    }
    struct l2_step s = {.l = l, .f = f, .line = f->line_addr, .c = c, .li = (int32_t)li, .e = e, .victim = -1};
    l2_step(&s, COH_L2_R, dirty ? COH_L2_FILL_DIRTY : COH_L2_FILL);
    SIM_DEBUG_ASSERT(s.dirty == dirty, "l2 slice %d: fill of line 0x%llx: dirty %d, event said %d", l->instance,
                     (unsigned long long)f->line_addr, (int)s.dirty, (int)dirty);
    l->drain_from[e] = c + l->fill_cycles;
    l->drain_pos[e] = 0;
    SIM_ASSERT(!idx_ring_full(&l->drain_r), "l2 slice %d: drain list overflow", l->instance);
    l->drain[idx_ring_tail(&l->drain_r)] = (uint32_t)e;
    l->drain_r.n++;
    l->st.fills++;
    stat_hist_add(&l->merge_at_fill, n);
}

/* Stage 2: one reply of the oldest filled entry per cycle. */
static void drain(struct l2 *l, uint64_t c)
{
    uint32_t e = l->drain[l->drain_r.head];
    if (l->drain_from[e] > c)
        return;
    uint32_t n = mshr_count(&l->mshr, e);
    while (l->drain_pos[e] < n) {
        struct l2_pend *p = mshr_slot(&l->mshr, e, l->drain_pos[e]);
        if (p->no_reply) {
            l->drain_pos[e]++;
            continue;
        }
        if (l->rq_r.n + l->sq_r.n >= l->rq_r.cap) {
            l->st.stall_drain_full++;
            return;
        }
        l->rq[idx_ring_tail(&l->rq_r)] = p->u.rep;
        l->rq_r.n++;
        stat_avg_add(&l->st.miss_lat, c - p->t_push);
        l->drain_pos[e]++;
        break;
    }
    if (l->drain_pos[e] < n) {
        /* Skip trailing no-reply slots now so the entry frees promptly. */
        bool rest_silent = true;
        for (uint32_t k = l->drain_pos[e]; k < n; k++)
            rest_silent &= ((struct l2_pend *)mshr_slot(&l->mshr, e, k))->no_reply != 0;
        if (!rest_silent)
            return;
    }
    if (n > 1)
        l->n_multi--;
    mshr_release(&l->mshr, e);
    idx_ring_pop(&l->drain_r);
    l->lk_gen++; /* NOTE(l2-fail-memo) */
}

static void check_invariants(const struct l2 *l)
{
    SIM_DEBUG_ASSERT(l->in_q <= l->in_r.n && l->in_q <= l->in_q_cap && l->in_r.n <= l->in_r.cap,
                     "l2 slice %d: input ring n=%u q=%u", l->instance, l->in_r.n, l->in_q);
    SIM_DEBUG_ASSERT(l->rq_r.n + l->sq_r.n <= l->rq_r.cap, "l2 slice %d: reply queue %u + staged %u > %u",
                     l->instance, l->rq_r.n, l->sq_r.n, l->rq_r.cap);
    SIM_DEBUG_ASSERT(l->mq_r.n <= l->mq_r.cap && l->dq_r.n <= l->dq_r.cap && l->fq_r.n <= l->fq_r.cap,
                     "l2 slice %d: queue counts", l->instance);
    SIM_DEBUG_ASSERT(l->drain_r.n <= mshr_in_use(&l->mshr), "l2 slice %d: %u draining of %u MSHR entries",
                     l->instance, l->drain_r.n, mshr_in_use(&l->mshr));
    (void)l;
}

uint64_t l2_tick(struct l2 *l, uint64_t c)
{
    check_invariants(l);
    if (UNLIKELY(l->tc != NULL))
        l->tc->now_ps = c * l->tc->period_ps; /* NOTE(l2-tc): physical time of this cycle */
    if (l->ticked) {
        SIM_ASSERT(c > l->last_tick, "l2 slice %d: tick %llu after %llu", l->instance, (unsigned long long)c,
                   (unsigned long long)l->last_tick);
        uint64_t dt = c - l->last_tick;
        uint32_t in_use = mshr_in_use(&l->mshr);
        l->st.mshr_occ.sum += (uint64_t)in_use * dt;
        l->st.mshr_occ.count += dt;
        /* NOTE(merge-classes): the state held since the last tick, as mshr_occ
         * (exact with idle skipping: MSHR state changes only inside ticks). */
        l->st.mshr_cycles[in_use == 0 ? 0 : l->n_multi ? 2 : 1] += dt;
    }
    l->last_tick = c;
    l->ticked = true;

    /* 1. data port output -> reply queue (its slot was reserved at lookup) */
    while (l->sq_r.n && l->sq[l->sq_r.head].ready <= c) {
        l->rq[idx_ring_tail(&l->rq_r)] = l->sq[l->sq_r.head].rep;
        l->rq_r.n++;
        idx_ring_pop(&l->sq_r);
    }
    /* 2. MSHR drain */
    if (l->drain_r.n)
        drain(l, c);
    /* 3. fill port */
    if (l->fq_r.n && l->fq[l->fq_r.head].ready <= c && l->fill_free <= c) {
        fill(l, &l->fq[l->fq_r.head], c);
        idx_ring_pop(&l->fq_r);
        l->fill_free = c + l->fill_cycles;
    }
    /* 4. miss queue -> L2->DRAM queue, one per cycle */
    if (l->mq_r.n && l->mq[l->mq_r.head].ready <= c) {
        if (!idx_ring_full(&l->dq_r)) {
            l->dq[idx_ring_tail(&l->dq_r)] = l->mq[l->mq_r.head];
            l->dq_r.n++;
            idx_ring_pop(&l->mq_r);
            l->lk_gen++; /* NOTE(l2-fail-memo): miss-queue room */
        } else {
            l->st.stall_dram_full++;
        }
    }
    /* 5. ROP line -> input queue, one per cycle */
    if (l->in_q < l->in_r.n && l->in[idx_ring_at(&l->in_r, l->in_q)].rop_ready <= c) {
        if (l->in_q < l->in_q_cap)
            l->in_q++;
        else
            l->st.stall_input_full++;
    }
    /* 6. tag lookup; a blocked head blocks the queue (strict arrival order) */
    if (l->in_q && lookup(l, c)) {
        idx_ring_pop(&l->in_r);
        l->in_q--;
    }

    /* Next cycle with work. Waits on time return that time; a stage blocked
     * by a full queue or a missing resource polls every cycle (c + 1), so
     * stall and reservation-fail counts are per cycle. */
    uint64_t next = CYCLE_NEVER, c1 = c + 1;
    if (l->sq_r.n)
        next = min_u64(next, max_u64(l->sq[l->sq_r.head].ready, c1));
    if (l->drain_r.n)
        next = min_u64(next, max_u64(l->drain_from[l->drain[l->drain_r.head]], c1));
    if (l->fq_r.n)
        next = min_u64(next, max_u64(max_u64(l->fq[l->fq_r.head].ready, l->fill_free), c1));
    if (l->mq_r.n)
        next = min_u64(next, max_u64(l->mq[l->mq_r.head].ready, c1));
    if (l->in_q < l->in_r.n)
        next = min_u64(next, max_u64(l->in[idx_ring_at(&l->in_r, l->in_q)].rop_ready, c1));
    /* NOTE(head_polls): a waiting input head is ticked every cycle, even
     * when it only waits for the data port (at most n <= 4 cycles), so the
     * per-cycle stall counts do not depend on whether idle cycles are skipped
     * (tests/test_l2.c checks both schedules give identical statistics). */
    if (l->in_q)
        next = c1;
    return next;
}

/* ------------------------------------------------------------- stats, probes */

void l2_stats_register(struct l2 *l, struct stats *s)
{
    int i = l->instance;
    static const char *const acc_names[MEM_OP_COUNT] = {"acc_read", "acc_write", "acc_atomic", "acc_writeback"};
    static const char *const acc_docs[MEM_OP_COUNT] = {
        "read requests processed", "write requests processed (acknowledged)",
        "atomic requests processed", "L1 write-backs processed (not acknowledged)"};
    for (int k = 0; k < MEM_OP_COUNT; k++)
        stats_counter(s, "l2", i, acc_names[k], &l->st.acc[k], acc_docs[k]);
    stats_counter(s, "l2", i, "hits", &l->st.hits, "requests served at tag lookup");
    stats_counter(s, "l2", i, "misses", &l->st.misses, "requests that allocated a line");
    stats_counter(s, "l2", i, "merges", &l->st.merges, "requests queued in an outstanding MSHR entry (MSHR hits)");
    if (l->loc) { /* l2.locality_stats (NOTE(l2-locality)) */
        stats_counter(s, "l2", i, "hits_intra_core", &l->st.loc_hits[0], "hits whose line was last requested by the same SM");
        stats_counter(s, "l2", i, "hits_inter_core", &l->st.loc_hits[1], "hits whose line was last requested by another SM");
        stats_counter(s, "l2", i, "hits_unknown", &l->st.loc_hits[2], "hits on a line no SM requested before");
    }
    stats_counter(s, "l2", i, "rf_set_reserved", &l->st.rf[L2_RF_SET_RESERVED],
                  "reservation fails: every way of the set RESERVED (per attempt)");
    stats_counter(s, "l2", i, "rf_miss_queue", &l->st.rf[L2_RF_MISS_QUEUE],
                  "reservation fails: miss queue lacks 2 free slots (per attempt)");
    stats_counter(s, "l2", i, "rf_mshr_full", &l->st.rf[L2_RF_MSHR_FULL],
                  "reservation fails: no free MSHR entry (per attempt)");
    stats_counter(s, "l2", i, "rf_merge_limit", &l->st.rf[L2_RF_MERGE_LIMIT],
                  "reservation fails: MSHR entry at its merge limit (per attempt)");
    stats_counter(s, "l2", i, "writebacks", &l->st.writebacks, "dirty lines written back to DRAM");
    stats_counter(s, "l2", i, "write_forwards", &l->st.write_forwards,
                  "writes to a missing or reserved line sent on to DRAM (l2.write_miss = fetch_write)");
    stats_counter(s, "l2", i, "dram_reads", &l->st.dram_reads, "line reads sent to DRAM");
    stats_counter(s, "l2", i, "fills", &l->st.fills, "lines filled from DRAM");
    if (l->g) { /* coh.protocol = gtsc only (NOTE(l2-gtsc)) */
        stats_counter(s, "l2", i, "gtsc_rd_fills", &l->g->st.rd_fills, "G-TSC reads answered with data (BusFill)");
        stats_counter(s, "l2", i, "gtsc_rd_renewals", &l->g->st.rd_renewals,
                      "G-TSC reads answered without data (BusRnw: lease renewed)");
        stats_counter(s, "l2", i, "gtsc_stamps", &l->g->st.stamps, "G-TSC writes and atomics timestamped");
        stats_counter(s, "l2", i, "gtsc_inval_acks", &l->g->st.inval_acks,
                      "G-TSC write acks telling the writer to drop a possibly stale L1 copy");
        stats_counter(s, "l2", i, "gtsc_mem_ts_raises", &l->g->st.mem_ts_raises, "G-TSC evictions that raised mem_ts");
        stats_max(s, "l2", i, "gtsc_mem_ts", &l->g->mem_ts_stat,
                  "G-TSC largest mem_ts reached (logical time; a timestamp reset starts mem_ts again at 1)");
        stats_counter(s, "l2", i, "gtsc_resets", &l->g->st.resets,
                      "G-TSC timestamp resets taken (all slices at once, NOTE(gtsc-reset))");
        stats_counter(s, "l2", i, "gtsc_old_reqs", &l->g->st.old_reqs,
                      "G-TSC requests stamped before the last reset (answered as warp_ts 1, no BusRnw)");
    }
    if (l->tc) { /* coh.protocol = tc only (NOTE(l2-tc)) */
        stats_counter(s, "l2", i, "tc_leases", &l->tc->st.leases, "TC reads that handed out a lease");
        stats_counter(s, "l2", i, "tc_write_stalls", &l->tc->st.write_stalls,
                      "TC-Strong L2 cycles a write or atomic waited at the input head for its line's leases");
        stats_counter(s, "l2", i, "tc_evict_stalls", &l->tc->st.evict_stalls,
                      "TC L2 cycles a miss waited for its victim line's leases to expire");
    }
    stats_counter(s, "l2", i, "stall_input_full", &l->st.stall_input_full,
                  "L2 cycles a request leaving the ROP line found the input queue full");
    stats_counter(s, "l2", i, "stall_reply_full", &l->st.stall_reply_full,
                  "L2 cycles the input head waited for L2->icnt queue room");
    stats_counter(s, "l2", i, "stall_data_port", &l->st.stall_data_port,
                  "L2 cycles the input head waited for the data port");
    stats_counter(s, "l2", i, "stall_dram_full", &l->st.stall_dram_full,
                  "L2 cycles the miss-queue head waited for L2->DRAM queue room");
    stats_counter(s, "l2", i, "stall_drain_full", &l->st.stall_drain_full,
                  "L2 cycles a fill reply waited for L2->icnt queue room");
    stats_avg(s, "l2", i, "mshr_occupancy", &l->st.mshr_occ, "MSHR entries in use, averaged over L2 cycles");
    stats_counter(s, "l2", i, "mshr_cycles_idle", &l->st.mshr_cycles[0], "L2 cycles with no MSHR entry in use");
    stats_counter(s, "l2", i, "mshr_cycles_single", &l->st.mshr_cycles[1],
                  "L2 cycles with MSHR entries in use, each holding one request");
    stats_counter(s, "l2", i, "mshr_cycles_merged", &l->st.mshr_cycles[2],
                  "L2 cycles with some MSHR entry holding more than one request (003: inter-core locality)");
    stats_hist(s, "l2", i, "merge_at_fill", &l->merge_at_fill,
               "requests an MSHR entry holds when its fill arrives (bin = count)");
    stats_avg(s, "l2", i, "hit_latency", &l->st.hit_lat, "L2 cycles from arrival to reply, hits");
    stats_avg(s, "l2", i, "miss_latency", &l->st.miss_lat, "L2 cycles from arrival to reply, served at fill");
    /* Only with a non-default policy or victim tags, so the default output is unchanged. */
    if (l->cache_stats)
        ta_stats_register(&l->tags, s, "l2", i);
}

enum ta_state l2_probe_line(const struct l2 *l, uint64_t line_addr, uint8_t out[MEM_LINE_BYTES], uint64_t valid[2])
{
    int32_t li = ta_probe(&l->tags, line_addr);
    if (li < 0)
        return TA_INVALID;
    if (out)
        memcpy(out, l->data + (size_t)li * l->line, l->line);
    if (valid) {
        valid[0] = l->valid[(size_t)li * 2];
        valid[1] = l->valid[(size_t)li * 2 + 1];
    }
    return ta_state_of(&l->tags, (uint32_t)li);
}

bool l2_idle(const struct l2 *l)
{
    return l->in_r.n == 0 && l->mq_r.n == 0 && l->dq_r.n == 0 && l->fq_r.n == 0 && l->rq_r.n == 0 &&
           l->sq_r.n == 0 && mshr_in_use(&l->mshr) == 0;
}
