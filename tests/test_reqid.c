/* tests/test_reqid.c: requester identity and the mechanism hooks (issue 10,
 * docs/messages.md, docs/l1.md "Per-warp events", docs/sched.md "L1 events",
 * docs/dram.md "Scheduler hooks").
 *
 *  1. LD/ST unit + L1D + constant cache: every request that leaves the SM
 *     side carries its SM (src), warp, CTA, space and creation cycle
 *     (t_create = the cycle of the cache access that queued it: the memop
 *     is pushed at t0, enters the stage and accesses the cache at t0 + 1).
 *  2. A worked scheduler-hook policy: LRR plus an on_l1 entry that counts
 *     per-warp L1 hits, misses, merges, stores and evictions; its counts
 *     match the L1D's own counters and the tag array's eviction counts, an
 *     eviction names the warp that inserted the line, and the hook changes
 *     no timing.
 *  3. A worked DRAM-scheduler hook policy: FR-FCFS plus on_enqueue (counts
 *     requests and records their identity), on_update and tick. Directly on
 *     a DRAM channel, and end to end through a memory partition, where the
 *     identity pushed into the L2 arrives at the DRAM with the L2 MSHR merge
 *     count of the miss.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/func/atomic_ops.h"
#include "partitions/dram/dram_sched.h"
#include "partitions/mempart/mempart.h"
#include "sim/base/common.h"
#include "sim/gpu/gpu_cfg.h"
#include "sim/ptx/ir.h"
#include "sim/sm/lsu/ldst.h"
#include "tests/support/memop_store.h"
#include "sim/sm/sched/sched.h"
#include "tap.h"

/* ================================================================ LD/ST rig */

#define MEMB (1u << 20)
#define D 10u /* fake L2 delay (cycles) */
#define LOCAL_BASE 0x80000u
#define MAXOPS 4096
#define MAXREQ 8192
#define SM_ID 3

struct fake {
    uint8_t *mem;
    struct mem_reply q[512];
    uint64_t ready[512];
    uint32_t head, n;
    struct mem_req *log; /* every request taken, in order */
    uint64_t *log_cycle;
    uint32_t n_log;
    bool done[MAXOPS];
    uint64_t done_cycle[MAXOPS];
};

static void fake_take(struct fake *f, const struct mem_req *r, uint64_t cycle)
{
    SIM_ASSERT(f->n_log < MAXREQ, "request log full");
    f->log_cycle[f->n_log] = cycle;
    f->log[f->n_log++] = *r;
    uint64_t line = mem_line_of(r->addr);
    struct mem_reply rep;
    memset(&rep, 0, sizeof rep);
    rep.addr = r->addr, rep.id = r->id, rep.src = r->src, rep.op = r->op;
    switch (r->op) {
    case MEM_OP_READ: memcpy(rep.data, f->mem + line, 128); rep.size = r->size; break;
    case MEM_OP_WRITE:
    case MEM_OP_WRITEBACK:
        for (uint32_t i = 0; i < 128; i++)
            if (mem_mask_test(r->mask, i))
                f->mem[line + i] = r->data[i];
        if (r->op == MEM_OP_WRITEBACK)
            return;
        break;
    case MEM_OP_ATOMIC: rep.n_lanes = r->atom.n_lanes, rep.size = r->size; break;
    }
    uint32_t i = (f->head + f->n) % 512u;
    f->q[i] = rep, f->ready[i] = cycle + D, f->n++;
}

static void h_smem(void *ctx, uint32_t warp, uint64_t off, unsigned bytes, bool write, uint8_t *buf)
{
    (void)ctx, (void)warp, (void)off, (void)write;
    memset(buf, 0, bytes);
}
static uint64_t h_local(void *ctx, uint32_t warp, uint32_t lane, uint64_t off)
{
    (void)ctx;
    return LOCAL_BASE + (uint64_t)(warp * 32 + lane) * 64 + off;
}
static void h_param(void *ctx, uint32_t warp, uint64_t off, unsigned bytes, uint8_t *buf)
{
    (void)ctx, (void)warp, (void)off;
    memset(buf, 0, bytes);
}
static void h_done(void *ctx, const struct memop *op, const struct memop_result *res, uint64_t cycle)
{
    struct fake *f = ctx;
    (void)res;
    SIM_ASSERT(op->seq < MAXOPS && !f->done[op->seq], "double completion");
    f->done[op->seq] = true;
    f->done_cycle[op->seq] = cycle;
}

