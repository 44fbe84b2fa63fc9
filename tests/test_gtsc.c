/* tests/test_gtsc.c: G-TSC and TC coherence (coh.protocol = gtsc / tc;
 * spec coherence-gtsc.md, sim/sm/lsu/l1d_gtsc.c, sim/sm/lsu/l1d_tc.c,
 * NOTE(l2-gtsc) and NOTE(l2-tc) in partitions/l2/l2.c) on hand-driven
 * access and reply sequences.
 *
 * - the L1D: every request's timestamps, every reply's effect on the line
 *   (state, lease) and on each warp's warp_ts, computed by hand: a miss and
 *   its fill, a hit inside the lease, a coherence miss when another store
 *   raised the warp's logical time, the renewal without data, a store that
 *   locks the copy while loads of two warps wait and are served by the ack
 *   with the stored bytes, the stale-flagged ack that drops the copy and
 *   re-reads, combining with a waiter the fill's lease does not cover, a
 *   renewal for a copy evicted meanwhile, the refusal of a store while a read
 *   is outstanding, and kernel launch;
 * - the L2 slice: the spec's Figure 3.9 numbers (a fill at [1, 11], a store
 *   with warp_ts 1 stamped 12 with lease [12, 22]), a renewal answered
 *   without data, a stale writer told to drop its copy, atomics, the
 *   min_cover rule, and mem_ts raised by an eviction;
 * - the timestamp reset (spec 2.11): a slice asks for it at the hand-computed
 *   point, resets every line to [1, lease], answers old-generation requests
 *   as warp_ts 1 without a copy; an L1 resets on a newer reply, re-reads on
 *   an older fill, takes no lease from an older ack;
 * - TC: an L1 copy hits until its expiry and is then dropped, a store drops
 *   the writer's copy, an ack's GWCT holds a fence until it passes; the L2
 *   hands out now + lease, acks with the line's latest expiry, TC-Strong
 *   holds a write until then, and a miss waits for its victim's leases.
 */
#include <stdlib.h>
#include <string.h>

#include "partitions/l2/l2.h"
#include "sim/base/common.h"
#include "sim/func/atomic_ops.h"
#include "sim/mem/coh.h"
#include "sim/ptx/ir.h"
#include "sim/sm/lsu/l1d.h"
#include "tap.h"

/* ------------------------------------------------------------- L1D rig */

struct g1rig {
    struct l1d l;
    uint64_t t;
    struct mem_req out[16]; /* requests popped since the last take */
    unsigned n_out;
    struct l1d_done done[32]; /* completions popped since the last take */
    unsigned n_done;
};

static void rig_init(struct g1rig *r, int protocol)
{
    struct l1d_cfg c;
    l1d_cfg_defaults(&c);
    coh_cfg_defaults(&c.coh);
    c.coh.protocol = protocol;
    c.period_ps = 1000; /* TC: one L1D cycle = 1 ns */
    memset(r, 0, sizeof *r);
    l1d_init(&r->l, &c, 0);
    r->t = 1;
}

static void g1_cycle(struct g1rig *r)
{
    l1d_tick(&r->l, r->t);
    struct mem_req q;
    while (l1d_pop_req(&r->l, &q, r->t)) {
        SIM_ASSERT(r->n_out < ARRAY_LEN(r->out), "rig: too many requests");
        r->out[r->n_out++] = q;
    }
    struct l1d_done d;
    while (l1d_pop_done(&r->l, &d, r->t)) {
        SIM_ASSERT(r->n_done < ARRAY_LEN(r->done), "rig: too many completions");
        r->done[r->n_done++] = d;
    }
    r->t++;
}

static void g1_run(struct g1rig *r, int n)
{
    for (int i = 0; i < n; i++)
        g1_cycle(r);
}

/* Take the only request out (asserted). */
static struct mem_req take_req(struct g1rig *r, const char *what)
{
    TAP_EQ_U64(r->n_out, 1, "%s: one request to L2", what);
    struct mem_req q = r->out[0];
    r->n_out = 0;
    return q;
}

/* Is token's completion out (and take it)? */
static bool done_token(struct g1rig *r, uint32_t token, struct l1d_done *out)
{
    for (unsigned k = 0; k < r->n_done; k++)
        if (r->done[k].token == token) {
            if (out)
                *out = r->done[k];
            r->done[k] = r->done[--r->n_done];
            return true;
        }
    return false;
}

static enum l1d_result g1_acc(struct g1rig *r, uint8_t op, uint16_t warp, uint64_t line, uint32_t token,
                              uint8_t byte, enum l1d_rf_cause *cause)
{
    struct l1d_acc a;
    memset(&a, 0, sizeof a);
    a.txn.line_addr = line;
    mem_mask_set_range(a.txn.bytes, 0, 4);
    a.txn.lanes = 1;
    a.txn.op = op;
    a.txn.l1_bypass = op == COAL_ATOMIC;
    a.txn.seg_size = 32;
    a.token = token;
    a.warp = warp;
    a.cta = 0;
    memset(a.data, byte, 4);
    if (op == COAL_ATOMIC)
        a.atom.n_lanes = 1;
    enum l1d_result res = l1d_access(&r->l, &a, r->t, cause);
    g1_run(r, 3); /* a queued request leaves at t + 1, a hit completes at t + hit latency */
    return res;
}

