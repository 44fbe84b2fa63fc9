/* sim/sm/lsu/l1d_tc.c: the L1D's Temporal Coherence paths (coh.protocol =
 * tc): the access, reply and kernel-boundary paths that run the tc_l1 table
 * (sim/mem/coh_tc_l1.c). The cache's structures are l1d.c's; the expiry
 * times and the warps' GWCTs are struct l1d_tc.
 *
 * NOTE(l1d-tc): what is modelled (spec coherence-gtsc.md 3.3; the items the
 * spec marks "ext" are the usual TC design, not in 001):
 *  - physical time is simulated time in ps: the L1D's cycle x its period,
 *    the L2's cycle x its period, so no shared clock object is needed;
 *  - a cached load hits iff the line is present and now < its expiry; a
 *    load that finds the copy expired drops it (Expire) and misses; a local
 *    load hits any present line (private data);
 *  - a fill installs the line with the expiry the L2 gave (now_L2 + lease);
 *    every load merged in the entry completes with it, even when it arrives
 *    already expired (the loads were ordered at the L2's read);
 *  - stores write through without allocating and drop the writer's copy
 *    (ext); a store, local store or atomic to a line with a read outstanding
 *    is refused until the fill (as G-TSC, NOTE(l1d-gtsc));
 *  - TC-Weak: every write or atomic ack carries the GWCT (the time the
 *    line's last lease expires); the warp keeps the largest. A gpu-scope
 *    fence or release, once its acks are in (ldst.c), waits until now >=
 *    the largest GWCT of every warp of the SM (the fence's cumulativity
 *    covers the SM's older writes, so their GWCTs count; the SM-wide maximum
 *    is the conservative superset, as NOTE(gtsc-sync));
 *  - TC-Strong: the L2 performs a write only when the line's leases expired,
 *    so acks carry no wait; with sched.max_outstanding_mem_per_warp = 1 it
 *    is SC;
 *  - allocation on fill; volatile/.cg loads read L2 and are not installed.
 * Not modelled: lease prediction (the TC paper's adaptive leases), 32-bit
 * timestamp rollover, energy.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sm/lsu/l1d_internal.h"


static unsigned t1_state(const struct l1d *l, int32_t li, int32_t e)
{
    if (li >= 0)
        return ta_state_of(&l->tags, (uint32_t)li) == TA_MODIFIED ? COH_T1_M : COH_T1_V;
    return e >= 0 ? COH_T1_IP : COH_T1_I;
}

static void t1_step(struct l1d_step *s, unsigned state, unsigned ev)
{
    unsigned next = coh_step(&s->l->coh, s->line, state, ev, s);
    enum ta_state t = next == COH_T1_M ? TA_MODIFIED : TA_VALID;
    if (s->li >= 0 && (next == COH_T1_V || next == COH_T1_M) && ta_state_of(&s->l->tags, (uint32_t)s->li) != t)
        ta_set_state(&s->l->tags, (uint32_t)s->li, t);
}

static void t1_replace(struct l1d *l, int32_t v, cycle_t cycle)
{
    bool present = ta_state_of(&l->tags, (uint32_t)v) != TA_INVALID;
    struct l1d_step r = {.l = l, .line = ta_tag_of(&l->tags, (uint32_t)v), .cycle = cycle, .li = v, .e = -1,
                        .victim = -1};
    t1_step(&r, present ? t1_state(l, v, -1) : COH_T1_I, COH_T1_REPLACE);
}

/* ------------------------------------------------------------- actions */

static void ta_hit_done(void *ctx)
{
    struct l1d_step *s = ctx;
    bool load = s->a->txn.op == COAL_LOAD;
    l1d_push_hit_done(s->l, s->line, s->a->token, load ? L1D_DONE_LOAD : L1D_DONE_STORE,
                      load ? l1d_line_data(s->l, (uint32_t)s->li) : NULL, s->cycle);
}

static void ta_open_read(void *ctx)
{
    struct l1d_step *s = ctx;
    s->e = l1d_open_entry(s->l, s->line, true, s->cycle);
    l1d_mq_push(s->l, MEM_OP_READ, s->line, L1D_ID_FILL | (uint32_t)s->e, (uint8_t)s->l->line, s->cycle);
}

static void ta_add_waiter(void *ctx)
{
    struct l1d_step *s = ctx;
    struct l1d_pend *p = mshr_add(&s->l->mshr, (uint32_t)s->e);
    SIM_ASSERT(p, "l1d[%d]: MSHR merge after check", s->l->sm_id);
    p->token = s->a->token;
    p->t_acc = s->cycle;
    p->warp = s->a->warp;
}

static void ta_evict(void *ctx)
{
    struct l1d_step *s = ctx;
    ta_invalidate(&s->l->tags, (uint32_t)s->li);
    if (s->a && s->a->txn.op != COAL_LOAD)
        s->l->st.evictions++;
    s->li = -1;
}