struct rig {
    struct ldst u;
    struct fake *f;
    uint64_t t;
    struct memop_store store; /* pushed memops (tests/support/memop_store.h) */
};

/* Hand op to the unit at cycle `cycle` (a copy kept in the rig's store). */
static bool rig_push(struct rig *r, const struct memop *op, uint64_t cycle)
{
    return memop_store_push(&r->store, &r->u, op, cycle);
}

static void rig_init(struct rig *r, l1d_event_fn on_l1)
{
    r->f = xcalloc(1, sizeof *r->f);
    r->f->mem = xcalloc(MEMB, 1);
    r->f->log = xcalloc(MAXREQ, sizeof *r->f->log);
    r->f->log_cycle = xcalloc(MAXREQ, sizeof *r->f->log_cycle);
    struct ldst_params p;
    ldst_params_defaults(&p);
    struct ldst_hooks h = {r->f, h_smem, h_local, h_param, h_done, on_l1};
    ldst_init(&r->u, &p, &h, SM_ID);
    r->t = 0;
    memop_store_init(&r->store);
}

static void rig_fini(struct rig *r)
{
    ldst_fini(&r->u);
    free(r->f->mem);
    free(r->f->log);
    free(r->f->log_cycle);
    free(r->f);
    memop_store_fini(&r->store);
}

static void cyc(struct rig *r)
{
    struct fake *f = r->f;
    ldst_tick(&r->u, r->t);
    struct mem_req q;
    if (ldst_pop_req(&r->u, &q, r->t))
        fake_take(f, &q, r->t);
    while (f->n && f->ready[f->head] <= r->t && ldst_push_reply(&r->u, &f->q[f->head], r->t))
        f->head = (f->head + 1) % 512u, f->n--;
    r->t++;
}

/* Push at cycle t - 1 (after its tick), waiting for the latch; returns the push cycle. */
static uint64_t push(struct rig *r, const struct memop *op)
{
    if (r->t == 0)
        cyc(r);
    for (int g = 0; g < 100000 && !ldst_can_accept(&r->u); g++)
        cyc(r);
    bool ok = rig_push(r, op, r->t - 1);
    SIM_ASSERT(ok, "latch full");
    return r->t - 1;
}

static void drain(struct rig *r)
{
    for (int g = 0; g < 200000 && !(ldst_idle(&r->u) && r->f->n == 0); g++)
        cyc(r);
    SIM_ASSERT(ldst_idle(&r->u), "rig did not drain");
}

static struct memop mk(uint64_t seq, uint32_t warp, uint32_t cta, uint8_t kind, uint8_t space, uint32_t active)
{
    struct memop m;
    memset(&m, 0, sizeof m);
    m.seq = seq, m.warp = warp, m.cta = cta, m.kind = kind, m.space = space, m.size = 4, m.active = active;
    return m;
}

/* The last request of the log. */
static const struct mem_req *last_req(const struct rig *r)
{
    return r->f->n_log ? &r->f->log[r->f->n_log - 1] : NULL;
}

static bool id_is(const struct mem_req *q, uint8_t op, uint16_t warp, uint32_t cta, uint8_t space, uint64_t t_create)
{
    return q && q->op == op && q->src == SM_ID && q->warp == warp && q->cta == cta && q->space == space &&
           q->t_create == t_create;
}