static void g1_reply_gen(struct g1rig *r, const struct mem_req *q, uint32_t wts, uint32_t rts, uint8_t cflags,
                         uint8_t fill_byte, uint16_t warp, uint32_t gen)
{
    struct mem_reply rep;
    memset(&rep, 0, sizeof rep);
    rep.gen = gen;
    rep.addr = q->addr;
    rep.id = q->id;
    rep.op = q->op;
    rep.warp = warp;
    rep.wts = wts;
    rep.rts = rts;
    rep.cflags = cflags;
    rep.size = q->op == MEM_OP_READ && !(cflags & MEM_RF_RENEW) ? q->size : 0;
    if (rep.size)
        memset(rep.data, fill_byte, sizeof rep.data);
    SIM_ASSERT(l1d_push_reply(&r->l, &rep, r->t), "rig: reply FIFO full");
    g1_run(r, 3);
}

static void g1_reply(struct g1rig *r, const struct mem_req *q, uint32_t wts, uint32_t rts, uint8_t cflags,
                     uint8_t fill_byte, uint16_t warp)
{
    g1_reply_gen(r, q, wts, rts, cflags, fill_byte, warp, r->l.g ? r->l.g->gen : 0);
}

static uint32_t line_wts(struct g1rig *r, uint64_t line, uint32_t *rts)
{
    int32_t li = ta_probe(&r->l.tags, line);
    if (li < 0)
        return 0;
    *rts = r->l.g->rts[li];
    return r->l.g->wts[li];
}

