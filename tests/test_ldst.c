/* tests/test_ldst.c: the SM's LD/ST unit (sim/sm/lsu/ldst.c).
 *
 * Every timing value is in simulated core cycles, computed by hand from the
 * gtx480 defaults (l1d.hit_latency 1, l1c.hit_latency 1, l1d.miss_queue 8,
 * l1c.mshr 2) and the conventions of ldst.h / l1d.h:
 *   memop pushed at t -> stage entry and first access at s = t + 1;
 *   L1 access at a -> request poppable at a + 1; the fake L2 takes it at the
 *   pop cycle p and its reply is pushed at p + D (D = fake delay = 10); the
 *   L1 processes it in tick(p + D + 1), where the completion fires.
 * So a miss/bypass/store/atomic with one transaction: done = s + D + 2 =
 * t + 13; an L1 hit: done = s + 1 = t + 2; shared degree d: done = s + d.
 *
 * A fake in-order L2 (flat byte array, fixed delay, u32-add atomics) and a
 * fake shared memory stand in for the SM's surroundings. The reference model
 * is a flat memory per space updated in push order (each warp owns a disjoint
 * region, so push order is the warp's program order); every lane of every
 * completed load/atomic is compared with it. A fault check corrupts one
 * expected byte and requires the checker to report it.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/ptx/ir.h"
#include "sim/sm/lsu/ldst.h"
#include "tests/support/memop_store.h"
#include "sim/base/stats.h"
#include "sim/ptx/memorder.h"
#include "tap.h"

#define MEMB (1u << 20)   /* fake device memory bytes */
#define SMEMB (64u << 10) /* fake shared memory bytes */
#define D 10u             /* fake L2 delay (cycles) */
#define LOCAL_BASE 0x80000u
#define MAXOPS 4096

struct fake {
    uint8_t *mem;
    uint8_t smem[SMEMB];
    struct mem_reply q[512];
    uint64_t ready[512];
    uint32_t head, n;
    bool hold_req;              /* true: do not pop requests (backpressure test) */
    /* completions */
    uint64_t done_cycle[MAXOPS];
    struct memop_result res[MAXOPS];
    bool done[MAXOPS];
    uint32_t n_done;
};

static void fake_take(struct fake *f, const struct mem_req *r, uint64_t cycle)
{
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
    case MEM_OP_ATOMIC:
        for (uint32_t k = 0; k < r->atom.n_lanes; k++) {
            uint32_t old, b;
            memcpy(&old, f->mem + line + r->atom.off[k], 4);
            memcpy(&b, r->data + 4 * k, 4);
            memcpy(rep.data + 4 * k, &old, 4);
            old += b;
            memcpy(f->mem + line + r->atom.off[k], &old, 4);
        }
        rep.n_lanes = r->atom.n_lanes, rep.size = r->size;
        break;
    }
    uint32_t i = (f->head + f->n) % 512u;
    f->q[i] = rep, f->ready[i] = cycle + D, f->n++;
}