static void ta_fill_line(void *ctx)
{
    struct l1d_step *s = ctx;
    struct l1d *l = s->l;
    uint32_t v = (uint32_t)s->victim;
    t1_replace(l, s->victim, s->cycle);
    ta_install(&l->tags, v, s->line, TA_VALID);
    l1d_set_inserter(l, v, l->mshr_warp[s->e]);
    memcpy(l1d_line_data(l, v), s->rep->data, l->line);
    l->tc->exp[v] = mem_rep_time(s->rep);
    s->li = s->victim;
}

static const coh_action_fn t1_fns[COH_T1A_N_ACTIONS] = {
    [COH_T1A_TOUCH] = l1d_act_touch,
    [COH_T1A_HIT_DONE] = ta_hit_done,
    [COH_T1A_OPEN_READ] = ta_open_read,
    [COH_T1A_ADD_WAITER] = ta_add_waiter,
    [COH_T1A_WRITE_DATA] = l1d_act_write_data,
    [COH_T1A_SEND_WRITE] = l1d_act_send_write,
    [COH_T1A_SEND_ATOMIC] = l1d_act_send_atomic,
    [COH_T1A_EVICT] = ta_evict,
    [COH_T1A_WRITEBACK] = l1d_act_writeback,
    [COH_T1A_FILL_LINE] = ta_fill_line,
    [COH_T1A_COMPLETE] = l1d_act_complete,
    [COH_T1A_RELEASE_MSHR] = l1d_act_release_mshr,
};

/* ------------------------------------------------------------- init */

void l1d_tc_init(struct l1d *l, const struct l1d_cfg *cfg)
{
    SIM_ASSERT(cfg->period_ps > 0, "l1d[%d]: TC needs the L1D clock period", l->sm_id);
    struct l1d_tc *t = xcalloc(1, sizeof *t);
    t->period_ps = cfg->period_ps;
    t->exp = xcalloc(ta_n_lines(&l->tags), sizeof *t->exp);
    l->tc = t;
    coh_table_init(&l->coh, &coh_tc_l1, t1_fns, "l1d", l->sm_id);
}

void l1d_tc_fini(struct l1d *l)
{
    if (!l->tc)
        return;
    free(l->tc->exp);
    free(l->tc);
    l->tc = NULL;
}

/* ------------------------------------------------------------- access */

enum l1d_result l1d_tc_access(struct l1d *l, const struct l1d_acc *a, cycle_t cycle, enum l1d_rf_cause *cause)
{
    const struct coal_txn *t = &a->txn;
    uint64_t line = t->line_addr, now = cycle * l->tc->period_ps;
    struct l1d_step s = {.l = l, .a = a, .line = line, .cycle = cycle, .li = ta_probe(&l->tags, line),
                        .e = mshr_lookup(&l->mshr, line), .victim = -1};
    unsigned st = t1_state(l, s.li, s.e);
    if (t->op == COAL_LOAD) {
        if (t->l1_bypass) { /* reads L2, not installed */
            if (reqq_free(&l->mq) < 1)
                return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
            l1d_mq_push(l, MEM_OP_READ, line | t->seg_offset, a->token, (uint8_t)t->seg_size, cycle);
            l->st.loads++;
            l->st.bypass_loads++;
            return L1D_SENT;
        }
        if (st == COH_T1_M || (st == COH_T1_V && (a->is_local || now < l->tc->exp[s.li]))) {
            if (idx_ring_full(&l->hq_r))
                return l1d_fail(l, L1D_RF_DONE_FULL, cause);
            t1_step(&s, st, COH_T1_LOAD_HIT);
            l->st.loads++;
            l->st.load_hits++;
            return L1D_HIT;
        }
        if (st == COH_T1_IP) {
            if (!mshr_can_merge(&l->mshr, (uint32_t)s.e))
                return l1d_fail(l, L1D_RF_MERGE_LIMIT, cause);
            t1_step(&s, st, COH_T1_LOAD);
            l->st.loads++;
            l->st.mshr_merges++;
            return L1D_MERGED;
        }
        if (mshr_full(&l->mshr))
            return l1d_fail(l, L1D_RF_MSHR_FULL, cause);
        if (reqq_free(&l->mq) < 1)
            return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
        if (st == COH_T1_V) { /* expired: self-invalidate, then miss */
            t1_step(&s, st, COH_T1_EXPIRE);
            l->tc->st.expired++;
        } else {
            l1d_miss_class(l, line);
        }
        t1_step(&s, COH_T1_I, COH_T1_LOAD);
        l->st.loads++;
        l->st.load_misses++;
        return L1D_MISS;
    }
    if (s.e >= 0) {
        l->tc->st.open_refusals++;
        return l1d_fail(l, L1D_RF_STALE, cause);
    }
    bool hit = st != COH_T1_I;
    if (t->op == COAL_STORE) {
        if (a->is_local && hit) {
            if (idx_ring_full(&l->hq_r))
                return l1d_fail(l, L1D_RF_DONE_FULL, cause);
        } else if (reqq_free(&l->mq) < 1) {
            return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
        }
        t1_step(&s, st, a->is_local ? COH_T1_LOCAL_STORE : COH_T1_STORE);
        l->st.stores++;
        if (hit)
            l->st.store_hits++;
        else
            l->st.store_misses++;
        return a->is_local && hit ? L1D_HIT : L1D_SENT;
    }
    if (reqq_free(&l->mq) < 1u + (st == COH_T1_M ? 1u : 0u))
        return l1d_fail(l, L1D_RF_MISS_QUEUE, cause);
    t1_step(&s, st, COH_T1_ATOMIC);
    l->st.atomics++;
    return L1D_SENT;
}