static void test_l1_lease(void)
{
    struct g1rig r;
    rig_init(&r, COH_PROTO_GTSC);
    const uint64_t A = 0x10000, B = 0x20000;
    uint32_t rts = 0;

    /* miss: BusRd{wts 0, warp_ts 1}; the fill [5, 15] raises warp 0 to 5 */
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 0, A, 1, 0, NULL), L1D_MISS, "first load misses");
    struct mem_req q = take_req(&r, "miss");
    TAP_OK(q.op == MEM_OP_READ && (q.id & L1D_ID_FILL) && q.coh.l1_wts == 0 && q.coh.warp_ts == 1,
           "miss: BusRd with no copy (l1_wts 0) at warp_ts 1 (got %u, %u)", q.coh.l1_wts, q.coh.warp_ts);
    g1_reply(&r, &q, 5, 15, 0, 0x11, 0);
    struct l1d_done d;
    TAP_OK(done_token(&r, 1, &d) && d.data[0] == 0x11, "the fill completes the load with its bytes");
    TAP_EQ_U64(l1d_warp_ts(&r.l, 0), 5, "warp_ts = max(1, wts 5)");
    TAP_EQ_U64(line_wts(&r, A, &rts), 5, "installed with wts 5");
    TAP_EQ_U64(rts, 15, "... and rts 15");

    /* a hit inside the lease */
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 0, A, 2, 0, NULL), L1D_HIT, "warp_ts 5 <= rts 15: hit");
    TAP_OK(done_token(&r, 2, NULL) && r.n_out == 0, "hit completes, nothing sent");

    /* warp 1's store to B (absent: no allocation) is acked at 20: its clock jumps */
    TAP_EQ_U64(g1_acc(&r, COAL_STORE, 1, B, 3, 0x22, NULL), L1D_SENT, "store miss is sent");
    q = take_req(&r, "store miss");
    TAP_OK(q.op == MEM_OP_WRITE && q.coh.warp_ts == 1 && q.coh.l1_wts == 0 && q.data[0] == 0x22 &&
               mem_mask_test(q.mask, 0) && !mem_mask_test(q.mask, 4),
           "BusWr{warp_ts 1, l1_wts 0, its bytes under the mask}");
    TAP_OK(l1d_probe_line(&r.l, B, NULL) == TA_INVALID, "no write allocation");
    g1_reply(&r, &q, 20, 30, 0, 0, 1);
    TAP_OK(done_token(&r, 3, NULL), "the ack completes the store");
    TAP_EQ_U64(l1d_warp_ts(&r.l, 1), 20, "the writer's warp_ts jumps to the store's wts 20");

    /* warp 1 at 20 > 15: a coherence miss asks for a renewal; warp 0 still hits */
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 1, A, 4, 0, NULL), L1D_MISS, "warp_ts 20 > rts 15: lease miss");
    q = take_req(&r, "lease miss");
    TAP_OK(q.coh.l1_wts == 5 && q.coh.warp_ts == 20, "renewal BusRd{wts 5, warp_ts 20} (got %u, %u)", q.coh.l1_wts,
           q.coh.warp_ts);
    TAP_EQ_U64(r.l.g->st.lease_misses, 1, "counted as a lease miss");
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 0, A, 5, 0, NULL), L1D_HIT, "warp 0 (5) still hits while the renewal is out");
    TAP_OK(done_token(&r, 5, NULL), "its hit completes");
    g1_reply(&r, &q, 5, 30, MEM_RF_RENEW, 0, 1);
    TAP_OK(done_token(&r, 4, &d) && d.data[0] == 0x11, "BusRnw completes the load with the copy's bytes");
    TAP_EQ_U64(line_wts(&r, A, &rts), 5, "renewal keeps wts 5");
    TAP_EQ_U64(rts, 30, "... and extends rts to 30");
    TAP_EQ_U64(r.l.g->st.rnw_recv, 1, "one BusRnw received");

    /* warp 0 stores to A: the copy takes the bytes and locks; loads of both warps wait */
    TAP_EQ_U64(g1_acc(&r, COAL_STORE, 0, A, 6, 0xab, NULL), L1D_SENT, "store hit is written through");
    q = take_req(&r, "store hit");
    TAP_OK(q.coh.warp_ts == 5 && q.coh.l1_wts == 5, "BusWr{warp_ts 5, l1_wts 5}");
    TAP_EQ_U64(l1d_probe_line(&r.l, A, NULL), TA_RESERVED, "the locked copy is RESERVED (never a victim)");
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 1, A, 7, 0, NULL), L1D_MISS, "another warp's load waits for the ack");
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 0, A, 8, 0, NULL), L1D_MERGED, "the writer's next load waits too");
    TAP_OK(r.n_out == 0 && r.n_done == 0, "nothing sent, nothing completed while locked");
    enum l1d_rf_cause cause = L1D_RF_COUNT;
    TAP_EQ_U64(g1_acc(&r, COAL_STORE, 1, A, 9, 0xcd, &cause), L1D_FAIL, "a second store waits for the entry");
    TAP_EQ_U64(cause, L1D_RF_STALE, "... refused as stale-entry");
    g1_reply(&r, &q, 31, 41, 0, 0, 0);
    TAP_OK(done_token(&r, 6, NULL), "the ack completes the store");
    TAP_OK(done_token(&r, 7, &d) && d.data[0] == 0xab && d.data[4] == 0x11,
           "the waiting load sees the stored bytes and the rest of the line");
    TAP_OK(done_token(&r, 8, NULL), "the writer's load completes");
    TAP_EQ_U64(l1d_warp_ts(&r.l, 0), 31, "writer: warp_ts = the store's wts 31");
    TAP_EQ_U64(l1d_warp_ts(&r.l, 1), 31, "reader after the store: warp_ts 31");
    TAP_EQ_U64(line_wts(&r, A, &rts), 31, "unlocked copy has the store's lease [31");
    TAP_EQ_U64(rts, 41, "... 41]");
    TAP_EQ_U64(l1d_probe_line(&r.l, A, NULL), TA_VALID, "and is VALID again");

    /* a stale-flagged ack drops the copy; its waiter reads again with no copy */
    TAP_EQ_U64(g1_acc(&r, COAL_STORE, 0, A, 10, 0x01, NULL), L1D_SENT, "store locks A again");
    q = take_req(&r, "store 2");
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 1, A, 11, 0, NULL), L1D_MISS, "load waits");
    g1_reply(&r, &q, 45, 55, MEM_RF_INVAL, 0, 0);
    TAP_OK(done_token(&r, 10, NULL), "ack completes the store");
    TAP_EQ_U64(l1d_probe_line(&r.l, A, NULL), TA_INVALID, "the flagged copy is dropped");
    TAP_EQ_U64(r.l.g->st.stale_drops, 1, "counted");
    q = take_req(&r, "re-read");
    TAP_OK(q.op == MEM_OP_READ && q.coh.l1_wts == 0 && q.coh.warp_ts == 31, "re-read BusRd{wts 0, warp_ts 31}");
    g1_reply(&r, &q, 45, 60, 0, 0x33, 1);
    TAP_OK(done_token(&r, 11, &d) && d.data[0] == 0x33, "the waiter gets L2's bytes");
    TAP_EQ_U64(l1d_warp_ts(&r.l, 1), 45, "and its warp_ts rises to 45");

    /* kernel launch: every line gone, every warp_ts 1 */
    g1_run(&r, 5);
    TAP_OK(l1d_idle(&r.l), "idle");
    l1d_invalidate_all(&r.l);
    TAP_OK(l1d_probe_line(&r.l, A, NULL) == TA_INVALID && l1d_warp_ts(&r.l, 0) == 1 && l1d_warp_ts(&r.l, 1) == 1,
           "kernel launch: lines dropped, warp_ts back to 1");
    l1d_fini(&r.l);
}