static void h_smem(void *ctx, uint32_t warp, uint64_t off, unsigned bytes, bool write, uint8_t *buf)
{
    struct fake *f = ctx;
    (void)warp;
    SIM_ASSERT(off + bytes <= SMEMB, "smem off");
    if (write)
        memcpy(f->smem + off, buf, bytes);
    else
        memcpy(buf, f->smem + off, bytes);
}
static uint64_t h_local(void *ctx, uint32_t warp, uint32_t lane, uint64_t off)
{
    (void)ctx;
    return LOCAL_BASE + (uint64_t)(warp * 32 + lane) * 64 + off; /* 64 B local window per thread */
}
static void h_param(void *ctx, uint32_t warp, uint64_t off, unsigned bytes, uint8_t *buf)
{
    (void)ctx, (void)warp;
    for (unsigned i = 0; i < bytes; i++)
        buf[i] = (uint8_t)(0xA0 + off + i);
}
static void h_done(void *ctx, const struct memop *op, const struct memop_result *res, uint64_t cycle)
{
    struct fake *f = ctx;
    SIM_ASSERT(op->seq < MAXOPS && !f->done[op->seq], "double completion seq %llu", (unsigned long long)op->seq);
    f->done[op->seq] = true;
    f->done_cycle[op->seq] = cycle;
    if (res)
        f->res[op->seq] = *res;
    f->n_done++;
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

static void rig_init_p(struct rig *r, uint64_t smem_latency, uint64_t access_latency);
static void rig_init(struct rig *r) { rig_init_p(r, 1, 0); }
static void rig_init_smem(struct rig *r, uint64_t smem_latency) { rig_init_p(r, smem_latency, 0); }
static void rig_init_p(struct rig *r, uint64_t smem_latency, uint64_t access_latency)
{
    r->f = xcalloc(1, sizeof *r->f);
    r->f->mem = xcalloc(MEMB, 1);
    for (uint32_t i = 0; i < MEMB; i++)
        r->f->mem[i] = (uint8_t)(i * 7u + (i >> 8));
    for (uint32_t i = 0; i < SMEMB; i++)
        r->f->smem[i] = (uint8_t)(i * 13u + 5);
    struct ldst_params p;
    ldst_params_defaults(&p);
    p.smem.latency = smem_latency;
    p.l1d.access_latency = access_latency;
    struct ldst_hooks h = {r->f, h_smem, h_local, h_param, h_done, NULL};
    ldst_init(&r->u, &p, &h, 0);
    r->t = 0;
    memop_store_init(&r->store);
}
static void rig_fini(struct rig *r)
{
    ldst_fini(&r->u);
    free(r->f->mem);
    free(r->f);
    memop_store_fini(&r->store);
}

/* One cycle: tick, one request to the fake, due replies back. */
static void cyc(struct rig *r)
{
    struct fake *f = r->f;
    ldst_tick(&r->u, r->t);
    struct mem_req q;
    if (!f->hold_req && ldst_pop_req(&r->u, &q, r->t))
        fake_take(f, &q, r->t);
    while (f->n && f->ready[f->head] <= r->t && ldst_push_reply(&r->u, &f->q[f->head], r->t))
        f->head = (f->head + 1) % 512u, f->n--;
    r->t++;
}
/* Push at the current cycle (before it runs: i.e. after tick(t-1)... we push
 * after running cycle t-1, so the push cycle is t-1). Returns the push cycle. */
static uint64_t push(struct rig *r, const struct memop *op)
{
    SIM_ASSERT(r->t > 0, "push before first cycle");
    bool ok = rig_push(r, op, r->t - 1);
    SIM_ASSERT(ok, "latch full");
    return r->t - 1;
}
static void run_until_done(struct rig *r, uint64_t seq)
{
    for (int g = 0; g < 10000 && !r->f->done[seq]; g++)
        cyc(r);
}
static void drain(struct rig *r)
{
    for (int g = 0; g < 100000 && !(ldst_idle(&r->u) && r->f->n == 0); g++)
        cyc(r);
}

static struct memop mk(uint64_t seq, uint32_t warp, uint8_t kind, uint8_t space, uint8_t size, uint32_t active)
{
    struct memop m;
    memset(&m, 0, sizeof m);
    m.seq = seq, m.warp = warp, m.kind = kind, m.space = space, m.size = size, m.active = active;
    return m;
}

static bool lane_eq(const uint8_t *got, const uint8_t *mem, unsigned n) { return memcmp(got, mem, n) == 0; }

/* ------------------------------------------------------------- directed tests */

static void test_global_load(void)
{
    struct rig r;
    rig_init(&r);
    cyc(&r);
    struct memop m = mk(1, 0, MEMOP_LOAD, MEMOP_GLOBAL, 4, 0xffffffffu);
    for (int i = 0; i < 32; i++)
        m.addr[i] = 0x1000 + 4u * i; /* one 128 B line */
    uint64_t t0 = push(&r, &m);
    run_until_done(&r, 1);
    /* miss: s = t0+1, req popped t0+2, reply pushed t0+12, done t0+13 */
    TAP_EQ_U64(r.f->done_cycle[1] - t0, 13, "coalesced load miss: done at push + 13 (1 + 1 + D + 1)");
    TAP_EQ_U64(r.u.st.txns, 1, "coalesced 32-lane load: 1 transaction");
    bool ok = true;
    for (int i = 0; i < 32; i++)
        ok &= lane_eq(r.f->res[1].data[i], r.f->mem + m.addr[i], 4);
    TAP_OK(ok, "coalesced load: every lane's bytes");
    m.seq = 2;
    cyc(&r);
    t0 = push(&r, &m);
    run_until_done(&r, 2);
    TAP_EQ_U64(r.f->done_cycle[2] - t0, 2, "coalesced load hit: done at push + 2 (stage + hit latency 1)");
    TAP_EQ_U64(r.u.st.l1d_res[L1D_HIT], 1, "one L1D hit");
    TAP_EQ_U64(r.u.st.load_lat[MEMOP_GLOBAL].sum, 12 + 1, "load latency sum 12 + 1 cycles (from stage entry)");
    rig_fini(&r);
}

static void test_stride_and_backpressure(bool hold)
{
    struct rig r;
    rig_init(&r);
    cyc(&r);
    struct memop m = mk(1, 0, MEMOP_LOAD, MEMOP_GLOBAL, 4, 0xffffffffu);
    for (int i = 0; i < 32; i++)
        m.addr[i] = 0x4000 + 128u * i; /* 32 lines */
    r.f->hold_req = hold;
    uint64_t t0 = push(&r, &m), s = t0 + 1;
    if (hold) {
        while (r.t <= s + 19)
            cyc(&r);
        /* miss queue 8, a new miss needs 2 free slots: 7 misses at s..s+6 */
        TAP_EQ_U64(r.u.st.txns, 7, "held requests: 7 misses fill the 8-entry miss queue (each needs 2 free)");
        TAP_EQ_U64(r.u.st.rf_cycles, 13, "reservation fails at s+7..s+19 = 13 cycles");
        r.f->hold_req = false;
    }
    run_until_done(&r, 1);
    bool ok = true;
    for (int i = 0; i < 32; i++)
        ok &= lane_eq(r.f->res[1].data[i], r.f->mem + m.addr[i], 4);
    if (!hold) {
        /* access k at s+k, popped s+k+1, reply s+k+1+D, done s+k+D+2; k = 31: s+43 */
        TAP_EQ_U64(r.f->done_cycle[1] - s, 43, "stride-32 load: 32 transactions 1/cycle, done at s + 31 + D + 2");
        TAP_EQ_U64(r.u.st.txns, 32, "stride-32 load: 32 transactions");
        TAP_EQ_U64(r.u.st.rf_cycles, 0, "no reservation fail when requests drain");
        TAP_OK(ok, "stride-32 load: every lane");
    } else {
        /* unblocked pop at s+20 frees 2 slots at tick s+21: one more fail (s+20), then 1 access/cycle */
        TAP_EQ_U64(r.u.st.rf_cycles, 14, "backpressure: 14 retry cycles in total");
        TAP_EQ_U64(r.u.st.txns, 32, "backpressure: all 32 transactions accepted, none lost");
        TAP_OK(ok, "backpressure: every lane correct");
    }
    rig_fini(&r);
}

static void test_cg_store_atomic_fence(void)
{
    struct rig r;
    rig_init(&r);
    cyc(&r);
    struct memop m = mk(1, 0, MEMOP_LOAD, MEMOP_GLOBAL, 4, 0xffffffffu);
    m.cache_op = MEMOP_CO_CG;
    for (int i = 0; i < 32; i++)
        m.addr[i] = 0x2000 + 4u * i;
    uint64_t t0 = push(&r, &m);
    run_until_done(&r, 1);
    TAP_EQ_U64(r.f->done_cycle[1] - t0, 13, ".cg load: bypass, done at push + 13");
    TAP_EQ_U64(r.u.l1d.st.bypass_loads, 1, ".cg load counted as L1 bypass");
    TAP_EQ_U64(l1d_probe_line(&r.u.l1d, 0x2000, NULL), TA_INVALID, ".cg load did not allocate an L1 line");

    /* store + ack + pending count */
    struct memop s = mk(2, 3, MEMOP_STORE, MEMOP_GLOBAL, 4, 0xffffffffu);
    for (int i = 0; i < 32; i++) {
        s.addr[i] = 0x3000 + 4u * i;
        uint32_t v = 0xdead0000u + (uint32_t)i;
        memcpy(s.data[i], &v, 4);
    }
    cyc(&r);
    t0 = push(&r, &s);
    TAP_EQ_U64(ldst_warp_pending(&r.u, 3), 1, "store latched: warp 3 has 1 instruction pending");
    cyc(&r); /* t0+1: access */
    TAP_EQ_U64(ldst_warp_pending_stores(&r.u, 3), 1, "store accepted by L1D: 1 unacknowledged store");
    struct memop f = mk(3, 3, MEMOP_FENCE, MEMOP_GLOBAL, 0, 0);
    f.order = MO_ORD_FENCE | MO_ORD_ACQ_GPU | MO_ORD_REL_GPU; /* membar.gl */
    push(&r, &f); /* pushed at t0+1, enters t0+2 */
    run_until_done(&r, 2);
    TAP_EQ_U64(r.f->done_cycle[2] - t0, 13, "store ack: done at push + 13");
    TAP_OK(r.f->done[3] && r.f->done_cycle[3] == r.f->done_cycle[2],
           "gpu-scope fence completes in the ack's cycle (t0+13)");
    TAP_EQ_U64(r.u.st.acq_inval, 1, "gpu-scope fence invalidated the L1D once");
    TAP_EQ_U64(ldst_warp_pending_stores(&r.u, 3), 0, "ack received: no store pending");
    TAP_EQ_U64(ldst_warp_pending(&r.u, 3), 0, "warp 3 has nothing pending");
    uint32_t v;
    memcpy(&v, r.f->mem + 0x3000 + 4 * 5, 4);
    TAP_EQ_U64(v, 0xdead0005u, "store reached memory (lane 5)");

    /* fence with nothing outstanding: push t, enter t+1, done t+2 */
    cyc(&r);
    struct memop f2 = mk(4, 3, MEMOP_FENCE, MEMOP_GLOBAL, 0, 0);
    t0 = push(&r, &f2);
    run_until_done(&r, 4);
    TAP_EQ_U64(r.f->done_cycle[4] - t0, 2, "idle fence: done at push + 2");

    /* cta-scope fence: the SM issued it after the warp's earlier accesses
     * entered the latch, so it does not wait for their acks: a store pushed
     * at t, the fence at t+1 (stage t+2), done at t+3, long before the ack */
    cyc(&r);
    struct memop s3 = mk(40, 3, MEMOP_STORE, MEMOP_GLOBAL, 4, 0xffffffffu);
    for (int i = 0; i < 32; i++)
        s3.addr[i] = 0x5000 + 4u * i;
    uint64_t t3 = push(&r, &s3);
    cyc(&r);
    struct memop fc = mk(41, 3, MEMOP_FENCE, MEMOP_GLOBAL, 0, 0);
    fc.order = MO_ORD_FENCE | MO_ORD_CTA;
    push(&r, &fc);
    run_until_done(&r, 41);
    TAP_OK(r.f->done[41] && !r.f->done[40], "cta-scope fence completes before the earlier store's ack");
    TAP_EQ_U64(r.f->done_cycle[41] - t3, 3, "cta-scope fence: done at store push + 3");
    run_until_done(&r, 40);

    /* atomic: 32 lanes add (lane+1) to one word; old of lane i = V + i(i+1)/2 */
    struct memop a = mk(5, 1, MEMOP_ATOMIC, MEMOP_GLOBAL, 4, 0xffffffffu);
    a.aop = PTX_AOP_ADD;
    uint32_t V;
    memcpy(&V, r.f->mem + 0x5000, 4);
    for (int i = 0; i < 32; i++) {
        a.addr[i] = 0x5000;
        uint32_t b = (uint32_t)i + 1;
        memcpy(a.data[i], &b, 4);
    }
    cyc(&r);
    t0 = push(&r, &a);
    run_until_done(&r, 5);
    /* coalesce.atomic_split = overlap (NOTE(atomic-grouping)): 32 lanes on
     * one word are 32 one-lane transactions, one leaving the stage per cycle,
     * so the last is 31 cycles behind the 13 of a single transaction */
    TAP_EQ_U64(r.f->done_cycle[5] - t0, 13 + 31, "atomic: 32 same-word lanes, 32 transactions: done at push + 13 + 31");
    bool ok = true;
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t old;
        memcpy(&old, r.f->res[5].data[i], 4);
        ok &= old == V + i * (i + 1) / 2;
    }
    TAP_OK(ok, "atomic: old values in lane order (V + i(i+1)/2)");
    memcpy(&v, r.f->mem + 0x5000, 4);
    TAP_EQ_U64(v, V + 528, "atomic: final value V + 32*33/2 = V + 528");
    rig_fini(&r);
}