static void test_ldst_identity(void)
{
    struct rig r;
    rig_init(&r, NULL);

    /* global load miss, warp 5 of CTA 17: READ (fill) created at the access cycle t0 + 1 */
    struct memop m = mk(1, 5, 17, MEMOP_LOAD, MEMOP_GLOBAL, 0xffffffffu);
    for (int i = 0; i < 32; i++)
        m.addr[i] = 0x1000 + 4u * i;
    uint64_t t0 = push(&r, &m);
    drain(&r);
    const struct mem_req *q = last_req(&r);
    TAP_OK(r.f->n_log == 1 && id_is(q, MEM_OP_READ, 5, 17, MEM_SPACE_GLOBAL, t0 + 1),
           "global load miss: READ carries SM 3, warp 5, CTA 17, space global, t_create = access cycle");

    /* global store, warp 6 of CTA 18 */
    m = mk(2, 6, 18, MEMOP_STORE, MEMOP_GLOBAL, 0x1u);
    m.addr[0] = 0x2000;
    t0 = push(&r, &m);
    drain(&r);
    q = last_req(&r);
    TAP_OK(id_is(q, MEM_OP_WRITE, 6, 18, MEM_SPACE_GLOBAL, t0 + 1),
           "global store: WRITE carries warp 6, CTA 18, global");

    /* local load, warp 2 of CTA 9 */
    m = mk(3, 2, 9, MEMOP_LOAD, MEMOP_LOCAL, 0x1u);
    m.addr[0] = 0;
    t0 = push(&r, &m);
    drain(&r);
    q = last_req(&r);
    TAP_OK(id_is(q, MEM_OP_READ, 2, 9, MEM_SPACE_LOCAL, t0 + 1) && q->addr == LOCAL_BASE + 2 * 32 * 64,
           "local load: READ carries warp 2, CTA 9, space local");

    /* atomic, warp 1 of CTA 4 */
    m = mk(4, 1, 4, MEMOP_ATOMIC, MEMOP_GLOBAL, 0x3u);
    m.aop = PTX_AOP_ADD, m.atype = PTX_T_U32;
    m.addr[0] = 0x3000, m.addr[1] = 0x3004;
    t0 = push(&r, &m);
    drain(&r);
    q = last_req(&r);
    TAP_OK(id_is(q, MEM_OP_ATOMIC, 1, 4, MEM_SPACE_GLOBAL, t0 + 1), "atomic: ATOMIC carries warp 1, CTA 4, global");

    /* constant load, warp 7 of CTA 40: through the l1c, id tagged LDST_ID_CONST */
    m = mk(5, 7, 40, MEMOP_LOAD, MEMOP_CONST, 0x1u);
    m.addr[0] = 0x4000;
    t0 = push(&r, &m);
    drain(&r);
    q = last_req(&r);
    TAP_OK(id_is(q, MEM_OP_READ, 7, 40, MEM_SPACE_CONST, t0 + 1) && (q->id & LDST_ID_CONST),
           "constant load: READ carries warp 7, CTA 40, space const");
    rig_fini(&r);

    /* the instruction cache: its callers pass the warp as the token (fetch.c) */
    struct l1ro ic;
    struct l1ro_cfg icfg;
    l1i_cfg_defaults(&icfg);
    l1ro_init(&ic, &icfg, "l1i", SM_ID);
    l1ro_tick(&ic, 10);
    l1ro_access(&ic, 0x9000, 11, 10, NULL);
    l1ro_tick(&ic, 11);
    struct mem_req iq;
    bool got = l1ro_pop_req(&ic, &iq, 11);
    TAP_OK(got && iq.space == MEM_SPACE_INST && iq.warp == 11 && iq.t_create == 10 && iq.src == SM_ID,
           "instruction fetch miss: space inst, warp = the fetching warp, t_create = access cycle");
    l1ro_fini(&ic);
}

/* ================================================ worked scheduler-hook policy */

#define NW 48

/* The example policy of docs/sched.md: LRR's ordering plus an on_l1 entry
 * that counts each warp's L1 events (a VWS- or CCWS-style scheduler would
 * update its working-set or lost-locality scores here instead). */
static uint64_t pw[NW][L1D_EV_COUNT];
static uint64_t last_evict_warp;
static uint64_t unit_mismatch;

static void count_l1(struct wsched *s, struct wsched_unit *u, uint32_t w, uint32_t ev, uint64_t line_addr)
{
    (void)line_addr;
    if (u->id != w % s->n_sched)
        unit_mismatch++;
    pw[w][ev]++;
    if (ev == L1D_EV_EVICT)
        last_evict_warp = w;
}

static struct wsched g_ws;

/* The SM's forwarding (sm.c sm_on_l1): L1D hook -> wsched_on_l1. */
static uint64_t n_unknown; /* evictions of lines whose inserter is unknown */
static void fwd_l1(void *ctx, uint32_t warp, enum l1d_event ev, uint64_t line_addr)
{
    (void)ctx;
    if (warp >= NW)
        n_unknown++;
    wsched_on_l1(&g_ws, warp, (uint32_t)ev, line_addr);
}

/* A mixed sequence: per warp, loads over a working set larger than the L1
 * (16 KB = 128 lines), reuse, and a store to a line another warp loaded. */