static void test_l1_combine(void)
{
    struct g1rig r;
    rig_init(&r, COH_PROTO_GTSC);
    const uint64_t D = 0x40000, E = 0x50000;
    /* warp 3's clock to 100 through a store ack */
    g1_acc(&r, COAL_STORE, 3, E, 1, 0, NULL);
    struct mem_req q = take_req(&r, "store");
    g1_reply(&r, &q, 100, 110, 0, 0, 3);
    TAP_EQ_U64(l1d_warp_ts(&r.l, 3), 100, "warp 3 at 100");
    TAP_OK(done_token(&r, 1, NULL), "store done");

    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 0, D, 2, 0, NULL), L1D_MISS, "warp 0 (1) misses");
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 3, D, 3, 0, NULL), L1D_MERGED, "warp 3 (100) is combined");
    q = take_req(&r, "combined miss");
    TAP_EQ_U64(q.coh.warp_ts, 1, "one BusRd, at the first waiter's warp_ts");
    g1_reply(&r, &q, 2, 50, 0, 0x44, 0);
    TAP_OK(done_token(&r, 2, NULL), "lease [2, 50] covers warp 0");
    TAP_OK(!done_token(&r, 3, NULL), "... not warp 3");
    q = take_req(&r, "renewal for the rest");
    TAP_OK(q.coh.l1_wts == 2 && q.coh.warp_ts == 100, "renewal BusRd{wts 2, warp_ts 100}");
    TAP_EQ_U64(r.l.g->st.waiter_renewals, 1, "counted");
    enum l1d_rf_cause cause = L1D_RF_COUNT;
    TAP_EQ_U64(g1_acc(&r, COAL_ATOMIC, 0, D, 9, 0, &cause), L1D_FAIL, "an atomic waits while the renewal is out");
    g1_reply(&r, &q, 2, 110, MEM_RF_RENEW, 0, 3);
    struct l1d_done d;
    TAP_OK(done_token(&r, 3, &d) && d.data[0] == 0x44, "the renewal serves warp 3");
    TAP_EQ_U64(l1d_warp_ts(&r.l, 0), 2, "warp 0: max(1, 2)");
    TAP_EQ_U64(l1d_warp_ts(&r.l, 3), 100, "warp 3 stays 100");

    /* a renewal for a copy replaced meanwhile re-reads with no copy (OQ-6) */
    g1_acc(&r, COAL_STORE, 1, E, 4, 0, NULL); /* warp 1 to 200 */
    q = take_req(&r, "store");
    g1_reply(&r, &q, 200, 210, 0, 0, 1);
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 1, D, 5, 0, NULL), L1D_MISS, "warp 1 (200): lease miss on D");
    struct mem_req ren = take_req(&r, "renewal");
    uint32_t set = l1d_set_of(&r.l, D), k = 0;
    for (uint64_t x = D + 128; k < 4; x += 128) /* four other lines of D's set push it out (LRU, 4 ways) */
        if (l1d_set_of(&r.l, x) == set) {
            g1_acc(&r, COAL_LOAD, 0, x, 10 + k, 0, NULL);
            q = take_req(&r, "filler");
            g1_reply(&r, &q, 3, 60, 0, 0, 0);
            k++;
        }
    TAP_EQ_U64(l1d_probe_line(&r.l, D, NULL), TA_INVALID, "D was replaced while its renewal was out");
    g1_reply(&r, &ren, 2, 210, MEM_RF_RENEW, 0, 1);
    TAP_EQ_U64(r.l.g->st.renew_lost, 1, "the BusRnw finds no copy");
    q = take_req(&r, "re-read");
    TAP_OK(q.coh.l1_wts == 0 && q.coh.warp_ts == 200, "re-read BusRd{wts 0, warp_ts 200}");
    g1_reply(&r, &q, 2, 210, 0, 0x55, 1);
    TAP_OK(done_token(&r, 5, &d) && d.data[0] == 0x55, "the re-read serves the load");
    l1d_fini(&r.l);
}

/* ------------------------------------------------------------- L2 rig */

struct l2g {
    struct l2 l;
    uint64_t c;
    struct mem_reply rep[8];
    unsigned n_rep;
};

static void l2g_init_bits(struct l2g *r, int rd_extend, unsigned ts_bits)
{
    struct l2_cfg cfg;
    l2_cfg_defaults(&cfg);
    struct coh_cfg coh;
    coh_cfg_defaults(&coh);
    coh.protocol = COH_PROTO_GTSC;
    coh.gtsc_rd_extend = rd_extend;
    coh.gtsc_ts_bits = ts_bits;
    memset(r, 0, sizeof *r);
    struct l2_init_args a = {.instance = 0, .rop_cycles = 1, .atom = &func_atomic_ops, .coh = &coh};
    l2_init(&r->l, &cfg, &a);
}

static void l2g_init(struct l2g *r, int rd_extend) { l2g_init_bits(r, rd_extend, 16); }

/* Push one request of generation gen and run until its reply is back (DRAM answers at once). */
static struct mem_reply l2g_req_gen(struct l2g *r, uint8_t op, uint64_t addr, uint32_t warp_ts, uint32_t l1_wts,
                                    uint32_t gen)
{
    struct mem_req q;
    memset(&q, 0, sizeof q);
    q.addr = addr;
    q.op = op;
    q.size = op == MEM_OP_READ ? 128 : 4;
    q.id = 7;
    q.warp = 2;
    q.cta = 0;
    mem_req_set_gen(&q, gen);
    if (op == MEM_OP_ATOMIC) {
        q.atom.aop = PTX_AOP_ADD;
        q.atom.type = PTX_T_U32;
        q.atom.n_lanes = 1;
        q.atom.warp_ts = warp_ts;
        q.data[0] = 1;
    } else {
        q.coh.warp_ts = warp_ts;
        q.coh.l1_wts = l1_wts;
        if (op == MEM_OP_WRITE) {
            mem_mask_set_range(q.coh.mask, 0, 4);
            memset(q.data, 0x77, 4);
        }
    }
    SIM_ASSERT(l2_push(&r->l, &q, r->c), "l2g: push refused");
    r->n_rep = 0;
    for (int i = 0; i < 400 && r->n_rep == 0; i++) {
        l2_tick(&r->l, r->c);
        struct l2_dram_req d;
        while (l2_pop_dram_req(&r->l, &d, r->c))
            if (!d.is_write) {
                uint8_t data[MEM_LINE_BYTES];
                memset(data, 0x5a, sizeof data);
                SIM_ASSERT(l2_dram_fill(&r->l, d.line_addr, data, r->c), "l2g: fill refused");
            }
        struct mem_reply rep;
        while (l2_pop_reply(&r->l, &rep, r->c))
            r->rep[r->n_rep++] = rep;
        r->c++;
    }
    SIM_ASSERT(r->n_rep == 1, "l2g: no reply");
    return r->rep[0];
}