static void test_shared_const_param(void)
{
    struct rig r;
    rig_init(&r);
    cyc(&r);
    static const struct { uint32_t stride; uint64_t cycles; const char *name; } sh[] = {
        {4, 2, "shared stride 4 B: degree 1, done at push + 1 + 1"},
        {8, 3, "shared stride 8 B: degree 2, done at push + 1 + 2"},
        {128, 33, "shared stride 128 B: degree 32, done at push + 1 + 32"},
    };
    for (unsigned k = 0; k < 3; k++) {
        struct memop m = mk(10 + k, 0, MEMOP_LOAD, MEMOP_SHARED, 4, 0xffffffffu);
        for (int i = 0; i < 32; i++)
            m.addr[i] = sh[k].stride * (uint32_t)i;
        cyc(&r);
        uint64_t t0 = push(&r, &m);
        run_until_done(&r, 10 + k);
        TAP_EQ_U64(r.f->done_cycle[10 + k] - t0, sh[k].cycles, "%s", sh[k].name);
        bool ok = true;
        for (int i = 0; i < 32; i++)
            ok &= lane_eq(r.f->res[10 + k].data[i], r.f->smem + m.addr[i], 4);
        TAP_OK(ok, "shared load data, stride %u", sh[k].stride);
    }
    TAP_EQ_U64(r.u.st.smem_conflict_cycles, 0 + 1 + 31, "shared conflict cycles 0 + 1 + 31");

    /* const: all lanes one word -> 1 line; miss done push+13, then hit push+2 */
    struct memop c = mk(20, 0, MEMOP_LOAD, MEMOP_CONST, 4, 0xffffffffu);
    for (int i = 0; i < 32; i++)
        c.addr[i] = 0x6000;
    cyc(&r);
    uint64_t t0 = push(&r, &c);
    run_until_done(&r, 20);
    TAP_EQ_U64(r.f->done_cycle[20] - t0, 13, "const broadcast miss: done at push + 13");
    c.seq = 21;
    cyc(&r);
    t0 = push(&r, &c);
    run_until_done(&r, 21);
    TAP_EQ_U64(r.f->done_cycle[21] - t0, 2, "const hit: done at push + 2");
    /* 2 lines (lane*4 over 128 B = two 64 B lines): accesses s, s+1; pops s+1, s+2; done s+2+D+1 = push+14 */
    c.seq = 22;
    for (int i = 0; i < 32; i++)
        c.addr[i] = 0x7000 + 4u * i;
    cyc(&r);
    t0 = push(&r, &c);
    run_until_done(&r, 22);
    TAP_EQ_U64(r.f->done_cycle[22] - t0, 14, "const 2 lines, serialised: done at push + 14");
    bool ok = true;
    for (int i = 0; i < 32; i++)
        ok &= lane_eq(r.f->res[22].data[i], r.f->mem + c.addr[i], 4);
    TAP_OK(ok, "const data per lane");
    /* const 32 lines with l1c.mshr = 2: MSHR-full reservation fails, nothing lost */
    c.seq = 23;
    for (int i = 0; i < 32; i++)
        c.addr[i] = 0x8000 + 64u * i;
    cyc(&r);
    push(&r, &c);
    run_until_done(&r, 23);
    ok = r.f->done[23];
    for (int i = 0; i < 32; i++)
        ok &= lane_eq(r.f->res[23].data[i], r.f->mem + c.addr[i], 4);
    TAP_OK(ok, "const 32 lines through a 2-entry MSHR: all lanes correct");
    TAP_OK(r.u.l1c.st.rf[L1RO_RF_MSHR_FULL] > 0 && r.u.st.rf_cycles > 0, "const MSHR-full reservation fails seen");

    /* param: lanes over 2 l1c lines: done at s + 1 + hit = push + 3 */
    struct memop p = mk(30, 0, MEMOP_LOAD, MEMOP_PARAM, 4, 0xffffffffu);
    for (int i = 0; i < 32; i++)
        p.addr[i] = 4u * i;
    cyc(&r);
    t0 = push(&r, &p);
    run_until_done(&r, 30);
    TAP_EQ_U64(r.f->done_cycle[30] - t0, 3, "param 2 lines: done at push + 1 + (2 - 1) + 1");
    TAP_EQ_U64(r.f->res[30].data[3][1], 0xA0 + 12 + 1, "param bytes via callback");
    /* NOTE(param-uniform): one address for every lane, only addr[0] written
     * (the others garbage): one line, every lane reads addr[0]'s bytes,
     * the timing of the same load with 32 equal addresses */
    struct memop pu = mk(31, 0, MEMOP_LOAD, MEMOP_PARAM, 4, 0xffffffffu), pe = pu;
    pu.uniform = 1;
    pu.addr[0] = 8;
    for (int i = 1; i < 32; i++)
        pu.addr[i] = 0xdead0000u + 64u * i;
    pe.seq = 32;
    for (int i = 0; i < 32; i++)
        pe.addr[i] = 8;
    cyc(&r);
    t0 = push(&r, &pu);
    run_until_done(&r, 31);
    uint64_t dt_u = r.f->done_cycle[31] - t0;
    cyc(&r);
    t0 = push(&r, &pe);
    run_until_done(&r, 32);
    TAP_EQ_U64(dt_u, 2, "uniform param load: one line, done at push + 1 + 1");
    TAP_EQ_U64(r.f->done_cycle[32] - t0, dt_u, "uniform param load: the timing of 32 equal addresses");
    ok = true;
    for (int i = 0; i < 32; i++)
        ok &= memcmp(r.f->res[31].data[i], r.f->res[32].data[i], 4) == 0 && r.f->res[31].data[i][1] == 0xA0 + 8 + 1;
    TAP_OK(ok, "uniform param load: every lane gets addr[0]'s bytes");
    rig_fini(&r);
}