static void run_mix(struct rig *r)
{
    uint64_t seq = 1;
    for (int round = 0; round < 3; round++)
        for (uint32_t w = 0; w < NW; w += 3) {
            for (uint32_t k = 0; k < 6; k++) {
                struct memop m = mk(seq++, w, w / 4, MEMOP_LOAD, MEMOP_GLOBAL, 0xffffffffu);
                uint64_t line = 0x10000 + (uint64_t)((w * 7 + k * 13 + round * (k & 1)) % 200) * 128;
                for (int i = 0; i < 32; i++)
                    m.addr[i] = line + 4u * i;
                push(r, &m);
            }
            if (w % 9 == 0) {
                struct memop m = mk(seq++, w, w / 4, MEMOP_STORE, MEMOP_GLOBAL, 0x1u);
                m.addr[0] = 0x10000 + (uint64_t)((w * 5) % 200) * 128;
                push(r, &m);
            }
        }
    drain(r);
}

static void test_sched_l1_hook(void)
{
    struct wsched_cfg c;
    wsched_cfg_defaults(&c);
    wsched_init(&g_ws, &c, NW);
    TAP_OK(!wsched_wants_l1(&g_ws), "the default policy has no on_l1: the SM leaves the L1D hook off");
    const struct wsched_policy *orig = g_ws.pol; /* restored before wsched_fini: its fini frees its state */
    struct wsched_policy pol = *g_ws.pol; /* the default policy ... */
    pol.on_l1 = count_l1;                 /* ... plus the counting entry */
    g_ws.pol = &pol;
    TAP_OK(wsched_wants_l1(&g_ws), "a policy with on_l1 asks for L1 events");
    memset(pw, 0, sizeof pw);

    struct rig a, b;
    rig_init(&a, fwd_l1);
    rig_init(&b, NULL);
    run_mix(&a);
    run_mix(&b);
    const struct l1d *l = &a.u.l1d;
    uint64_t sum[L1D_EV_COUNT] = {0};
    for (uint32_t w = 0; w < NW; w++)
        for (int e = 0; e < L1D_EV_COUNT; e++)
            sum[e] += pw[w][e];
    uint64_t ta_ev = l->tags.n_evict[TA_EV_REPLACE] + l->tags.n_evict[TA_EV_INVALIDATE] + l->tags.n_evict[TA_EV_FLUSH];
    TAP_OK(l->st.load_hits > 0 && l->st.load_misses > 0 && l->tags.n_evict[TA_EV_REPLACE] > 0,
           "the mix has hits, misses and replacements (hits %llu misses %llu replaced %llu)",
           (unsigned long long)l->st.load_hits, (unsigned long long)l->st.load_misses,
           (unsigned long long)l->tags.n_evict[TA_EV_REPLACE]);
    TAP_EQ_U64(sum[L1D_EV_HIT], l->st.load_hits, "per-warp hits sum to l1d.load_hits");
    TAP_EQ_U64(sum[L1D_EV_MISS], l->st.load_misses, "per-warp misses sum to l1d.load_misses");
    TAP_EQ_U64(sum[L1D_EV_MERGE], l->st.mshr_merges, "per-warp merges sum to l1d.mshr_merges");
    TAP_EQ_U64(sum[L1D_EV_STORE], l->st.stores, "per-warp stores sum to l1d.stores");
    TAP_EQ_U64(sum[L1D_EV_EVICT], ta_ev, "per-warp evictions sum to the tag array's evictions (all causes)");
    TAP_EQ_U64(l->tags.n_evict[TA_EV_INVALIDATE], l->st.evictions, "write-evicts are l1d.evictions");
    TAP_EQ_U64(n_unknown, 0, "every evicted line names its inserting warp");
    TAP_EQ_U64(unit_mismatch, 0, "on_l1 gets the warp's own scheduler unit");
    bool only_loaders = true; /* only warps 0, 3, 6, ... load, so only they insert */
    for (uint32_t w = 0; w < NW; w++)
        if (w % 3 && pw[w][L1D_EV_EVICT])
            only_loaders = false;
    TAP_OK(only_loaders, "evictions are charged to inserting warps only");
    TAP_OK(a.t == b.t && memcmp(&a.u.l1d.st, &b.u.l1d.st, sizeof a.u.l1d.st) == 0 &&
               memcmp(&a.u.st, &b.u.st, sizeof a.u.st) == 0,
           "the hook changes no timing: same cycles and counters as without it");

    /* directed: warp 1 loads line X (inserts it), warp 2 stores to X (write-evict) */
    struct memop m = mk(4001, 1, 0, MEMOP_LOAD, MEMOP_GLOBAL, 0x1u);
    m.addr[0] = 0x70000;
    push(&a, &m);
    drain(&a);
    last_evict_warp = UINT64_MAX;
    m = mk(4002, 2, 0, MEMOP_STORE, MEMOP_GLOBAL, 0x1u);
    m.addr[0] = 0x70000;
    push(&a, &m);
    drain(&a);
    TAP_EQ_U64(last_evict_warp, 1, "a store by warp 2 evicts warp 1's line: the event names warp 1");
    rig_fini(&a);
    rig_fini(&b);
    g_ws.pol = orig;
    wsched_fini(&g_ws);
}