static struct mem_reply l2g_req(struct l2g *r, uint8_t op, uint64_t addr, uint32_t warp_ts, uint32_t l1_wts)
{
    return l2g_req_gen(r, op, addr, warp_ts, l1_wts, r->l.g ? r->l.g->gen : 0);
}

static void test_l2_stamps(void)
{
    struct l2g r;
    l2g_init(&r, COH_RD_TARDIS);
    const uint64_t A = 0x1000;
    struct mem_reply p = l2g_req(&r, MEM_OP_READ, A, 1, 0);
    TAP_OK(p.wts == 1 && p.rts == 11 && p.size == 128 && !(p.cflags & MEM_RF_RENEW) && p.data[0] == 0x5a,
           "fill from DRAM: [mem_ts 1, 1 + lease 10] with data (got [%u, %u])", p.wts, p.rts);
    TAP_EQ_U64(p.warp, 2, "the reply names the request's warp");
    p = l2g_req(&r, MEM_OP_WRITE, A, 1, 1);
    TAP_OK(p.wts == 12 && p.rts == 22 && !(p.cflags & MEM_RF_INVAL),
           "Figure 3.9: store with warp_ts 1 to a block leased to 11 gets st_ts 12, lease [12, 22] (got [%u, %u])",
           p.wts, p.rts);
    p = l2g_req(&r, MEM_OP_READ, A, 15, 12);
    TAP_OK((p.cflags & MEM_RF_RENEW) && p.size == 0 && p.wts == 12 && p.rts == 25,
           "read with the current wts: BusRnw without data, rts = max(22, 12+10, 15+10) = 25 (got %u)", p.rts);
    p = l2g_req(&r, MEM_OP_READ, A, 1, 1);
    TAP_OK(!(p.cflags & MEM_RF_RENEW) && p.size == 128 && p.wts == 12 && p.rts == 25 && p.data[0] == 0x77,
           "read with an old wts: BusFill with the stored bytes, lease [12, 25]");
    p = l2g_req(&r, MEM_OP_WRITE, A, 3, 1);
    TAP_OK((p.cflags & MEM_RF_INVAL) && p.wts == 26 && p.rts == 36,
           "a writer whose copy is an old version is told to drop it; st_ts = max(3, 25+1) = 26");
    p = l2g_req(&r, MEM_OP_ATOMIC, A, 50, 0);
    TAP_OK(p.wts == 50 && p.rts == 60 && p.n_lanes == 1, "atomic with warp_ts 50: st_ts 50, lease [50, 60]");
    TAP_EQ_U64(r.l.g->st.stamps, 3, "three stamps");
    TAP_EQ_U64(r.l.g->st.rd_renewals, 1, "one renewal");
    TAP_EQ_U64(r.l.g->st.inval_acks, 1, "one invalidating ack");

    /* eight more lines of A's set (linear index, 64 sets x 8 ways) evict it: mem_ts = its rts 60 */
    uint64_t stride = 64 * 128;
    for (uint64_t k = 1; k <= 8; k++)
        l2g_req(&r, MEM_OP_READ, A + k * stride, 1, 0);
    TAP_EQ_U64(r.l.g->mem_ts, 60, "evicting A raised mem_ts to its rts 60");
    p = l2g_req(&r, MEM_OP_READ, A, 1, 0);
    TAP_OK(p.wts == 60 && p.rts == 70, "A refilled at [mem_ts 60, 70] (got [%u, %u])", p.wts, p.rts);
    p = l2g_req(&r, MEM_OP_WRITE, A + 9 * stride, 1, 5);
    TAP_OK(p.cflags & MEM_RF_INVAL, "a write that waited for a fill with a copy in L1 is always flagged (OQ-5)");
    l2_fini(&r.l);

    l2g_init(&r, COH_RD_MIN_COVER);
    p = l2g_req(&r, MEM_OP_READ, A, 1, 0);
    p = l2g_req(&r, MEM_OP_READ, A, 70, 1);
    TAP_OK((p.cflags & MEM_RF_RENEW) && p.rts == 70, "min_cover: rts = max(11, 70) = 70 (got %u)", p.rts);
    l2_fini(&r.l);
}