/* ------------------------------------------------------------- randomized stream */

struct rnd { uint64_t s; };
static uint32_t rnd(struct rnd *r)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(r->s >> 33);
}

#define NW 4
#define NOPS 600

/* Reference: apply op to flat copies in push order; fill expected results. */
struct refm {
    uint8_t *mem;
    uint8_t smem[SMEMB];
};

static void ref_apply(struct refm *ref, const struct memop *m, struct memop_result *exp)
{
    memset(exp, 0, sizeof *exp);
    for (uint32_t i = 0; i < 32; i++) {
        if (!(m->active >> i & 1))
            continue;
        uint64_t a = m->space == MEMOP_LOCAL ? h_local(NULL, m->warp, i, m->addr[i]) : m->addr[i];
        uint8_t *base = m->space == MEMOP_SHARED ? ref->smem : ref->mem;
        if (m->kind == MEMOP_LOAD)
            memcpy(exp->data[i], base + a, m->size);
        else if (m->kind == MEMOP_STORE)
            memcpy(base + a, m->data[i], m->size);
        else if (m->kind == MEMOP_ATOMIC) {
            uint32_t old, b;
            memcpy(&old, base + a, 4);
            memcpy(&b, m->data[i], 4);
            memcpy(exp->data[i], &old, 4);
            old += b;
            memcpy(base + a, &old, 4);
        }
    }
}