/* ================================================ worked DRAM-scheduler hooks */

/* The example policy of docs/dram.md: FR-FCFS's pick, plus on_enqueue
 * (count, record identity), on_update and tick; its state hangs off
 * d->sched_state. */
struct pol_state {
    uint64_t enq, upd, ticks, inits;
    uint16_t sm[64], warp[64], merges[64];
    uint64_t t_create[64];
    uint8_t space[64], is_write[64];
    uint16_t upd_merges;
};
static struct pol_state g_ps;

static void p_init(struct dram *d)
{
    d->sched_state = &g_ps;
    g_ps.inits++;
}
static cycle_t p_tick(struct dram *d, cycle_t cycle)
{
    (void)cycle;
    ((struct pol_state *)d->sched_state)->ticks++;
    return CYCLE_NEVER;
}
static void p_enq(struct dram *d, uint32_t s, cycle_t cycle)
{
    (void)cycle;
    struct pol_state *p = d->sched_state;
    const struct dram_req *r = &d->slot[s].req;
    if (p->enq < 64) {
        p->sm[p->enq] = r->sm, p->warp[p->enq] = r->warp, p->merges[p->enq] = r->merges;
        p->space[p->enq] = r->space, p->is_write[p->enq] = r->is_write, p->t_create[p->enq] = r->t_create;
    }
    p->enq++;
}
static void p_upd(struct dram *d, uint32_t s, uint16_t old, cycle_t cycle)
{
    (void)s, (void)old, (void)cycle;
    struct pol_state *p = d->sched_state;
    p->upd++;
}

static struct dram_sched_ops count_ops(void)
{
    struct dram_sched_ops o = dram_sched_frfcfs; /* pick = FR-FCFS */
    o.name = "frfcfs+count";
    o.init = p_init;
    o.tick = p_tick;
    o.on_enqueue = p_enq;
    o.on_update = p_upd;
    return o;
}

static void test_dram_hooks(void)
{
    TAP_OK(!dram_sched_frfcfs.tick && !dram_sched_frfcfs.on_enqueue && !dram_sched_frfcfs.on_update &&
               !dram_sched_fcfs.tick && !dram_sched_fcfs.on_enqueue && !dram_sched_fcfs.on_update,
           "frfcfs and fcfs have no optional hooks");
    memset(&g_ps, 0, sizeof g_ps);
    struct dram_cfg dc;
    dram_cfg_defaults(&dc);
    struct dram d;
    dram_init(&d, &dc, 0);
    struct dram_sched_ops ops = count_ops();
    dram_set_sched(&d, &ops);
    TAP_OK(g_ps.inits == 1 && d.sched_state == &g_ps && dram_sched_wants_update(&d), "set_sched runs init");
    const uint32_t N = 10;
    for (uint32_t i = 0; i < N; i++) {
        struct dram_req r = {.tag = i, .addr = (uint64_t)i * 4096, .bank = i % 4, .row = i, .bytes = 128,
                             .sm = (uint16_t)(i + 1), .warp = (uint16_t)(2 * i), .merges = 1,
                             .space = MEM_SPACE_GLOBAL};
        SIM_ASSERT(dram_push(&d, &r, 5), "push");
    }
    /* still in the delay line (ready at 5): an update message raises request 3's merge count */
    bool up = dram_update(&d, 3 * 4096, 4, 0, 0);
    TAP_OK(up && g_ps.upd == 1, "dram_update on a queued read calls on_update");
    uint32_t popped = 0;
    for (cycle_t c = 0; c < 5000 && popped < N; c++) {
        dram_tick(&d, c);
        struct dram_req out;
        while (dram_pop_read(&d, &out, c))
            popped++;
    }
    TAP_EQ_U64(popped, N, "all reads returned");
    TAP_EQ_U64(g_ps.enq, N, "on_enqueue ran once per request");
    bool ok = true;
    for (uint32_t i = 0; i < N; i++)
        ok &= g_ps.sm[i] == i + 1 && g_ps.warp[i] == 2 * i && g_ps.merges[i] == (i == 3 ? 4 : 1);
    TAP_OK(ok, "each enqueued request carries its SM, warp and merge count (the update included)");
    TAP_OK(g_ps.ticks > 0, "tick ran (%llu times)", (unsigned long long)g_ps.ticks);
    dram_fini(&d);
}