/* ------------------------------------------------------------- replies */

bool l1d_tc_reply(struct l1d *l, const struct mem_reply *rep, cycle_t cycle)
{
    if (rep->op == MEM_OP_READ && (rep->id & L1D_ID_FILL)) {
        uint32_t e = rep->id & ~L1D_ID_FILL;
        SIM_ASSERT(e < l->mshr.n_entries && l->mshr.state[e] == MSHR_OPEN &&
                       mshr_line(&l->mshr, e) == mem_line_of(rep->addr),
                   "l1d[%d]: fill 0x%llx for MSHR entry %u that does not expect it", l->sm_id,
                   (unsigned long long)rep->addr, e);
        uint64_t line = mshr_line(&l->mshr, e);
        if (idx_ring_free(&l->fq_r) < mshr_count(&l->mshr, e))
            return false;
        struct l1d_step s = {.l = l, .rep = rep, .line = line, .cycle = cycle, .li = -1, .e = (int32_t)e,
                            .victim = ta_victim(&l->tags, ta_set_of(&l->tags, line))};
        SIM_ASSERT(s.victim >= 0, "l1d[%d]: no victim way under TC", l->sm_id);
        if (ta_state_of(&l->tags, (uint32_t)s.victim) == TA_MODIFIED && reqq_full(&l->mq))
            return false;
        l->cur_warp = l->mshr_warp[e]; /* a victim's write-back is this miss's doing */
        l->cur_cta = l->mshr_cta[e];
        t1_step(&s, COH_T1_IP, COH_T1_FILL);
        l->cur_warp = MEM_WARP_NONE;
        l->cur_cta = MEM_CTA_NONE;
        l->st.fills++;
        return true;
    }
    SIM_ASSERT(rep->op == MEM_OP_READ || rep->op == MEM_OP_WRITE || rep->op == MEM_OP_ATOMIC,
               "l1d[%d]: reply with op %u", l->sm_id, rep->op);
    if (idx_ring_full(&l->fq_r))
        return false;
    if (rep->op != MEM_OP_READ && rep->warp < 64) { /* TC-Weak: remember when the write is globally visible */
        uint64_t g = mem_rep_time(rep);
        if (g > l->tc->gwct[rep->warp])
            l->tc->gwct[rep->warp] = g;
    }
    l1d_pass_through(l, rep, cycle);
    return true;
}

uint64_t l1d_tc_fence_cycle(struct l1d *l, cycle_t cycle)
{
    l->gen++; /* NOTE(fail-memo) */
    if (!l->tc)
        return 0;
    uint64_t g = 0;
    for (uint32_t w = 0; w < 64; w++)
        g = MAX(g, l->tc->gwct[w]);
    uint64_t c = (g + l->tc->period_ps - 1) / l->tc->period_ps; /* first cycle with now >= GWCT */
    if (c > cycle)
        l->tc->st.fence_waits++;
    return c;
}

/* ------------------------------------------------------------- kernel boundary */

void l1d_tc_flush_line(struct l1d *l, uint32_t li, cycle_t cycle)
{
    struct l1d_step s = {.l = l, .line = ta_tag_of(&l->tags, li), .cycle = cycle, .li = (int32_t)li, .e = -1,
                        .victim = -1};
    t1_step(&s, COH_T1_M, COH_T1_FLUSH);
}

void l1d_tc_invalidate_all(struct l1d *l)
{
    uint32_t n = ta_n_lines(&l->tags);
    for (uint32_t i = 0; i < n; i++) {
        struct l1d_step s = {.l = l, .line = ta_tag_of(&l->tags, i), .li = -1, .e = -1, .victim = -1};
        unsigned st = ta_state_of(&l->tags, i) == TA_INVALID ? COH_T1_I : t1_state(l, (int32_t)i, -1);
        t1_step(&s, st, COH_T1_INV_ALL);
    }
    memset(l->tc->exp, 0, n * sizeof *l->tc->exp);
}

void l1d_tc_stats_register(struct l1d *l, struct stats *s)
{
    int i = l->sm_id;
    stats_counter(s, "l1d", i, "tc_expired", &l->tc->st.expired,
                  "TC loads that found their copy's lease expired (coherence misses)");
    stats_counter(s, "l1d", i, "tc_open_refusals", &l->tc->st.open_refusals,
                  "TC stores/atomics refused while their line had a read outstanding (per attempt)");
    stats_counter(s, "l1d", i, "tc_fence_waits", &l->tc->st.fence_waits,
                  "TC-Weak L1D cycles gpu fences/releases waited for the SM's GWCT after their acks");
}