/* NOTE(gtsc-reset), slice side: 12-bit timestamps (max 4095) ask for a
 * reset at 4095 - 1024 + 1 = 3072; the reset makes every line [1, lease]
 * and mem_ts 1; a request of the old generation is answered as warp_ts 1
 * with no copy in L1. */
static void test_l2_reset(void)
{
    struct l2g r;
    l2g_init_bits(&r, COH_RD_TARDIS, 12);
    const uint64_t A = 0x1000, B = 0x2000;
    TAP_OK(r.l.g->max_ts == 4095 && r.l.g->reset_at == 3072, "12 bits: max 4095, reset asked at 3072 (%u, %u)",
           r.l.g->max_ts, r.l.g->reset_at);
    struct mem_reply p = l2g_req(&r, MEM_OP_READ, A, 1, 0);
    TAP_OK(p.wts == 1 && p.rts == 11 && p.gen == 0, "fill [1, 11] in generation 0");
    p = l2g_req(&r, MEM_OP_WRITE, A, 3060, 1);
    TAP_OK(p.wts == 3060 && p.rts == 3070 && !l2_gtsc_reset_wanted(&r.l),
           "store at warp_ts 3060: [3060, 3070], below 3072: no reset asked");
    p = l2g_req(&r, MEM_OP_WRITE, A, 3062, 3060);
    TAP_OK(p.wts == 3071 && p.rts == 3081 && l2_gtsc_reset_wanted(&r.l),
           "store: st_ts = max(3062, 3070 + 1) = 3071, rts 3081 >= 3072: a reset is asked (got [%u, %u])", p.wts,
           p.rts);
    p = l2g_req(&r, MEM_OP_READ, B, 3000, 0);
    TAP_OK(p.wts == 1 && p.rts == 3010 && p.gen == 0, "until the reset the slice keeps its timestamps (B [1, 3010])");
    l2_gtsc_reset(&r.l);
    TAP_OK(r.l.g->gen == 1 && r.l.g->mem_ts == 1 && !l2_gtsc_reset_wanted(&r.l) && r.l.g->st.resets == 1,
           "reset: generation 1, mem_ts 1, request cleared, counted");
    int32_t la = ta_probe(&r.l.tags, A), lb = ta_probe(&r.l.tags, B);
    TAP_OK(la >= 0 && lb >= 0 && r.l.g->wts[la] == 1 && r.l.g->rts[la] == 10 && r.l.g->wts[lb] == 1 &&
               r.l.g->rts[lb] == 10,
           "every line [1, lease 10] (spec 2.11)");
    p = l2g_req_gen(&r, MEM_OP_READ, B, 3000, 1, 0);
    TAP_OK(!(p.cflags & MEM_RF_RENEW) && p.size == 128 && p.wts == 1 && p.rts == 11 && p.gen == 1,
           "old-generation read whose l1_wts 1 happens to match: full BusFill, warp_ts taken as 1: [1, 11], gen 1");
    TAP_EQ_U64(r.l.g->st.old_reqs, 1, "counted as an old request");
    p = l2g_req_gen(&r, MEM_OP_READ, B, 4, 1, 1);
    TAP_OK((p.cflags & MEM_RF_RENEW) && p.rts == 14, "a new-generation read with wts 1: BusRnw, rts = 4 + 10");
    p = l2g_req_gen(&r, MEM_OP_WRITE, A, 3080, 3071, 0);
    TAP_OK((p.cflags & MEM_RF_INVAL) && p.wts == 11 && p.rts == 21,
           "old-generation store: warp_ts taken as 1, st_ts = max(1, 10 + 1) = 11, writer told to drop its copy");
    p = l2g_req_gen(&r, MEM_OP_ATOMIC, A, 3080, 0, 0);
    TAP_OK(p.wts == 22 && p.rts == 32 && p.gen == 1, "old-generation atomic: st_ts = 21 + 1 = 22");
    TAP_EQ_U64(r.l.g->st.old_reqs, 3, "three old requests");
    l2_fini(&r.l);
}

/* NOTE(l1d-gtsc-reset), L1 side: a reply of a newer generation resets the
 * L1 (leases dropped, warp_ts 1) before it is used; a fill of an older
 * generation is not used and the read goes again; waiters take their
 * warps' current warp_ts. */