/* ---------------------------------------------- end to end through a partition */

struct drv {
    struct addrmap map;
    uint8_t *store;
    struct mempart mp;
    struct clock_periods per;
};

#define STORE_BYTES (1u << 22)
static void fs_read(void *ctx, uint64_t line_addr, uint64_t local, uint8_t out[MEM_LINE_BYTES])
{
    struct drv *d = ctx;
    (void)line_addr;
    memcpy(out, d->store + local, MEM_LINE_BYTES);
}
static void fs_write(void *ctx, uint64_t line_addr, uint64_t local, const uint8_t data[MEM_LINE_BYTES],
                     const uint64_t mask[2])
{
    struct drv *d = ctx;
    (void)line_addr;
    for (uint32_t i = 0; i < MEM_LINE_BYTES; i++)
        if (mem_mask_test(mask, i))
            d->store[local + i] = data[i];
}

static struct mem_req rq(uint64_t addr, uint32_t id, uint16_t sm, uint16_t warp, uint32_t cta, uint8_t space)
{
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.op = MEM_OP_READ, r.addr = addr, r.id = id, r.size = 128;
    r.src = sm, r.warp = warp, r.cta = cta, r.space = space, r.t_create = 1000 + id;
    return r;
}

static void test_partition_identity(uint64_t b_when, bool expect_update)
{
    memset(&g_ps, 0, sizeof g_ps);
    struct drv *d = xcalloc(1, sizeof *d);
    struct clock_cfg ck = {700000000ull, 700000000ull, 700000000ull, 924000000ull};
    clock_periods_compute(&ck, &d->per);
    addrmap_init(&d->map, 6, 2, 16, 4096, 64);
    d->store = xcalloc(STORE_BYTES, 1);
    struct mempart_cfg mc;
    struct l2_cfg lc;
    struct dram_cfg dc;
    mempart_cfg_defaults(&mc);
    l2_cfg_defaults(&lc);
    dram_cfg_defaults(&dc);
    struct mempart_init_args a = {0, &d->map, NULL, d->per.core, d->per.l2, d->per.dram, {fs_read, fs_write, d}, &func_atomic_ops, NULL};
    mempart_init(&d->mp, &mc, &lc, &dc, &a);
    struct dram_sched_ops ops = count_ops();
    mempart_set_dram_sched(&d->mp, &ops);

    /* A and B: two SMs read line A, B b_when L2 cycles after A. B merges
     * into A's L2 miss: with b_when = 1 before A's read leaves the L2 (merge
     * count 2 as it leaves), with b_when = 6 after (A's read is in the DRAM
     * delay line, 132 DRAM cycles, and gets an update message). C: another
     * line, local space; E: const. */
    uint64_t la = addrmap_encode(&d->map, 0, 0x0), lcl = addrmap_encode(&d->map, 0, 0x10000),
             lcn = addrmap_encode(&d->map, 0, 0x20000);
    struct mem_req in[4] = {rq(la, 1, 4, 6, 11, MEM_SPACE_GLOBAL), rq(la, 2, 9, 2, 30, MEM_SPACE_GLOBAL),
                            rq(lcl, 3, 5, 7, 12, MEM_SPACE_LOCAL), rq(lcn, 4, 14, 47, 99, MEM_SPACE_CONST)};
    uint64_t when[4] = {0, b_when, b_when + 1, b_when + 2};
    uint32_t next = 0, n_rep = 0;
    uint64_t l2c = 0, dcy = 0;
    for (int g = 0; g < 200000 && (next < 4 || n_rep < 4); g++) {
        ps_t tl = l2c * d->per.l2, td = dcy * d->per.dram;
        if (td <= tl) { /* DRAM first at equal times */
            mempart_tick_dram(&d->mp, dcy++);
            continue;
        }
        mempart_tick_l2(&d->mp, l2c);
        while (next < 4 && when[next] <= l2c) {
            unsigned sub = mempart_sub_of(&d->mp, in[next].addr);
            if (!mempart_push(&d->mp, sub, &in[next], l2c))
                break;
            next++;
        }
        for (unsigned s = 0; s < MEMPART_SUBS; s++) {
            struct mem_reply r;
            if (mempart_pop_reply(&d->mp, s, &r, l2c))
                n_rep++;
        }
        l2c++;
    }
    TAP_EQ_U64(n_rep, 4, "all four reads answered");
    TAP_EQ_U64(g_ps.enq, d->mp.dram.st.reads + d->mp.dram.st.writes, "on_enqueue count = DRAM requests");
    TAP_EQ_U64(g_ps.enq, 3, "three DRAM reads (B merged into A in the L2)");
    TAP_OK(g_ps.sm[0] == 4 && g_ps.warp[0] == 6 && g_ps.space[0] == MEM_SPACE_GLOBAL && !g_ps.is_write[0] &&
               g_ps.t_create[0] == 1001,
           "line A's DRAM read names SM 4, warp 6 (the request that missed), space global, its creation cycle");
    TAP_EQ_U64(g_ps.merges[0], 2, "line A's DRAM read carries L2 MSHR merge count 2");
    TAP_EQ_U64(g_ps.upd, d->mp.st.dram_updates, "on_update calls = merges passed as update messages");
    TAP_EQ_U64(g_ps.upd, expect_update ? 1 : 0,
               expect_update ? "B arrives after A's read left the L2: one update message to the DRAM"
                             : "B merges before A's read leaves the L2: no update message");
    TAP_OK(g_ps.sm[1] == 5 && g_ps.warp[1] == 7 && g_ps.space[1] == MEM_SPACE_LOCAL && g_ps.merges[1] == 1,
           "line C's read: SM 5, warp 7, space local, merge count 1");
    TAP_OK(g_ps.sm[2] == 14 && g_ps.warp[2] == 47 && g_ps.space[2] == MEM_SPACE_CONST,
           "line E's read: SM 14, warp 47, space const");
    mempart_fini(&d->mp);
    free(d->store);
    free(d);
}