/* Compare; returns the number of mismatching lanes. */
static unsigned check(const struct memop *ops, const struct memop_result *exp, const struct fake *f, unsigned n)
{
    unsigned bad = 0;
    for (unsigned k = 0; k < n; k++) {
        const struct memop *m = &ops[k];
        if (!f->done[m->seq]) {
            bad += 32;
            continue;
        }
        if (m->kind != MEMOP_LOAD && m->kind != MEMOP_ATOMIC)
            continue;
        for (uint32_t i = 0; i < 32; i++)
            if ((m->active >> i & 1) && memcmp(f->res[m->seq].data[i], exp[k].data[i], m->size))
                bad++;
    }
    return bad;
}

static uint64_t run_random_p(uint64_t seed, unsigned *bad_out, unsigned *fault_bad, struct ldst_stats *st_out,
                             uint64_t access_latency)
{
    struct rig r;
    rig_init_p(&r, 1, access_latency);
    struct refm *ref = xcalloc(1, sizeof *ref);
    ref->mem = xmalloc(MEMB);
    memcpy(ref->mem, r.f->mem, MEMB);
    memcpy(ref->smem, r.f->smem, SMEMB);
    struct memop *ops = xcalloc(NOPS, sizeof *ops);
    struct memop_result *exp = xcalloc(NOPS, sizeof *exp);
    struct rnd g = {seed};
    for (unsigned k = 0; k < NOPS; k++) {
        uint32_t w = rnd(&g) % NW;
        uint32_t pick = rnd(&g) % 100;
        uint8_t kind = pick < 45 ? MEMOP_LOAD : pick < 80 ? MEMOP_STORE : pick < 90 ? MEMOP_ATOMIC : MEMOP_FENCE;
        uint32_t sp = rnd(&g) % 10;
        uint8_t space = sp < 5 ? MEMOP_GLOBAL : sp < 7 ? MEMOP_SHARED : sp < 9 ? MEMOP_LOCAL : MEMOP_CONST;
        if (kind == MEMOP_ATOMIC)
            space = MEMOP_GLOBAL;
        if (space == MEMOP_CONST)
            kind = MEMOP_LOAD;
        uint8_t size = kind == MEMOP_ATOMIC ? 4 : (uint8_t)(1u << (rnd(&g) % 4)); /* 1,2,4,8 */
        uint32_t active = rnd(&g) | (rnd(&g) & 1 ? 0xffffffffu : 0);
        struct memop m = mk(k, w, kind, space, size, kind == MEMOP_FENCE ? 0 : active);
        bool coal = rnd(&g) & 1;
        for (uint32_t i = 0; i < 32; i++) {
            uint64_t a;
            if (space == MEMOP_GLOBAL) /* warp w owns [0x10000 + w*1 KB, +1 KB) */
                a = 0x10000 + w * 1024u + (coal ? i * size : (rnd(&g) % 1024u)) % 1024u;
            else if (space == MEMOP_SHARED) /* warp w owns [w*2 KB, +2 KB) */
                a = w * 2048u + (coal ? i * size : rnd(&g) % 2048u) % 2048u;
            else if (space == MEMOP_LOCAL)
                a = (coal ? 0 : rnd(&g) % 64u);
            else
                a = 0x20000 + rnd(&g) % 4096u; /* const: read-only region */
            a &= ~(uint64_t)(size - 1);
            if (space == MEMOP_LOCAL && a + size > 64)
                a = 64 - size;
            m.addr[i] = a;
            for (uint32_t b = 0; b < 16; b++)
                m.data[i][b] = (uint8_t)rnd(&g);
            if (kind == MEMOP_ATOMIC) /* one word per lane-group, operands small */
                m.addr[i] = 0x10000 + w * 1024u + 4u * (rnd(&g) % 8u);
        }
        ops[k] = m;
        ref_apply(ref, &m, &exp[k]);
    }
    /* SM model: push in order as the latch frees; random 0-2 cycle gaps */
    unsigned k = 0;
    uint64_t h = 1469598103934665603ull;
    cyc(&r);
    while (k < NOPS) {
        if (ldst_can_accept(&r.u) && (rnd(&g) % 3) != 0) {
            push(&r, &ops[k]);
            k++;
        }
        cyc(&r);
    }
    drain(&r);
    *bad_out = check(ops, exp, r.f, NOPS);
    /* injected fault: corrupt the first load lane's expected byte */
    for (unsigned j = 0; j < NOPS; j++)
        if (ops[j].kind == MEMOP_LOAD && ops[j].active) {
            exp[j].data[__builtin_ctz(ops[j].active)][0] ^= 0x5a;
            break;
        }
    *fault_bad = check(ops, exp, r.f, NOPS);
    for (unsigned j = 0; j < NOPS; j++)
        h = (h ^ r.f->done_cycle[j]) * 1099511628211ull;
    *st_out = r.u.st;
    TAP_EQ_U64(r.f->n_done, NOPS, "random stream (seed %llu): all %u memops completed", (unsigned long long)seed, NOPS);
    free(ops);
    free(exp);
    free(ref->mem);
    free(ref);
    rig_fini(&r);
    return h;
}