static void test_l1_reset(void)
{
    struct g1rig r;
    rig_init(&r, COH_PROTO_GTSC);
    const uint64_t A = 0x10000, B = 0x20000, C = 0x30000;
    uint32_t rts = 0;
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 0, A, 1, 0, NULL), L1D_MISS, "load A misses");
    struct mem_req q = take_req(&r, "A");
    TAP_EQ_U64(mem_req_gen(&q), 0, "requests carry generation 0");
    g1_reply(&r, &q, 500, 510, 0, 0x11, 0);
    TAP_OK(done_token(&r, 1, NULL) && l1d_warp_ts(&r.l, 0) == 500, "A [500, 510], warp 0 at 500");
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 1, B, 2, 0, NULL), L1D_MISS, "warp 1 loads B: read outstanding");
    struct mem_req qb = take_req(&r, "B");
    TAP_EQ_U64(g1_acc(&r, COAL_STORE, 0, C, 3, 0x22, NULL), L1D_SENT, "warp 0 stores C (absent)");
    q = take_req(&r, "C");
    g1_reply_gen(&r, &q, 3, 13, 0, 0, 0, 1);
    TAP_OK(done_token(&r, 3, NULL), "the generation-1 ack completes the store");
    TAP_OK(r.l.g->gen == 1 && r.l.g->st.resets == 1, "... and resets the L1 to generation 1");
    TAP_EQ_U64(l1d_warp_ts(&r.l, 0), 3, "warp 0: warp_ts 1, then the ack's wts 3");
    TAP_EQ_U64(l1d_warp_ts(&r.l, 1), 1, "warp 1: warp_ts 1");
    TAP_OK(l1d_probe_line(&r.l, A, NULL) == TA_VALID && line_wts(&r, A, &rts) == 0 && rts == 0,
           "A stays with its lease dropped ([0, 0])");
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 0, A, 4, 0, NULL), L1D_MISS, "warp 0's load of A misses");
    q = take_req(&r, "A again");
    TAP_OK(q.coh.l1_wts == 0 && q.coh.warp_ts == 3 && mem_req_gen(&q) == 1,
           "... and reads with no copy (l1_wts 0), warp_ts 3, generation 1");
    g1_reply_gen(&r, &qb, 200, 210, 0, 0x44, 1, 0);
    TAP_OK(!done_token(&r, 2, NULL), "B's generation-0 fill does not complete warp 1's load");
    TAP_EQ_U64(r.l.g->st.old_replies, 1, "an old reply");
    struct mem_req qb2 = take_req(&r, "B again");
    TAP_OK(qb2.op == MEM_OP_READ && qb2.coh.l1_wts == 0 && qb2.coh.warp_ts == 1 && mem_req_gen(&qb2) == 1,
           "B is read again: no copy, the waiter's warp_ts now 1, generation 1");
    g1_reply(&r, &qb2, 2, 12, 0, 0x55, 1);
    struct l1d_done d;
    TAP_OK(done_token(&r, 2, &d) && d.data[0] == 0x55 && l1d_warp_ts(&r.l, 1) == 2,
           "the generation-1 fill serves it: L2's bytes, warp_ts 2");
    g1_reply(&r, &q, 1, 11, 0, 0x66, 0);
    TAP_OK(done_token(&r, 4, &d) && d.data[0] == 0x66 && line_wts(&r, A, &rts) == 1 && rts == 11,
           "A refilled at [1, 11]");
    TAP_EQ_U64(l1d_warp_ts(&r.l, 0), 3, "warp 0 stays at 3 (>= wts 1)");

    /* a store ack of an older generation: completes, no lease, copy dropped */
    TAP_EQ_U64(g1_acc(&r, COAL_STORE, 0, A, 5, 0x77, NULL), L1D_SENT, "warp 0 stores to A: locks the copy");
    q = take_req(&r, "store A");
    g1_reply_gen(&r, &q, 900, 910, 0, 0, 0, 0);
    TAP_OK(done_token(&r, 5, NULL) && l1d_warp_ts(&r.l, 0) == 3, "an old ack completes the store, warp_ts unchanged");
    TAP_EQ_U64(l1d_probe_line(&r.l, A, NULL), TA_INVALID, "the copy is dropped at unlock (no lease from before)");
    TAP_EQ_U64(r.l.g->st.old_replies, 2, "two old replies");
    l1d_fini(&r.l);
}

/* ------------------------------------------------------------- TC */

static void test_tc_l1(void)
{
    struct g1rig r;
    rig_init(&r, COH_PROTO_TC);
    const uint64_t A = 0x10000, B = 0x20000;
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 0, A, 1, 0, NULL), L1D_MISS, "TC: first load misses");
    struct mem_req q = take_req(&r, "miss");
    struct mem_reply rep;
    memset(&rep, 0, sizeof rep);
    rep.addr = q.addr;
    rep.id = q.id;
    rep.op = MEM_OP_READ;
    rep.size = 128;
    memset(rep.data, 0x66, sizeof rep.data);
    uint64_t exp = (r.t + 20) * 1000; /* the copy expires 20 cycles from now */
    mem_rep_set_time(&rep, exp);
    SIM_ASSERT(l1d_push_reply(&r.l, &rep, r.t), "rig: reply refused");
    g1_run(&r, 3);
    struct l1d_done d;
    TAP_OK(done_token(&r, 1, &d) && d.data[0] == 0x66, "the fill completes the load");
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 1, A, 2, 0, NULL), L1D_HIT, "any warp hits before the expiry");
    TAP_OK(done_token(&r, 2, NULL), "hit done");
    while (r.t * 1000 < exp)
        g1_cycle(&r);
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 1, A, 3, 0, NULL), L1D_MISS, "at the expiry the copy is dropped: a miss");
    TAP_EQ_U64(r.l.tc->st.expired, 1, "counted as expired");
    q = take_req(&r, "re-read");
    rep.id = q.id;
    mem_rep_set_time(&rep, (r.t + 100) * 1000);
    SIM_ASSERT(l1d_push_reply(&r.l, &rep, r.t), "rig: reply refused");
    g1_run(&r, 3);
    TAP_OK(done_token(&r, 3, NULL), "re-read done");
    TAP_EQ_U64(g1_acc(&r, COAL_STORE, 0, A, 4, 0x01, NULL), L1D_SENT, "a store writes through");
    TAP_OK(l1d_probe_line(&r.l, A, NULL) == TA_INVALID, "and drops the writer's copy");
    q = take_req(&r, "store");
    /* the ack says the last lease on the line ends 50 cycles from now: a fence waits for it */
    memset(&rep, 0, sizeof rep);
    rep.addr = q.addr;
    rep.id = q.id;
    rep.op = MEM_OP_WRITE;
    rep.warp = 0;
    uint64_t gwct = (r.t + 50) * 1000;
    mem_rep_set_time(&rep, gwct);
    SIM_ASSERT(l1d_push_reply(&r.l, &rep, r.t), "rig: reply refused");
    g1_run(&r, 3);
    TAP_OK(done_token(&r, 4, NULL), "the ack completes the store");
    TAP_EQ_U64(l1d_tc_fence_cycle(&r.l, r.t), gwct / 1000, "a fence may complete at the GWCT's cycle");
    TAP_EQ_U64(g1_acc(&r, COAL_LOAD, 0, B, 5, 0, NULL), L1D_MISS, "a load of B");
    TAP_EQ_U64(g1_acc(&r, COAL_STORE, 1, B, 6, 0, NULL), L1D_FAIL, "a store to B waits for B's read");
    l1d_fini(&r.l);
}