/* L2 alone: the L2->DRAM request carries the identity and CTA. */
static void test_l2_dram_req(void)
{
    struct l2_cfg c;
    l2_cfg_defaults(&c);
    struct l2 l;
    struct l2_init_args a = {7, 0, NULL, NULL, &func_atomic_ops, NULL, 0, 0};
    l2_init(&l, &c, &a);
    struct mem_req r1 = rq(0x4000, 1, 3, 8, 21, MEM_SPACE_GLOBAL);
    struct mem_req r2 = rq(0x4000, 2, 6, 9, 22, MEM_SPACE_GLOBAL);
    l2_tick(&l, 0);
    SIM_ASSERT(l2_push(&l, &r1, 0), "push");
    l2_tick(&l, 1);
    SIM_ASSERT(l2_push(&l, &r2, 1), "push");
    for (uint64_t t = 2; t < 20; t++)
        l2_tick(&l, t);
    struct l2_dram_req out;
    bool got = l2_pop_dram_req(&l, &out, 20);
    TAP_OK(got && !out.is_write && out.sm == 3 && out.warp == 8 && out.cta == 21 && out.space == MEM_SPACE_GLOBAL &&
               out.t_create == 1001,
           "L2 miss: the DRAM read carries SM 3, warp 8, CTA 21, space, creation cycle of the missing request");
    TAP_EQ_U64(out.merges, 2, "L2 MSHR merge count when the read leaves: 2 (the second SM's read merged)");
    l2_fini(&l);
}

int main(void)
{
    tap_no_plan();
    test_ldst_identity();
    test_sched_l1_hook();
    test_dram_hooks();
    test_l2_dram_req();
    test_partition_identity(1, false);
    test_partition_identity(6, true);
    return tap_exit();
}