static uint64_t run_random(uint64_t seed, unsigned *bad_out, unsigned *fault_bad, struct ldst_stats *st_out)
{
    return run_random_p(seed, bad_out, fault_bad, st_out, 0);
}

static void test_random(void)
{
    unsigned bad, fbad, bad2, fbad2;
    struct ldst_stats s1, s2;
    uint64_t h1 = run_random(7, &bad, &fbad, &s1);
    TAP_EQ_U64(bad, 0, "random stream: every lane of every load/atomic matches the flat reference");
    TAP_EQ_U64(fbad, 1, "injected fault: the checker reports exactly the corrupted lane");
    uint64_t h2 = run_random(7, &bad2, &fbad2, &s2);
    TAP_EQ_U64(h1, h2, "determinism: identical completion cycles on a rerun");
    TAP_OK(memcmp(&s1.insts, &s2.insts, sizeof s1.insts) == 0 && s1.rf_cycles == s2.rf_cycles &&
               s1.txns == s2.txns,
           "determinism: identical statistics");
    unsigned b3, f3;
    struct ldst_stats s3;
    run_random(12345, &b3, &f3, &s3);
    TAP_EQ_U64(b3, 0, "random stream seed 12345: all lanes match");
}

/* smem.latency L: completion L - 1 cycles after the bank cycles, pipelined:
 * the stage is free again after the bank cycles (GPGPU-Sim 4.2
 * -gpgpu_smem_latency; docs/ldst.md NOTE(smem-latency)). */