static void test_tc_l2(void)
{
    for (int strong = 0; strong < 2; strong++) {
        struct l2g r;
        struct l2_cfg cfg;
        l2_cfg_defaults(&cfg);
        struct coh_cfg coh;
        coh_cfg_defaults(&coh);
        coh.protocol = COH_PROTO_TC;
        coh.tc_variant = strong ? COH_TC_STRONG : COH_TC_WEAK;
        memset(&r, 0, sizeof r);
        struct l2_init_args a = {.instance = 0, .rop_cycles = 1, .atom = &func_atomic_ops, .coh = &coh,
                                 .period_ps = 2000, .tc_lease_ps = 300000};
        l2_init(&r.l, &cfg, &a);
        const char *v = strong ? "TC-Strong" : "TC-Weak";
        const uint64_t A = 0x1000;
        struct mem_reply p = l2g_req(&r, MEM_OP_READ, A, 0, 0);
        uint64_t t_read = (r.c - 1) * 2000; /* the reply left in the last cycle; the read was applied before */
        uint64_t exp = mem_rep_time(&p);
        TAP_OK(exp > 300000 && exp <= t_read + 300000, "%s: a read's copy expires lease after the read (%llu)", v,
               (unsigned long long)exp);
        uint64_t c0 = r.c;
        p = l2g_req(&r, MEM_OP_WRITE, A, 0, 0);
        TAP_EQ_U64(mem_rep_time(&p), exp, "%s: the write's ack carries the line's latest expiry (GWCT)", v);
        uint64_t done_ps = r.c * 2000;
        if (strong)
            TAP_OK(done_ps > exp, "TC-Strong: the write waits until the lease expired (acked at %llu ps, lease %llu)",
                   (unsigned long long)done_ps, (unsigned long long)exp);
        else
            TAP_OK(done_ps < exp && r.c - c0 < 50, "TC-Weak: the write is performed at once (%llu L2 cycles)",
                   (unsigned long long)(r.c - c0));
        TAP_EQ_U64(r.l.tc->st.write_stalls > 0, strong, "%s: lease stall cycles counted only when strong", v);
        l2_fini(&r.l);
    }
    /* eviction waits for a live lease: nine lines of one set, A leased for long */
    struct l2g r;
    struct l2_cfg cfg;
    l2_cfg_defaults(&cfg);
    struct coh_cfg coh;
    coh_cfg_defaults(&coh);
    coh.protocol = COH_PROTO_TC;
    memset(&r, 0, sizeof r);
    struct l2_init_args a = {.instance = 0, .rop_cycles = 1, .atom = &func_atomic_ops, .coh = &coh,
                             .period_ps = 2000, .tc_lease_ps = 400000};
    l2_init(&r.l, &cfg, &a);
    const uint64_t A = 0x1000, stride = 64 * 128;
    struct mem_reply p = l2g_req(&r, MEM_OP_READ, A, 0, 0);
    uint64_t exp = mem_rep_time(&p);
    for (uint64_t k = 1; k <= 8; k++)
        l2g_req(&r, MEM_OP_READ, A + k * stride, 0, 0);
    TAP_OK(r.l.tc->st.evict_stalls > 0 && r.c * 2000 >= exp,
           "a miss whose LRU victim holds a live lease waits until it expired (%llu stall cycles)",
           (unsigned long long)r.l.tc->st.evict_stalls);
    l2_fini(&r.l);
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"l1_lease", test_l1_lease},
        {"l1_combine", test_l1_combine},
        {"l2_stamps", test_l2_stamps},
        {"l2_reset", test_l2_reset},
        {"l1_reset", test_l1_reset},
        {"tc_l1", test_tc_l1},
        {"tc_l2", test_tc_l2},
    };
    return tap_run(tests, ARRAY_LEN(tests));
}