static void test_smem_latency(void)
{
    struct rig r;
    rig_init_smem(&r, 25);
    cyc(&r);
    struct memop m = mk(1, 0, MEMOP_LOAD, MEMOP_SHARED, 4, 0xffffffffu);
    for (int i = 0; i < 32; i++)
        m.addr[i] = 4u * (uint32_t)i; /* degree 1 */
    uint64_t t0 = push(&r, &m);
    cyc(&r); /* stage entry */
    struct memop m2 = m;
    m2.seq = 2;
    for (int i = 0; i < 32; i++)
        m2.addr[i] = 8u * (uint32_t)i; /* degree 2 */
    uint64_t t1 = push(&r, &m2);
    run_until_done(&r, 2);
    TAP_EQ_U64(r.f->done_cycle[1] - t0, 2 + 24, "degree 1, smem.latency 25: done at push + 1 + 1 + 24");
    TAP_EQ_U64(r.f->done_cycle[2] - t1, 3 + 24,
               "a second access enters the stage while the first waits: push + 1 + 2 + 24 (pipelined)");
    bool ok = true;
    for (int i = 0; i < 32; i++)
        ok &= lane_eq(r.f->res[2].data[i], r.f->smem + m2.addr[i], 4);
    TAP_OK(ok, "delayed shared load returns its data");
    TAP_OK(ldst_idle(&r.u), "unit idle after both completed");
    rig_fini(&r);
}

/* l1d.access_latency A = 5 (NOTE(l1d-access-latency)): an access the stage
 * presents at s reaches the tag check at s + A, so every path above gets A
 * more cycles; one access per cycle leaves the queue; a reservation fail
 * holds its head and a full queue (A entries) stalls the stage. */
static void test_access_latency(void)
{
    enum { A = 5 };
    struct rig r;
    rig_init_p(&r, 1, A);
    cyc(&r);
    struct memop m = mk(1, 0, MEMOP_LOAD, MEMOP_GLOBAL, 4, 0xffffffffu);
    for (int i = 0; i < 32; i++)
        m.addr[i] = 0x1000 + 4u * i;
    uint64_t t0 = push(&r, &m);
    run_until_done(&r, 1);
    TAP_EQ_U64(r.f->done_cycle[1] - t0, 13 + A, "access latency 5: load miss done at push + 13 + 5");
    m.seq = 2;
    cyc(&r);
    t0 = push(&r, &m);
    run_until_done(&r, 2);
    TAP_EQ_U64(r.f->done_cycle[2] - t0, 2 + A, "access latency 5: load hit done at push + 2 + 5");
    /* a bypassing load with the queue empty goes to the L1D at once */
    struct memop cg = mk(3, 0, MEMOP_LOAD, MEMOP_GLOBAL, 4, 0xffffffffu);
    cg.cache_op = MEMOP_CO_CG;
    for (int i = 0; i < 32; i++)
        cg.addr[i] = 0x3000 + 4u * i;
    cyc(&r);
    t0 = push(&r, &cg);
    run_until_done(&r, 3);
    TAP_EQ_U64(r.f->done_cycle[3] - t0, 13, "bypassing load, queue empty: push + 13, no access latency");
    /* a store, then a bypassing load of the same word by the same warp: the
     * load waits behind the queued store and sees its value */
    struct memop st = mk(4, 1, MEMOP_STORE, MEMOP_GLOBAL, 4, 1);
    st.addr[0] = 0x5000;
    memcpy(st.data[0], "\x11\x22\x33\x44", 4);
    struct memop ld = mk(5, 1, MEMOP_LOAD, MEMOP_GLOBAL, 4, 1);
    ld.cache_op = MEMOP_CO_CG;
    ld.addr[0] = 0x5000;
    cyc(&r);
    uint64_t ts = push(&r, &st);
    cyc(&r); /* the store takes the stage; the latch is free */
    uint64_t tl = push(&r, &ld);
    run_until_done(&r, 5);
    TAP_OK(memcmp(r.f->res[5].data[0], "\x11\x22\x33\x44", 4) == 0,
           "bypassing load queued behind its warp's store reads the stored bytes");
    /* store at ts + 1 + A = ts + 6 (popped ts + 7), the load right behind it:
     * tag check ts + 7, popped ts + 8, reply ts + 8 + D, done ts + 9 + D */
    TAP_EQ_U64(r.f->done_cycle[5] - ts, 9 + D, "bypassing load behind a queued store: done at store push + 19");
    TAP_OK(tl == ts + 1, "load pushed one cycle after the store");
    drain(&r);
    TAP_OK(ldst_idle(&r.u), "access queue drained: unit idle");
    rig_fini(&r);

    /* 32 transactions, one per cycle: the queue never fills */
    rig_init_p(&r, 1, A);
    cyc(&r);
    m = mk(1, 0, MEMOP_LOAD, MEMOP_GLOBAL, 4, 0xffffffffu);
    for (int i = 0; i < 32; i++)
        m.addr[i] = 0x4000 + 128u * i;
    uint64_t s = push(&r, &m) + 1;
    run_until_done(&r, 1);
    TAP_EQ_U64(r.f->done_cycle[1] - s, 43 + A, "stride-32 load: done at s + 31 + A + D + 2");
    TAP_EQ_U64(r.u.st.aq_full + r.u.st.aq_stall, 0, "no queue stall when requests drain");
    rig_fini(&r);

    /* held requests: 7 misses (s+5..s+11) fill the miss queue, the head
     * fails from s+12 on, and the queue (k = 7..11) is full from s+12 on */
    rig_init_p(&r, 1, A);
    cyc(&r);
    r.f->hold_req = true;
    s = push(&r, &m) + 1;
    while (r.t <= s + 19)
        cyc(&r);
    TAP_EQ_U64(r.u.st.txns, 7, "held requests: 7 misses accepted");
    TAP_EQ_U64(r.u.st.aq_stall, 8, "head reservation fails at s+12..s+19 = 8 cycles");
    TAP_EQ_U64(r.u.st.aq_full, 8, "stage waits for a full queue at s+12..s+19 = 8 cycles");
    TAP_EQ_U64(r.u.st.rf_cycles, 0, "the stage itself never meets a reservation fail");
    r.f->hold_req = false;
    run_until_done(&r, 1);
    bool ok = true;
    for (int i = 0; i < 32; i++)
        ok &= lane_eq(r.f->res[1].data[i], r.f->mem + m.addr[i], 4);
    TAP_OK(ok && r.u.st.txns == 32, "after the hold: all 32 transactions, every lane correct");
    rig_fini(&r);

    unsigned bad, fbad;
    struct ldst_stats st1;
    run_random_p(7, &bad, &fbad, &st1, A);
    TAP_EQ_U64(bad, 0, "random stream with access latency 5: every lane matches the flat reference");
    run_random_p(12345, &bad, &fbad, &st1, 35);
    TAP_EQ_U64(bad, 0, "random stream with access latency 35: every lane matches");
}

static void test_latch_backpressure(void)
{
    struct rig r;
    rig_init(&r);
    cyc(&r);
    struct memop m = mk(1, 0, MEMOP_LOAD, MEMOP_SHARED, 4, 0xffffffffu);
    for (int i = 0; i < 32; i++)
        m.addr[i] = 128u * i; /* degree 32 */
    push(&r, &m);
    m.seq = 2;
    TAP_OK(!ldst_can_accept(&r.u) && !rig_push(&r, &m, r.t - 1), "latch full: push refused");
    cyc(&r); /* first takes the stage */
    TAP_OK(rig_push(&r, &m, r.t - 1), "latch free after stage entry: second accepted");
    m.seq = 3;
    TAP_OK(!rig_push(&r, &m, r.t - 1), "second waits behind a degree-32 access: third refused");
    drain(&r);
    TAP_OK(r.f->done[1] && r.f->done[2] && !r.f->done[3], "both accepted memops completed, refused one not invented");
    TAP_EQ_U64(r.f->done_cycle[2] - r.f->done_cycle[1], 32, "second shared access starts after 32 busy cycles");
    rig_fini(&r);
}

static void test_stats(void)
{
    struct rig r;
    rig_init(&r);
    struct stats *s = stats_create();
    ldst_stats_register(&r.u, s);
    cyc(&r);
    struct memop m = mk(1, 0, MEMOP_LOAD, MEMOP_GLOBAL, 4, 1);
    m.addr[0] = 0x100;
    push(&r, &m);
    run_until_done(&r, 1);
    uint64_t v = 0;
    TAP_OK(stats_get_instance_u64(s, "ldst.insts_global", 0, &v) && v == 1, "stats: ldst.insts_global = 1");
    stats_destroy(s);
    rig_fini(&r);
}

int main(void)
{
    tap_no_plan();
    test_global_load();
    test_stride_and_backpressure(false);
    test_stride_and_backpressure(true);
    test_cg_store_atomic_fence();
    test_shared_const_param();
    test_smem_latency();
    test_access_latency();
    test_latch_backpressure();
    test_random();
    test_stats();
    return tap_exit();
}
