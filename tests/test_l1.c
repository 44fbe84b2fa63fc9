/* tests/test_l1.c: the SM's L1 data cache (sim/sm/lsu/l1d.c) and the read-only
 * constant / instruction caches (sim/sm/lsu/l1ro.c).
 *
 * Every timing value is in simulated core cycles and computed by hand from
 * the gtx480 defaults (spec baseline-gpu.md 1.2, 2.6, 3.3, 4.2) and the
 * calling convention of l1d.h: per cycle t, tick(t) first, then accesses,
 * pops and pushes at t; a request queued at t is poppable at t + 1; a hit at
 * t completes at t + 1 (l1d.hit_latency 1); a reply pushed at r completes at
 * r + 1.
 *
 * A fake L2 (flat byte array, in-order, fixed delay) stands in for the
 * interconnect and L2: it applies writes and reads memory when it takes a
 * request (L2 order), and replies after `delay` cycles.
 *
 * Reference models: (1) a naive L1 (per-set arrays in recency order, linear
 * search, no hash tricks) fed the same blocking access stream must agree on
 * every hit/miss, write-back and byte; (2) a flat memory updated in access
 * order must agree with every byte a pipelined random run returns. Fault
 * checks run the same comparisons against a deliberately wrong reference and
 * require mismatches.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/sm/lsu/l1d.h"
#include "sim/sm/lsu/l1ro.h"
#include "sim/base/stats.h"
#include "tap.h"

#define MEM_BYTES (8u << 20) /* fake device memory: 8 MB */
#define LINE 128u

/* ------------------------------------------------------------- fake L2 */

struct fake_l2 {
    uint8_t *mem;              /* backing store */
    struct mem_reply q[512];   /* replies in flight */
    uint64_t ready[512];       /* cycle each reply may be delivered */
    uint32_t head, n;
    uint32_t delay;            /* cycles from taking a request to its reply */
    uint64_t log_ops[4096];    /* op | addr << 8 of each request taken, for order checks */
    uint32_t n_log;
};

static void fake_init(struct fake_l2 *f, uint32_t delay)
{
    memset(f, 0, sizeof *f);
    f->mem = xcalloc(MEM_BYTES, 1);
    for (uint32_t i = 0; i < MEM_BYTES; i++)
        f->mem[i] = (uint8_t)(i * 7u + (i >> 8));
    f->delay = delay;
}
static void fake_fini(struct fake_l2 *f) { free(f->mem); }

static void fake_take(struct fake_l2 *f, const struct mem_req *r, uint64_t cycle)
{
    uint64_t line = mem_line_of(r->addr);
    SIM_ASSERT(line + LINE <= MEM_BYTES, "fake: address 0x%llx", (unsigned long long)r->addr);
    if (f->n_log < ARRAY_LEN(f->log_ops))
        f->log_ops[f->n_log++] = r->op | (r->addr << 8);
    struct mem_reply rep;
    memset(&rep, 0, sizeof rep);
    rep.addr = r->addr;
    rep.id = r->id;
    rep.src = r->src;
    rep.op = r->op;
    switch (r->op) {
    case MEM_OP_READ:
        memcpy(rep.data, f->mem + line, LINE);
        rep.size = r->size;
        break;
    case MEM_OP_WRITE:
    case MEM_OP_WRITEBACK:
        for (uint32_t i = 0; i < LINE; i++)
            if (mem_mask_test(r->mask, i))
                f->mem[line + i] = r->data[i];
        if (r->op == MEM_OP_WRITEBACK)
            return; /* no ack */
        break;
    case MEM_OP_ATOMIC: /* u32 add, lane order (enough for the test) */
        for (uint32_t k = 0; k < r->atom.n_lanes; k++) {
            uint32_t old, b;
            memcpy(&old, f->mem + line + r->atom.off[k], 4);
            memcpy(&b, r->data + 4 * k, 4);
            memcpy(rep.data + 4 * k, &old, 4);
            old += b;
            memcpy(f->mem + line + r->atom.off[k], &old, 4);
        }
        rep.n_lanes = r->atom.n_lanes;
        rep.size = r->size;
        break;
    }
    uint32_t i = (f->head + f->n) % 512u;
    f->q[i] = rep;
    f->ready[i] = cycle + f->delay;
    f->n++;
}

/* ------------------------------------------------------------- helpers */

static struct l1d_acc mk_acc(uint8_t op, uint64_t addr, uint32_t nbytes, uint32_t token, bool local, bool bypass)
{
    struct l1d_acc a;
    memset(&a, 0, sizeof a);
    a.txn.line_addr = mem_line_of(addr);
    uint32_t off = mem_line_off(addr);
    mem_mask_set_range(a.txn.bytes, off, nbytes);
    a.txn.lanes = 1;
    a.txn.op = op;
    a.txn.l1_bypass = bypass || op == COAL_ATOMIC;
    uint32_t seg = 32;
    while ((off / seg) != ((off + nbytes - 1) / seg))
        seg *= 2;
    a.txn.seg_size = (uint16_t)seg;
    a.txn.seg_offset = (uint16_t)(off / seg * seg);
    a.token = token;
    a.is_local = local;
    return a;
}

static void fill_pattern(uint8_t *d, uint8_t seed)
{
    for (uint32_t i = 0; i < LINE; i++)
        d[i] = (uint8_t)(seed + i);
}

static struct l1d_cfg dcfg(void)
{
    struct l1d_cfg c;
    l1d_cfg_defaults(&c);
    return c;
}

/* Run one cycle of the L1D with the fake L2 attached: tick, pop one request
 * into the fake, deliver due replies (stopping when the L1 refuses). */
static void sys_cycle(struct l1d *l, struct fake_l2 *f, uint64_t t)
{
    l1d_tick(l, t);
    struct mem_req r;
    if (l1d_pop_req(l, &r, t))
        fake_take(f, &r, t);
    while (f->n && f->ready[f->head] <= t && l1d_push_reply(l, &f->q[f->head], t)) {
        f->head = (f->head + 1) % 512u;
        f->n--;
    }
}

/* Blocking access: present until accepted, then run until its completion pops
 * (stores under write-back complete at hit latency; others on their reply). */
static enum l1d_result blocking(struct l1d *l, struct fake_l2 *f, uint64_t *t, const struct l1d_acc *a,
                                struct l1d_done *out)
{
    enum l1d_result r;
    for (;;) {
        sys_cycle(l, f, *t);
        r = l1d_access(l, a, *t, NULL);
        if (r != L1D_FAIL)
            break;
        (*t)++;
    }
    for (int guard = 0; guard < 100000; guard++) {
        if (l1d_pop_done(l, out, *t)) {
            (*t)++;
            return r;
        }
        (*t)++;
        sys_cycle(l, f, *t);
    }
    sim_panic("blocking access never completed");
}

/* Drain: run until the L1D is idle and the fake has nothing in flight. */
static void drain(struct l1d *l, struct fake_l2 *f, uint64_t *t)
{
    struct l1d_done d;
    for (int guard = 0; guard < 100000 && !(l1d_idle(l) && f->n == 0); guard++) {
        sys_cycle(l, f, *t);
        while (l1d_pop_done(l, &d, *t))
            ;
        (*t)++;
    }
}

/* ------------------------------------------------------------- tests */

static void test_cfg(void)
{
    struct l1d_cfg c = dcfg();
    TAP_EQ_U64(c.size, 16384, "l1d.size default 16 KB");
    TAP_EQ_U64(c.assoc, 4, "l1d.assoc 4");
    TAP_EQ_U64(c.mshr, 32, "l1d.mshr 32");
    TAP_EQ_U64(c.mshr_merge, 8, "l1d.mshr_merge 8");
    TAP_EQ_U64(c.miss_queue, 8, "l1d.miss_queue 8");
    TAP_EQ_U64(c.hit_latency, 1, "l1d.hit_latency 1");
    TAP_EQ_U64(c.write_policy, L1D_WP_GLOBAL_WE_LOCAL_WB, "l1d.write_policy global_we_local_wb");
    TAP_EQ_U64(c.alloc, L1D_ALLOC_ON_MISS, "l1d.alloc on_miss");
    struct l1d l;
    l1d_init(&l, &c, 3);
    TAP_EQ_U64(l.n_sets, 32, "16 KB / (4 x 128 B) = 32 sets");
    l1d_fini(&l);
    /* Every field defined, the ones no l1d key sets included (CI's ASan
     * build once found test_l1 running an L1D with whatever coh.protocol
     * the stack held). */
    struct l1d_cfg g;
    memset(&g, 0xa5, sizeof g);
    l1d_cfg_defaults(&g);
    TAP_OK(g.coh.protocol == COH_PROTO_NONE && g.period_ps == 0 && g.size == 16384 && !g.perfect &&
               !g.locality_stats,
           "l1d defaults over garbage: non-coherent, no clock, key defaults");
    struct l1ro_cfg cc, ic;
    memset(&cc, 0xa5, sizeof cc);
    memset(&ic, 0xa5, sizeof ic);
    l1c_cfg_defaults(&cc);
    l1i_cfg_defaults(&ic);
    TAP_OK(cc.size == 8192 && cc.assoc == 2 && cc.line == 64 && cc.mshr == 2 && cc.mshr_merge == 32 &&
               cc.miss_queue == 4,
           "l1c defaults 8 KB 2-way 64 B, MSHR 2 x 32, miss queue 4");
    TAP_OK(ic.size == 2048 && ic.assoc == 4 && ic.line == 128 && ic.mshr == 2 && ic.mshr_merge == 32 &&
               ic.miss_queue == 4,
           "l1i defaults 2 KB 4-way 128 B, MSHR 2 x 32, miss queue 4");
    /* The key tables parse values with units and reject out-of-range ones. */
    uint64_t v = 0;
    char why[128];
    const struct cfg_key *size_key = &l1d_cfg_keys[0];
    TAP_OK(cfg_parse_value(size_key, "32KB", &v, why, sizeof why) && v == 32768, "l1d.size parses 32KB = 32768");
    int e = 0;
    const struct cfg_key *wp = NULL;
    for (unsigned i = 0; i < l1d_cfg_n_keys; i++)
        if (!strcmp(l1d_cfg_keys[i].name, "write_policy"))
            wp = &l1d_cfg_keys[i];
    TAP_OK(wp && cfg_parse_value(wp, "global_wt_alloc_local_wb", &e, why, sizeof why) &&
               e == L1D_WP_GLOBAL_WT_ALLOC_LOCAL_WB,
           "l1d.write_policy parses global_wt_alloc_local_wb");
    TAP_OK(!cfg_parse_value(&l1d_cfg_keys[1], "0", &v, why, sizeof why), "l1d.assoc 0 rejected by range");
    const char *key;
    c.size = 8192; /* 8 KB / 512 B = 16 sets: the Fermi hash needs 32 or 64 */
    TAP_OK(l1d_cfg_invalid(&c, &key) && !strcmp(key, "l1d.set_index"), "16 sets with fermi hash rejected");
    c.set_index = L1D_SET_LINEAR;
    TAP_OK(!l1d_cfg_invalid(&c, &key), "16 sets with linear index accepted");
}

static void test_fermi_hash(void)
{
    /* 0x2080: bits 7 and 13. lower = (0x2080 >> 7) & 31 = 0x41 & 31 = 1; h = A13 = 1 -> set 1 ^ 1 = 0. */
    TAP_EQ_U64(l1d_fermi_set(0x2080, 32), 0, "hash(0x2080) = 1 ^ 1 = 0");
    /* 0xA1F80 = bits 7-12, 17, 19. lower = 31; h = A17<<3 | A19<<4 = 8 + 16 = 24 -> 31 ^ 24 = 7. */
    TAP_EQ_U64(l1d_fermi_set(0xA1F80, 32), 7, "hash(0xA1F80) = 31 ^ 24 = 7");
    /* 64 sets: A12 = 1 becomes set bit 5 -> 7 | 32 = 39. */
    TAP_EQ_U64(l1d_fermi_set(0xA1F80, 64), 39, "hash64(0xA1F80) = 7 | 32 = 39");
    /* 0x3F80: bits 7-13: lower 31, h = A13 = 1 -> 30; A12 = 1 -> 64 sets: 62. */
    TAP_EQ_U64(l1d_fermi_set(0x3F80, 32), 30, "hash(0x3F80) = 31 ^ 1 = 30");
    TAP_EQ_U64(l1d_fermi_set(0x3F80, 64), 62, "hash64(0x3F80) = 30 | 32 = 62");
    /* 0x1000: only A12: 32 sets -> 0, 64 sets -> 32. */
    TAP_EQ_U64(l1d_fermi_set(0x1000, 32), 0, "hash(0x1000) = 0");
    TAP_EQ_U64(l1d_fermi_set(0x1000, 64), 32, "hash64(0x1000) = 32");
    /* 0x4E000 = bits 13,14,15,18: lower 0; h = 7 (A18 is not hashed) -> 7. */
    TAP_EQ_U64(l1d_fermi_set(0x4E000, 32), 7, "hash(0x4E000) = 7 (bit 18 not hashed)");
    /* The cache uses it: a 32 KB config has 64 sets and the 64-set variant. */
    struct l1d_cfg c = dcfg();
    c.size = 32768;
    struct l1d l;
    l1d_init(&l, &c, 0);
    TAP_EQ_U64(l.n_sets, 64, "32 KB / (4 x 128) = 64 sets");
    TAP_EQ_U64(l1d_set_of(&l, 0xA1F80), 39, "64-set cache indexes 0xA1F80 to set 39");
    l1d_fini(&l);
}

static void test_miss_fill_hit(void)
{
    struct l1d_cfg c = dcfg();
    struct l1d l;
    l1d_init(&l, &c, 2);
    struct l1d_acc a = mk_acc(COAL_LOAD, 0x1000, 4, 5, false, false);
    enum l1d_rf_cause why;
    l1d_tick(&l, 0);
    TAP_EQ_U64(l1d_access(&l, &a, 0, &why), L1D_MISS, "cycle 0: load 0x1000 misses");
    TAP_OK(l1d_peek_req(&l, 0) == NULL, "cycle 0: request not yet poppable (queued at 0, ready at 1)");
    TAP_EQ_U64(l1d_tick(&l, 1), 2, "tick(1) reports work at 2 (the request waits; tick returns a future cycle)");
    struct mem_req r;
    TAP_OK(l1d_pop_req(&l, &r, 1), "cycle 1: read request pops");
    TAP_OK(l.st.mq_wait.count == 1 && l.st.mq_wait.sum == 1, "mq_wait: one request, queued at 0, into the network at 1");
    TAP_OK(r.op == MEM_OP_READ && r.addr == 0x1000 && r.size == 128 && r.src == 2 && (r.id & L1D_ID_FILL),
           "request: READ 0x1000, 128 B line, src SM 2, fill id");
    TAP_EQ_U64(l1d_probe_line(&l, 0x1000, NULL), TA_RESERVED, "on_miss: line RESERVED while outstanding");
    struct mem_reply rep;
    memset(&rep, 0, sizeof rep);
    rep.addr = 0x1000;
    rep.id = r.id;
    rep.op = MEM_OP_READ;
    fill_pattern(rep.data, 0x40);
    for (uint64_t t = 2; t <= 10; t++)
        l1d_tick(&l, t);
    TAP_OK(l1d_push_reply(&l, &rep, 10), "cycle 10: reply accepted");
    struct l1d_done d;
    TAP_OK(!l1d_pop_done(&l, &d, 10), "cycle 10: nothing completed before the tick of 11");
    l1d_tick(&l, 11);
    TAP_OK(l1d_pop_done(&l, &d, 11), "cycle 11: fill completion (reply at 10 + 1)");
    TAP_OK(d.token == 5 && d.kind == L1D_DONE_LOAD && d.src == L1D_SRC_FILL, "completion: token 5, load, from fill");
    TAP_EQ_U64(d.latency, 11, "miss latency 11 cycles (access 0 -> completion 11)");
    TAP_OK(!memcmp(d.data, rep.data, LINE), "completion carries the reply's 128 bytes");
    TAP_EQ_U64(l1d_probe_line(&l, 0x1000, NULL), TA_VALID, "line VALID after the fill");
    l1d_tick(&l, 12);
    a.token = 6;
    TAP_EQ_U64(l1d_access(&l, &a, 12, &why), L1D_HIT, "cycle 12: same line hits");
    TAP_OK(!l1d_pop_done(&l, &d, 12), "hit not complete at 12");
    l1d_tick(&l, 13);
    TAP_OK(l1d_pop_done(&l, &d, 13) && d.token == 6 && d.latency == 1 && d.src == L1D_SRC_HIT,
           "hit completes at 13 = 12 + hit latency 1");
    TAP_OK(!memcmp(d.data, rep.data, LINE), "hit returns the filled bytes");
    TAP_EQ_U64(l1d_access(&l, &a, 13, &why) == L1D_HIT && l1d_access(&l, &a, 13, &why) == L1D_FAIL && why == L1D_RF_PORT,
               1, "one access per cycle: the second at 13 fails with rf_port");
    TAP_OK(l.st.load_hits == 2 && l.st.load_misses == 1 && l.st.fills == 1, "stats: 2 hits, 1 miss, 1 fill");
    l1d_fini(&l);
}

static void test_merge_limit(void)
{
    struct l1d_cfg c = dcfg();
    struct l1d l;
    l1d_init(&l, &c, 0);
    enum l1d_rf_cause why;
    struct l1d_acc a = mk_acc(COAL_LOAD, 0x2000, 4, 0, false, false);
    l1d_tick(&l, 0);
    TAP_EQ_U64(l1d_access(&l, &a, 0, &why), L1D_MISS, "first load misses");
    int merged = 0;
    for (uint64_t t = 1; t <= 7; t++) {
        l1d_tick(&l, t);
        a.token = (uint32_t)t;
        merged += l1d_access(&l, &a, t, &why) == L1D_MERGED;
    }
    TAP_EQ_U64(merged, 7, "7 more loads merge (8 = l1d.mshr_merge, first miss included)");
    l1d_tick(&l, 8);
    a.token = 8;
    TAP_OK(l1d_access(&l, &a, 8, &why) == L1D_FAIL && why == L1D_RF_MERGE_LIMIT, "9th load fails: merge limit");
    struct mem_req r;
    TAP_OK(l1d_pop_req(&l, &r, 8), "one read request for all 8 loads");
    TAP_OK(!l1d_pop_req(&l, &r, 9), "no second request (merged loads send nothing)");
    struct mem_reply rep;
    memset(&rep, 0, sizeof rep);
    rep.addr = 0x2000;
    rep.id = r.id;
    rep.op = MEM_OP_READ;
    fill_pattern(rep.data, 9);
    l1d_push_reply(&l, &rep, 20);
    l1d_tick(&l, 21);
    struct l1d_done d;
    int n = 0, order_ok = 1;
    while (l1d_pop_done(&l, &d, 21)) {
        order_ok &= d.token == (uint32_t)n && d.latency == 21 - (uint32_t)n && !memcmp(d.data, rep.data, LINE);
        n++;
    }
    TAP_EQ_U64(n, 8, "fill at 21 completes all 8 merged loads in the same cycle");
    TAP_OK(order_ok, "in arrival order, latency 21 - access cycle, with the line bytes");
    TAP_EQ_U64(l1d_access(&l, &a, 21, &why), L1D_HIT, "the refused 9th load, retried at 21, hits: nothing lost");
    TAP_OK(l.st.mshr_merges == 7 && l.st.rf[L1D_RF_MERGE_LIMIT] == 1, "stats: 7 merges, 1 merge-limit fail");
    l1d_fini(&l);
}

static void test_reservation_fails(void)
{
    struct l1d_cfg c = dcfg();
    c.mshr = 2;
    struct l1d l;
    l1d_init(&l, &c, 0);
    enum l1d_rf_cause why;
    struct l1d_acc a;
    /* MSHR full: 2 entries. */
    l1d_tick(&l, 0);
    a = mk_acc(COAL_LOAD, 0x0, 4, 1, false, false);
    l1d_access(&l, &a, 0, &why);
    l1d_tick(&l, 1);
    a = mk_acc(COAL_LOAD, 0x80, 4, 2, false, false);
    l1d_access(&l, &a, 1, &why);
    l1d_tick(&l, 2);
    a = mk_acc(COAL_LOAD, 0x100, 4, 3, false, false);
    TAP_OK(l1d_access(&l, &a, 2, &why) == L1D_FAIL && why == L1D_RF_MSHR_FULL, "3rd distinct miss with 2 MSHRs fails");
    struct mem_req r;
    l1d_pop_req(&l, &r, 2);
    struct mem_reply rep;
    memset(&rep, 0, sizeof rep);
    rep.addr = r.addr;
    rep.id = r.id;
    rep.op = MEM_OP_READ;
    l1d_push_reply(&l, &rep, 3);
    l1d_tick(&l, 4);
    TAP_EQ_U64(l1d_access(&l, &a, 4, &why), L1D_MISS, "after a fill frees an entry the retry misses normally");
    l1d_fini(&l);

    /* Miss queue: 8 slots, a new read miss needs 2 free, a store 1. */
    c = dcfg();
    l1d_init(&l, &c, 0);
    int ok = 0;
    for (uint64_t t = 0; t < 7; t++) { /* lines 0x80*t: sets 0..6, no set conflict */
        l1d_tick(&l, t);
        a = mk_acc(COAL_LOAD, 0x80 * t, 4, (uint32_t)t, false, false);
        ok += l1d_access(&l, &a, t, &why) == L1D_MISS;
    }
    TAP_EQ_U64(ok, 7, "7 misses fill 7 of 8 miss-queue slots (nothing popped)");
    l1d_tick(&l, 7);
    a = mk_acc(COAL_LOAD, 0x380, 4, 7, false, false);
    TAP_OK(l1d_access(&l, &a, 7, &why) == L1D_FAIL && why == L1D_RF_MISS_QUEUE, "8th miss: 1 free < 2 -> fail");
    struct l1d_acc st = mk_acc(COAL_STORE, 0x4000, 4, 100, false, false);
    TAP_EQ_U64(l1d_access(&l, &st, 7, &why), L1D_SENT, "a store needs only 1 slot -> accepted, queue now 8/8");
    l1d_tick(&l, 8);
    TAP_OK(l1d_pop_req(&l, &r, 8) && r.addr == 0, "pop at 8 (head = first miss): 1 free");
    TAP_OK(l1d_access(&l, &a, 8, &why) == L1D_FAIL && why == L1D_RF_MISS_QUEUE, "still fails with 1 free");
    l1d_tick(&l, 9);
    l1d_pop_req(&l, &r, 9);
    TAP_EQ_U64(l1d_access(&l, &a, 9, &why), L1D_MISS, "2 free at 9 -> the retried miss is accepted");
    uint64_t n_req = 2;
    for (uint64_t t = 10; t < 30; t++) {
        l1d_tick(&l, t);
        n_req += l1d_pop_req(&l, &r, t);
    }
    TAP_EQ_U64(n_req, 9, "9 requests left the queue in all: 8 misses + 1 store, none lost");
    l1d_fini(&l);

    /* Set fully reserved: lines k << 20 all hash to set 0 (bits >= 20 are not hashed). */
    l1d_init(&l, &c, 0);
    ok = 0;
    for (uint64_t k = 0; k < 4; k++) {
        l1d_tick(&l, k);
        a = mk_acc(COAL_LOAD, k << 20, 4, (uint32_t)k, false, false);
        TAP_EQ_U64(l1d_set_of(&l, k << 20), 0, "line 0x%llx in set 0", (unsigned long long)(k << 20));
        ok += l1d_access(&l, &a, k, &why) == L1D_MISS;
        l1d_pop_req(&l, &r, k);
    }
    TAP_EQ_U64(ok, 4, "4 misses reserve the 4 ways of set 0");
    l1d_tick(&l, 4);
    l1d_pop_req(&l, &r, 4);
    a = mk_acc(COAL_LOAD, 4u << 20, 4, 4, false, false);
    TAP_OK(l1d_access(&l, &a, 4, &why) == L1D_FAIL && why == L1D_RF_SET_RESERVED, "5th miss to set 0: set reserved");
    rep.addr = 0;
    rep.id = L1D_ID_FILL | (uint32_t)mshr_lookup(&l.mshr, 0);
    l1d_push_reply(&l, &rep, 5);
    l1d_tick(&l, 6);
    TAP_EQ_U64(l1d_access(&l, &a, 6, &why), L1D_MISS, "after one fill the way is VALID again and the retry misses");
    TAP_EQ_U64(l.st.rf[L1D_RF_SET_RESERVED], 1, "rf_set_reserved counted once");
    l1d_fini(&l);
}

static void test_lru_victim(void)
{
    struct l1d_cfg c = dcfg();
    struct l1d l;
    struct fake_l2 f;
    fake_init(&f, 5);
    l1d_init(&l, &c, 0);
    uint64_t t = 0;
    struct l1d_done d;
    for (uint64_t k = 0; k < 4; k++) {
        struct l1d_acc a = mk_acc(COAL_LOAD, k << 20, 4, (uint32_t)k, false, false);
        blocking(&l, &f, &t, &a, &d);
    }
    struct l1d_acc a0 = mk_acc(COAL_LOAD, 0, 4, 9, false, false);
    TAP_EQ_U64(blocking(&l, &f, &t, &a0, &d), L1D_HIT, "line 0 hit: now most recently used");
    struct l1d_acc a4 = mk_acc(COAL_LOAD, 4u << 20, 4, 10, false, false);
    TAP_EQ_U64(blocking(&l, &f, &t, &a4, &d), L1D_MISS, "line 4 misses in set 0");
    /* LRU order after the fills and the hit: 1 (oldest), 2, 3, 0 -> victim line 1. */
    TAP_EQ_U64(l1d_probe_line(&l, 1u << 20, NULL), TA_INVALID, "victim is line 1, the least recently used");
    TAP_OK(l1d_probe_line(&l, 0, NULL) == TA_VALID && l1d_probe_line(&l, 2u << 20, NULL) == TA_VALID &&
               l1d_probe_line(&l, 3u << 20, NULL) == TA_VALID && l1d_probe_line(&l, 4u << 20, NULL) == TA_VALID,
           "lines 0, 2, 3, 4 present");
    l1d_fini(&l);
    fake_fini(&f);
}

static void test_bypass_and_atomic(void)
{
    struct l1d_cfg c = dcfg();
    struct l1d l;
    struct fake_l2 f;
    fake_init(&f, 4);
    l1d_init(&l, &c, 0);
    uint64_t t = 0;
    struct l1d_done d;
    struct l1d_acc a = mk_acc(COAL_LOAD, 0x3000, 4, 1, false, false);
    blocking(&l, &f, &t, &a, &d);
    struct l1d_acc cg = mk_acc(COAL_LOAD, 0x3010, 8, 2, false, true);
    sys_cycle(&l, &f, t);
    TAP_EQ_U64(l1d_access(&l, &cg, t, NULL), L1D_SENT, ".cg load on a cached line is sent to L2");
    t++;
    sys_cycle(&l, &f, t);
    TAP_EQ_U64(f.log_ops[f.n_log - 1], MEM_OP_READ | (0x3000ull << 8),
               "bypass read: addr = line | segment offset 0 (bytes 16..23 lie in the first 32 B segment)");
    TAP_EQ_U64(l1d_probe_line(&l, 0x3000, NULL), TA_VALID, "bypass leaves the cached line VALID");
    while (!l1d_pop_done(&l, &d, t))
        sys_cycle(&l, &f, ++t);
    TAP_OK(d.token == 2 && d.src == L1D_SRC_L2 && !memcmp(d.data, f.mem + 0x3000, LINE),
           "bypass completion: token 2, passed through from L2 with the line bytes");
    TAP_EQ_U64(l.st.bypass_loads, 1, "bypass_loads 1");
    /* Atomic add u32 on 0x3004: evicts the valid copy, executes at L2. */
    uint32_t old;
    memcpy(&old, f.mem + 0x3004, 4);
    struct l1d_acc at = mk_acc(COAL_ATOMIC, 0x3004, 4, 3, false, false);
    at.atom.n_lanes = 1;
    at.atom.off[0] = 4;
    uint32_t b = 5;
    memcpy(at.data, &b, 4);
    t++;
    TAP_EQ_U64(blocking(&l, &f, &t, &at, &d), L1D_SENT, "atomic is sent to L2");
    uint32_t got, now;
    memcpy(&got, d.data, 4);
    memcpy(&now, f.mem + 0x3004, 4);
    TAP_OK(d.kind == L1D_DONE_ATOMIC && got == old && now == old + 5, "atomic returns the old value; memory = old + 5");
    TAP_EQ_U64(l1d_probe_line(&l, 0x3000, NULL), TA_INVALID, "atomic evicted the L1 copy");
    l1d_fini(&l);
    fake_fini(&f);
}

/* NOTE(vol-mshr): under coalesce.volatile_l1 = mshr a volatile load that
 * would miss is an ordinary miss (MSHR entry, line fill, installed); one
 * that finds its line valid or reserved reads the L2 as a bypass read and
 * gets the L2's current bytes, not the L1D's copy. */
static void test_volatile_mshr(void)
{
    struct l1d_cfg c = dcfg();
    c.mshr = 2;
    struct l1d l;
    struct fake_l2 f;
    fake_init(&f, 6);
    l1d_init(&l, &c, 0);
    enum l1d_rf_cause why = L1D_RF_COUNT;
    uint64_t t = 0;
    struct l1d_acc v[4];
    for (int i = 0; i < 4; i++) {
        v[i] = mk_acc(COAL_LOAD, 0x5000 + 0x80 * (uint64_t)(i % 3), 4, 10 + (uint32_t)i, false, true);
        v[i].txn.vol_mshr = true;
    }
    sys_cycle(&l, &f, t);
    int ok = l1d_access(&l, &v[0], t, &why) == L1D_MISS;
    sys_cycle(&l, &f, ++t);
    ok &= l1d_access(&l, &v[1], t, &why) == L1D_MISS && l.mshr.n_free == 0;
    TAP_OK(ok && l1d_probe_line(&l, 0x5000, NULL) == TA_RESERVED,
           "two volatile loads on absent lines are misses: 2 MSHR entries open, line reserved");
    sys_cycle(&l, &f, ++t);
    TAP_OK(l1d_access(&l, &v[2], t, &why) == L1D_FAIL && why == L1D_RF_MSHR_FULL,
           "a third on an absent line with 2 MSHR entries fails: rf_mshr_full");
    TAP_EQ_U64(l1d_access(&l, &v[3], t, &why), L1D_SENT,
               "one on a reserved line does not merge: it is a bypass read");
    struct l1d_done d;
    int got = 0;
    for (int guard = 0; guard < 100 && got < 3; guard++) {
        sys_cycle(&l, &f, ++t);
        while (l1d_pop_done(&l, &d, t))
            got += d.kind == L1D_DONE_LOAD && (d.token == 10 || d.token == 11 || d.token == 13) &&
                   !memcmp(d.data, f.mem + 0x5000 + 0x80 * ((d.token - 10) % 3), LINE);
    }
    TAP_OK(got == 3 && l1d_probe_line(&l, 0x5000, NULL) == TA_VALID && l1d_probe_line(&l, 0x5080, NULL) == TA_VALID,
           "all three complete with the L2's bytes; the two misses installed their lines");
    TAP_EQ_U64(l.st.bypass_loads, 1, "bypass_loads 1 (the reserved-line read); the misses count as load_misses");
    TAP_EQ_U64(l.st.load_misses, 2, "load_misses 2");
    /* The L2's copy changes (another SM's write): a volatile load on the
     * now-valid line must see it; a plain load hits the old copy. */
    f.mem[0x5004] ^= 0xFF;
    struct l1d_acc w = v[0];
    w.token = 20;
    t++;
    TAP_EQ_U64(blocking(&l, &f, &t, &w, &d), L1D_SENT, "volatile load on a valid line: a bypass read (no hit)");
    TAP_OK(d.token == 20 && d.data[4] == f.mem[0x5004], "it returns the L2's new byte");
    struct l1d_acc plain = mk_acc(COAL_LOAD, 0x5004, 4, 21, false, false);
    TAP_EQ_U64(blocking(&l, &f, &t, &plain, &d), L1D_HIT, "a plain load on that line hits the L1D copy");
    uint8_t old_byte = (uint8_t)(f.mem[0x5004] ^ 0xFFu);
    TAP_OK(d.data[4] == old_byte, "and sees the older byte (non-coherent L1D)");
    l1d_fini(&l);
    fake_fini(&f);
}

static void test_write_evict_policy(void)
{
    struct l1d_cfg c = dcfg();
    struct l1d l;
    struct fake_l2 f;
    fake_init(&f, 4);
    l1d_init(&l, &c, 0);
    uint64_t t = 0;
    struct l1d_done d;
    struct l1d_acc ld = mk_acc(COAL_LOAD, 0x5000, 4, 1, false, false);
    blocking(&l, &f, &t, &ld, &d);
    /* global store hit: evict, write to L2, ack from L2 */
    struct l1d_acc st = mk_acc(COAL_STORE, 0x5008, 4, 2, false, false);
    memset(st.data + 8, 0xAB, 4);
    TAP_EQ_U64(blocking(&l, &f, &t, &st, &d), L1D_SENT, "global store (hit) goes to L2");
    TAP_OK(d.kind == L1D_DONE_STORE && d.src == L1D_SRC_L2 && d.token == 2, "completion = L2's ack, token 2");
    TAP_EQ_U64(l1d_probe_line(&l, 0x5000, NULL), TA_INVALID, "write-evict: the hit line was evicted");
    TAP_EQ_U64(l.st.evictions, 1, "evictions 1");
    TAP_EQ_U64(blocking(&l, &f, &t, &ld, &d), L1D_MISS, "later load misses (line evicted)");
    TAP_OK(d.data[8] == 0xAB && d.data[11] == 0xAB && d.data[12] == f.mem[0x500C], "and returns the stored bytes via L2");
    /* global store miss: no allocate */
    struct l1d_acc st2 = mk_acc(COAL_STORE, 0x6000, 4, 3, false, false);
    blocking(&l, &f, &t, &st2, &d);
    TAP_EQ_U64(l1d_probe_line(&l, 0x6000, NULL), TA_INVALID, "global store miss does not allocate");
    /* local store hit: write-back, no L2 traffic */
    struct l1d_acc lld = mk_acc(COAL_LOAD, 0x7000, 4, 4, true, false);
    blocking(&l, &f, &t, &lld, &d);
    uint32_t n_log = f.n_log;
    struct l1d_acc lst = mk_acc(COAL_STORE, 0x7000, 4, 5, true, false);
    memset(lst.data, 0xCD, 4);
    sys_cycle(&l, &f, t);
    TAP_EQ_U64(l1d_access(&l, &lst, t, NULL), L1D_HIT, "local store hit is absorbed by the line");
    uint64_t t_st = t;
    t++;
    sys_cycle(&l, &f, t);
    TAP_OK(l1d_pop_done(&l, &d, t) && d.kind == L1D_DONE_STORE && d.src == L1D_SRC_HIT && t == t_st + 1,
           "local store completes at access + 1 with no ack");
    TAP_EQ_U64(l1d_probe_line(&l, 0x7000, NULL), TA_MODIFIED, "line MODIFIED");
    t++;
    TAP_EQ_U64(blocking(&l, &f, &t, &lld, &d), L1D_HIT, "local load hits the dirty line");
    TAP_OK(d.data[0] == 0xCD && d.data[3] == 0xCD, "and sees the stored bytes");
    TAP_EQ_U64(f.n_log, n_log, "no request reached L2 for the local store or load");
    TAP_OK(f.mem[0x7000] != 0xCD, "L2 still has the old bytes (write-back)");
    /* evict it: 4 more lines in the same set (set of 0x7000 + k << 20 is unchanged) */
    for (uint64_t k = 1; k <= 4; k++) {
        struct l1d_acc e = mk_acc(COAL_LOAD, 0x7000 + (k << 20), 4, 10 + (uint32_t)k, false, false);
        blocking(&l, &f, &t, &e, &d);
    }
    drain(&l, &f, &t);
    TAP_EQ_U64(l.st.writebacks, 1, "evicting the dirty line wrote it back once");
    TAP_OK(f.mem[0x7000] == 0xCD && f.mem[0x7003] == 0xCD, "write-back carried the stored bytes to L2");
    TAP_EQ_U64(blocking(&l, &f, &t, &lld, &d), L1D_MISS, "reloaded from L2");
    TAP_OK(d.data[0] == 0xCD, "with the written-back bytes");
    /* local store miss: to L2, no allocate */
    struct l1d_acc lst2 = mk_acc(COAL_STORE, 0x9000, 4, 6, true, false);
    TAP_EQ_U64(blocking(&l, &f, &t, &lst2, &d), L1D_SENT, "local store miss goes to L2");
    TAP_EQ_U64(l1d_probe_line(&l, 0x9000, NULL), TA_INVALID, "and does not allocate");
    /* kernel end: flush dirty lines, then invalidate at launch */
    struct l1d_acc lst3 = mk_acc(COAL_STORE, 0x7000, 4, 7, true, false);
    memset(lst3.data, 0xEE, 4);
    blocking(&l, &f, &t, &lst3, &d);
    l1d_flush_dirty(&l);
    drain(&l, &f, &t);
    TAP_OK(f.mem[0x7000] == 0xEE && l.st.writebacks == 2, "flush at kernel end wrote the dirty line back");
    l1d_invalidate_all(&l);
    TAP_EQ_U64(l1d_probe_line(&l, 0x7000, NULL), TA_INVALID, "invalidate-all at launch empties the cache");
    TAP_EQ_U64(blocking(&l, &f, &t, &lld, &d), L1D_MISS, "first load after launch misses");
    l1d_fini(&l);
    fake_fini(&f);
}

static void test_write_through_policy(void)
{
    struct l1d_cfg c = dcfg();
    c.write_policy = L1D_WP_GLOBAL_WT_ALLOC_LOCAL_WB;
    struct l1d l;
    struct fake_l2 f;
    fake_init(&f, 4);
    l1d_init(&l, &c, 0);
    uint64_t t = 0;
    struct l1d_done d;
    struct l1d_acc ld = mk_acc(COAL_LOAD, 0x5000, 4, 1, false, false);
    blocking(&l, &f, &t, &ld, &d);
    struct l1d_acc st = mk_acc(COAL_STORE, 0x5000, 4, 2, false, false);
    memset(st.data, 0x11, 4);
    TAP_EQ_U64(blocking(&l, &f, &t, &st, &d), L1D_SENT, "write-through hit also goes to L2");
    TAP_EQ_U64(l1d_probe_line(&l, 0x5000, NULL), TA_VALID, "line stays VALID (clean)");
    TAP_OK(f.mem[0x5000] == 0x11, "L2 has the bytes");
    TAP_EQ_U64(blocking(&l, &f, &t, &ld, &d), L1D_HIT, "later load hits");
    TAP_OK(d.data[0] == 0x11 && d.data[3] == 0x11, "with the stored bytes");
    /* write miss: WRITE then READ, allocate */
    uint32_t n0 = f.n_log;
    struct l1d_acc st2 = mk_acc(COAL_STORE, 0x8040, 4, 3, false, false);
    memset(st2.data + 0x40, 0x22, 4);
    blocking(&l, &f, &t, &st2, &d);
    drain(&l, &f, &t);
    TAP_EQ_U64(f.n_log - n0, 2, "write miss sent 2 requests");
    TAP_OK(f.log_ops[n0] == (MEM_OP_WRITE | (0x8040ull << 8)) && f.log_ops[n0 + 1] == (MEM_OP_READ | (0x8000ull << 8)),
           "order: WRITE (segment at 0x40) then READ of the line");
    TAP_EQ_U64(l.st.store_allocs, 1, "store_allocs 1");
    struct l1d_acc ld2 = mk_acc(COAL_LOAD, 0x8040, 4, 4, false, false);
    TAP_EQ_U64(blocking(&l, &f, &t, &ld2, &d), L1D_HIT, "allocated line hits");
    TAP_OK(d.data[0x40] == 0x22, "fill already held the written bytes (L2 served write then read)");
    l1d_fini(&l);
    fake_fini(&f);
}

static void test_stale_mshr(void)
{
    struct l1d_cfg c = dcfg();
    struct l1d l;
    struct fake_l2 f;
    fake_init(&f, 6);
    l1d_init(&l, &c, 0);
    uint8_t old = f.mem[0xA000];
    enum l1d_rf_cause why;
    sys_cycle(&l, &f, 0);
    struct l1d_acc ld = mk_acc(COAL_LOAD, 0xA000, 4, 1, false, false);
    TAP_EQ_U64(l1d_access(&l, &ld, 0, &why), L1D_MISS, "load misses at 0");
    sys_cycle(&l, &f, 1);
    struct l1d_acc st = mk_acc(COAL_STORE, 0xA000, 4, 2, false, false);
    memset(st.data, 0x77, 4);
    TAP_EQ_U64(l1d_access(&l, &st, 1, &why), L1D_SENT, "store to the outstanding line at 1");
    TAP_EQ_U64(l.st.stale_marks, 1, "MSHR entry marked stale");
    sys_cycle(&l, &f, 2);
    ld.token = 3;
    TAP_OK(l1d_access(&l, &ld, 2, &why) == L1D_FAIL && why == L1D_RF_STALE, "later load cannot merge: rf_stale");
    struct l1d_done d;
    uint64_t t = 3;
    int got1 = 0;
    int got2 = 0;
    for (; t < 60 && !(got1 && got2); t++) {
        sys_cycle(&l, &f, t);
        while (l1d_pop_done(&l, &d, t)) {
            if (d.token == 1)
                got1 = d.data[0] == old;
            got2 |= d.token == 2 && d.kind == L1D_DONE_STORE;
        }
    }
    TAP_OK(got2, "the store is acknowledged");
    TAP_OK(got1, "the load merged before the store gets the pre-store bytes");
    TAP_EQ_U64(l1d_probe_line(&l, 0xA000, NULL), TA_INVALID, "stale fill is not installed");
    TAP_EQ_U64(l.st.stale_fills, 1, "stale_fills 1");
    TAP_EQ_U64(blocking(&l, &f, &t, &ld, &d), L1D_MISS, "the retried load misses again");
    TAP_OK(d.data[0] == 0x77, "and sees the store (behind it at L2)");
    l1d_fini(&l);
    fake_fini(&f);
}

static void test_stale_noncoherent(void)
{
    struct l1d_cfg c = dcfg();
    struct l1d l;
    struct fake_l2 f;
    fake_init(&f, 4);
    l1d_init(&l, &c, 0);
    uint64_t t = 0;
    struct l1d_done d;
    struct l1d_acc ld = mk_acc(COAL_LOAD, 0xB000, 4, 1, false, false);
    blocking(&l, &f, &t, &ld, &d);
    uint8_t old = d.data[0];
    f.mem[0xB000] = (uint8_t)(old ^ 0xFF); /* another SM's store reaches L2 behind this L1's back */
    TAP_EQ_U64(blocking(&l, &f, &t, &ld, &d), L1D_HIT, "load hits the cached line");
    TAP_EQ_U64(d.data[0], old, "non-coherent L1 returns the OLD bytes (intended, documented)");
    struct l1d_acc cg = mk_acc(COAL_LOAD, 0xB000, 4, 2, false, true);
    blocking(&l, &f, &t, &cg, &d);
    TAP_EQ_U64(d.data[0], (uint8_t)(old ^ 0xFF), "a .cg (bypass) load sees the new bytes");
    drain(&l, &f, &t);
    l1d_invalidate_all(&l);
    TAP_EQ_U64(blocking(&l, &f, &t, &ld, &d), L1D_MISS, "after the launch invalidation the load misses");
    TAP_EQ_U64(d.data[0], (uint8_t)(old ^ 0xFF), "and sees the new bytes");
    l1d_fini(&l);
    fake_fini(&f);
}

static void test_backpressure(void)
{
    struct l1d_cfg c = dcfg();
    struct l1d l;
    l1d_init(&l, &c, 0);
    struct mem_reply rep;
    memset(&rep, 0, sizeof rep);
    rep.op = MEM_OP_WRITE;
    rep.id = 1;
    TAP_OK(l1d_push_reply(&l, &rep, 0) && l1d_push_reply(&l, &rep, 0), "reply FIFO takes 2 (l1d.resp_fifo)");
    TAP_OK(!l1d_can_accept_reply(&l) && !l1d_push_reply(&l, &rep, 0), "third reply refused, not dropped");
    l1d_tick(&l, 1);
    TAP_OK(l1d_push_reply(&l, &rep, 1), "one processed at 1 -> room again");
    struct l1d_done d;
    int n = 0;
    for (uint64_t t = 2; t < 6; t++) {
        l1d_tick(&l, t);
        while (l1d_pop_done(&l, &d, t))
            n++;
    }
    while (l1d_pop_done(&l, &d, 6))
        n++;
    TAP_EQ_U64(n, 3, "all 3 accepted replies completed");
    /* Hit completions not popped: capacity hit_latency + 2 = 3. */
    struct fake_l2 f;
    fake_init(&f, 2);
    uint64_t t = 10;
    struct l1d_acc ld = mk_acc(COAL_LOAD, 0xC000, 4, 1, false, false);
    blocking(&l, &f, &t, &ld, &d);
    int hits = 0;
    enum l1d_rf_cause why = L1D_RF_COUNT;
    for (int i = 0; i < 4; i++, t++) {
        l1d_tick(&l, t);
        hits += l1d_access(&l, &ld, t, &why) == L1D_HIT;
    }
    TAP_OK(hits == 3 && why == L1D_RF_DONE_FULL, "with nobody popping, 3 hits fit and the 4th fails rf_done_full");
    n = 0;
    while (l1d_pop_done(&l, &d, t))
        n++;
    TAP_EQ_U64(n, 3, "the 3 accepted hits are all delivered");
    l1d_fini(&l);
    fake_fini(&f);
}

/* ------------------------------------------------------------- naive reference */

struct naive_line {
    uint64_t tag;          /* line address, UINT64_MAX = empty */
    bool dirty;            /* local write-back data */
    uint8_t d[LINE];       /* bytes */
};
struct naive {
    uint32_t n_sets, assoc;
    struct naive_line *set; /* [n_sets][assoc], index 0 = most recent */
    bool wt;                /* write policy */
    bool fault_mru;         /* injected fault: evict the most recently used way */
    uint64_t writebacks;
};

static uint32_t naive_set(const struct naive *n, uint64_t line)
{
    /* Written out independently of l1d_fermi_set: bit by bit. */
    uint32_t s = 0;
    for (int b = 0; b < 5; b++)
        s |= (uint32_t)((line >> (7 + b)) & 1) << b;
    static const int hb[5] = {13, 14, 15, 17, 19};
    for (int b = 0; b < 5; b++)
        s ^= (uint32_t)((line >> hb[b]) & 1) << b;
    (void)n;
    return s;
}

static struct naive_line *naive_find(struct naive *n, uint64_t line, uint32_t *pos)
{
    struct naive_line *s = n->set + naive_set(n, line) * n->assoc;
    for (uint32_t i = 0; i < n->assoc; i++)
        if (s[i].tag == line) {
            *pos = i;
            return &s[i];
        }
    return NULL;
}

static void naive_to_front(struct naive *n, uint64_t line, uint32_t pos)
{
    struct naive_line *s = n->set + naive_set(n, line) * n->assoc;
    struct naive_line tmp = s[pos];
    memmove(&s[1], &s[0], pos * sizeof *s);
    s[0] = tmp;
}

static void naive_remove(struct naive *n, uint64_t line, uint32_t pos)
{
    struct naive_line *s = n->set + naive_set(n, line) * n->assoc;
    memmove(&s[pos], &s[pos + 1], (n->assoc - 1 - pos) * sizeof *s);
    s[n->assoc - 1].tag = UINT64_MAX;
    s[n->assoc - 1].dirty = false;
}

/* Insert at the front, evicting the last (LRU) way, or the first (MRU) under the fault. */
static void naive_insert(struct naive *n, uint64_t line, const uint8_t *d, uint8_t *mem)
{
    struct naive_line *s = n->set + naive_set(n, line) * n->assoc;
    uint32_t used = 0;
    while (used < n->assoc && s[used].tag != UINT64_MAX)
        used++;
    if (used == n->assoc) {
        uint32_t v = n->fault_mru ? 0 : n->assoc - 1;
        if (s[v].dirty) {
            memcpy(mem + s[v].tag, s[v].d, LINE);
            n->writebacks++;
        }
        naive_remove(n, s[v].tag, v);
    }
    memmove(&s[1], &s[0], (n->assoc - 1) * sizeof *s);
    s[0].tag = line;
    s[0].dirty = false;
    memcpy(s[0].d, d, LINE);
}

/* Apply one access atomically; returns the expected l1d_result and fills out[] for loads. */
static enum l1d_result naive_access(struct naive *n, const struct l1d_acc *a, uint8_t *mem, uint8_t *out)
{
    uint64_t line = a->txn.line_addr;
    uint32_t pos;
    struct naive_line *hl = naive_find(n, line, &pos);
    if (a->txn.op == COAL_LOAD) {
        if (a->txn.l1_bypass) {
            memcpy(out, mem + line, LINE);
            return L1D_SENT;
        }
        if (hl) {
            memcpy(out, hl->d, LINE);
            naive_to_front(n, line, pos);
            return L1D_HIT;
        }
        naive_insert(n, line, mem + line, mem);
        memcpy(out, mem + line, LINE);
        return L1D_MISS;
    }
    /* store */
    if (a->is_local && hl) {
        for (uint32_t i = 0; i < LINE; i++)
            if (mem_mask_test(a->txn.bytes, i))
                hl->d[i] = a->data[i];
        hl->dirty = true;
        naive_to_front(n, line, pos);
        return L1D_HIT;
    }
    for (uint32_t i = 0; i < LINE; i++)
        if (mem_mask_test(a->txn.bytes, i))
            mem[line + i] = a->data[i];
    if (!a->is_local && n->wt) {
        if (hl) {
            for (uint32_t i = 0; i < LINE; i++)
                if (mem_mask_test(a->txn.bytes, i))
                    hl->d[i] = a->data[i];
            naive_to_front(n, line, pos);
        } else {
            naive_insert(n, line, mem + line, mem);
        }
        return L1D_SENT;
    }
    if (hl)
        naive_remove(n, line, pos); /* write-evict */
    return L1D_SENT;
}

static struct l1d_acc random_acc(uint64_t *rng, uint32_t token, bool allow_bypass)
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t r = *rng >> 16;
    /* 24 hot lines spread over a few sets (k << 16 keeps the set for some), local region above 4 MB */
    uint64_t k = r % 24;
    bool local = (r >> 8) % 4 == 0;
    uint64_t line = (local ? (4u << 20) : 0) + ((k % 6) << 7) + ((k / 6) << 20);
    uint32_t sz = 4;
    uint32_t off = (uint32_t)((r >> 12) % 32) * 4;
    uint32_t kind = (uint32_t)((r >> 20) % 10);
    uint8_t op = kind < 6 ? COAL_LOAD : COAL_STORE;
    bool bypass = allow_bypass && op == COAL_LOAD && !local && kind == 0;
    struct l1d_acc a = mk_acc(op, line + off, sz, token, local, bypass);
    for (uint32_t i = 0; i < LINE; i++)
        a.data[i] = (uint8_t)(r >> (i % 40));
    return a;
}

/* Blocking random run vs the naive model; returns mismatches (results, bytes, write-backs). */
static int run_vs_naive(int policy, int alloc, bool fault, uint64_t seed, int n_acc)
{
    struct l1d_cfg c = dcfg();
    c.write_policy = policy;
    c.alloc = alloc;
    struct l1d l;
    struct fake_l2 f;
    fake_init(&f, 3);
    l1d_init(&l, &c, 0);
    struct naive n = {32, 4, NULL, policy == L1D_WP_GLOBAL_WT_ALLOC_LOCAL_WB, fault, 0};
    n.set = xcalloc(32 * 4, sizeof *n.set);
    for (uint32_t i = 0; i < 32 * 4; i++)
        n.set[i].tag = UINT64_MAX;
    uint8_t *ref_mem = xmalloc(MEM_BYTES);
    memcpy(ref_mem, f.mem, MEM_BYTES);
    uint64_t rng = seed, t = 0;
    int bad = 0;
    for (int i = 0; i < n_acc; i++) {
        struct l1d_acc a = random_acc(&rng, (uint32_t)i, true);
        uint8_t want[LINE];
        enum l1d_result er = naive_access(&n, &a, ref_mem, want);
        struct l1d_done d;
        enum l1d_result gr = blocking(&l, &f, &t, &a, &d);
        bad += gr != er;
        if (a.txn.op == COAL_LOAD)
            bad += memcmp(d.data, want, LINE) != 0;
    }
    drain(&l, &f, &t);
    bad += l.st.writebacks != n.writebacks;
    free(ref_mem);
    free(n.set);
    l1d_fini(&l);
    fake_fini(&f);
    return bad;
}

static void test_random_vs_naive(void)
{
    TAP_EQ_U64(run_vs_naive(L1D_WP_GLOBAL_WE_LOCAL_WB, L1D_ALLOC_ON_MISS, false, 1, 3000), 0,
               "write-evict: 3000 blocking random accesses agree with the naive LRU model (result, bytes, write-backs)");
    TAP_EQ_U64(run_vs_naive(L1D_WP_GLOBAL_WT_ALLOC_LOCAL_WB, L1D_ALLOC_ON_MISS, false, 2, 3000), 0,
               "write-through/allocate: 3000 accesses agree with the naive model");
    /* Blocking accesses leave nothing between miss and fill, so on_fill picks the same LRU victim. */
    TAP_EQ_U64(run_vs_naive(L1D_WP_GLOBAL_WE_LOCAL_WB, L1D_ALLOC_ON_FILL, false, 3, 3000), 0,
               "allocate-on-fill: 3000 accesses agree with the naive model");
    int bad = run_vs_naive(L1D_WP_GLOBAL_WE_LOCAL_WB, L1D_ALLOC_ON_MISS, true, 1, 3000);
    TAP_OK(bad > 0, "lru_fault: the same check against an MRU-evicting reference reports %d mismatches", bad);
}

/* Pipelined random run: every load's bytes must equal a flat memory updated
 * in access order; every accepted access completes exactly once. Returns a
 * trace hash (determinism) and counts mismatches into *bad. `flip` injects a
 * fault into the expected bytes of one load. */
static uint64_t run_pipelined(uint64_t seed, int policy, int alloc, int n_acc, int flip, int *bad, int *lost)
{
    struct l1d_cfg c = dcfg();
    c.write_policy = policy;
    c.alloc = alloc;
    struct l1d l;
    struct fake_l2 f;
    fake_init(&f, 7);
    l1d_init(&l, &c, 0);
    uint8_t *ref = xmalloc(MEM_BYTES);
    memcpy(ref, f.mem, MEM_BYTES);
    uint8_t (*want)[LINE] = xcalloc((size_t)n_acc, LINE);
    uint8_t *is_load = xcalloc((size_t)n_acc, 1);
    uint8_t *done = xcalloc((size_t)n_acc, 1);
    uint64_t rng = seed, hash = 1469598103934665603ull;
    int issued = 0;
    *bad = 0;
    struct l1d_acc cur = random_acc(&rng, 0, true);
    uint64_t t = 0;
    for (; t < 200000 && !(issued == n_acc && l1d_idle(&l) && f.n == 0); t++) {
        l1d_tick(&l, t);
        struct mem_req r;
        /* random stall of the request side: pop on 3 of 4 cycles */
        if (((rng >> 33) + t) % 4 != 0 && l1d_pop_req(&l, &r, t))
            fake_take(&f, &r, t);
        while (f.n && f.ready[f.head] <= t && l1d_push_reply(&l, &f.q[f.head], t)) {
            f.head = (f.head + 1) % 512u;
            f.n--;
        }
        if (issued < n_acc) {
            enum l1d_result res = l1d_access(&l, &cur, t, NULL);
            if (res != L1D_FAIL) {
                uint64_t line = cur.txn.line_addr;
                if (cur.txn.op == COAL_LOAD) {
                    is_load[issued] = 1;
                    memcpy(want[issued], ref + line, LINE);
                } else {
                    for (uint32_t i = 0; i < LINE; i++)
                        if (mem_mask_test(cur.txn.bytes, i))
                            ref[line + i] = cur.data[i];
                }
                hash = (hash ^ (uint64_t)res ^ (t << 8)) * 1099511628211ull;
                issued++;
                if (issued < n_acc)
                    cur = random_acc(&rng, (uint32_t)issued, true);
            }
        }
        struct l1d_done d;
        while (l1d_pop_done(&l, &d, t)) {
            uint32_t k = d.token;
            if (k >= (uint32_t)n_acc || done[k]) {
                (*bad)++;
                continue;
            }
            done[k] = 1;
            if (is_load[k]) {
                if ((int)k == flip)
                    want[k][0] ^= 1;
                *bad += memcmp(d.data, want[k], LINE) != 0;
            }
            hash = (hash ^ k ^ (t << 20) ^ d.data[0]) * 1099511628211ull;
        }
    }
    *lost = 0;
    for (int i = 0; i < n_acc; i++)
        *lost += !done[i];
    *lost += n_acc - issued;
    if (flip < 0)
        tap_diag("seed %llu: %llu cycles, hits %llu misses %llu merges %llu bypass %llu stores %llu writebacks %llu "
                 "stale %llu, rf: mshr %llu merge %llu mq %llu set %llu stale %llu",
                 (unsigned long long)seed, (unsigned long long)t, (unsigned long long)l.st.load_hits,
                 (unsigned long long)l.st.load_misses, (unsigned long long)l.st.mshr_merges,
                 (unsigned long long)l.st.bypass_loads, (unsigned long long)l.st.stores,
                 (unsigned long long)l.st.writebacks, (unsigned long long)l.st.stale_marks,
                 (unsigned long long)l.st.rf[L1D_RF_MSHR_FULL], (unsigned long long)l.st.rf[L1D_RF_MERGE_LIMIT],
                 (unsigned long long)l.st.rf[L1D_RF_MISS_QUEUE], (unsigned long long)l.st.rf[L1D_RF_SET_RESERVED],
                 (unsigned long long)l.st.rf[L1D_RF_STALE]);
    free(ref);
    free(want);
    free(is_load);
    free(done);
    l1d_fini(&l);
    fake_fini(&f);
    return hash ^ t;
}

static void test_random_pipelined(void)
{
    int bad, lost, bad2, lost2;
    const int WE = L1D_WP_GLOBAL_WE_LOCAL_WB, WT = L1D_WP_GLOBAL_WT_ALLOC_LOCAL_WB;
    uint64_t h1 = run_pipelined(7, WE, L1D_ALLOC_ON_MISS, 4000, -1, &bad, &lost);
    TAP_EQ_U64(bad, 0, "pipelined random run: every load returns the bytes of access order (merges, stale rule, local WB)");
    TAP_EQ_U64(lost, 0, "every one of 4000 accesses accepted and completed exactly once");
    uint64_t h2 = run_pipelined(7, WE, L1D_ALLOC_ON_MISS, 4000, -1, &bad2, &lost2);
    TAP_EQ_U64(h1, h2, "determinism: the same seed gives the same trace hash");
    run_pipelined(8, WT, L1D_ALLOC_ON_MISS, 4000, -1, &bad, &lost);
    TAP_OK(bad == 0 && lost == 0, "write-through/allocate pipelined: bytes agree, nothing lost");
    run_pipelined(9, WE, L1D_ALLOC_ON_FILL, 4000, -1, &bad, &lost);
    TAP_OK(bad == 0 && lost == 0, "allocate-on-fill pipelined: bytes agree, nothing lost");
    run_pipelined(10, WT, L1D_ALLOC_ON_FILL, 4000, -1, &bad, &lost);
    TAP_OK(bad == 0 && lost == 0, "write-through + on_fill pipelined: bytes agree, nothing lost");
    int badf, lostf;
    run_pipelined(7, WE, L1D_ALLOC_ON_MISS, 4000, 10, &badf, &lostf);
    TAP_EQ_U64(badf, 1, "data_fault: one corrupted expected value is reported as exactly 1 mismatch");
}

/* ------------------------------------------------------------- read-only caches */

static void ro_reply(struct l1ro *c, const struct mem_req *r, const uint8_t *mem, uint64_t cycle)
{
    struct mem_reply rep;
    memset(&rep, 0, sizeof rep);
    rep.addr = r->addr;
    rep.id = r->id;
    rep.op = MEM_OP_READ;
    memcpy(rep.data, mem + mem_line_of(r->addr), LINE);
    TAP_OK(l1ro_push_reply(c, &rep, cycle), "reply for 0x%llx accepted", (unsigned long long)r->addr);
}

static void test_const_cache(void)
{
    struct l1ro_cfg cfg;
    l1c_cfg_defaults(&cfg);
    struct l1ro c;
    l1ro_init(&c, &cfg, "l1c", 1);
    TAP_EQ_U64(c.n_sets, 64, "8 KB / (2 x 64 B) = 64 sets");
    uint8_t *mem = xmalloc(1 << 16);
    for (uint32_t i = 0; i < (1u << 16); i++)
        mem[i] = (uint8_t)(i ^ (i >> 7));
    enum l1ro_rf_cause why;
    l1ro_tick(&c, 0);
    TAP_EQ_U64(l1ro_access(&c, 0x1048, 1, 0, &why), L1RO_MISS, "0x1048 misses");
    struct mem_req r;
    l1ro_tick(&c, 1);
    TAP_OK(l1ro_pop_req(&c, &r, 1) && r.addr == 0x1040 && r.size == 64 && r.op == MEM_OP_READ,
           "request at 1: READ 0x1040, 64 B");
    ro_reply(&c, &r, mem, 5);
    l1ro_tick(&c, 6);
    struct l1ro_done d;
    TAP_OK(l1ro_pop_done(&c, &d, 6) && d.token == 1 && d.latency == 6 && !memcmp(d.data, mem + 0x1040, 64),
           "completion at 6 (reply 5 + 1) with bytes 0x1040..0x107f (upper half of the 128 B L2 line)");
    TAP_EQ_U64(l1ro_access(&c, 0x107C, 2, 6, &why), L1RO_HIT, "0x107c hits the same 64 B line");
    l1ro_tick(&c, 7);
    TAP_OK(l1ro_pop_done(&c, &d, 7) && d.hit && d.latency == 1, "hit completes at 7 = 6 + 1");
    TAP_EQ_U64(l1ro_access(&c, 0x1000, 3, 7, &why), L1RO_MISS, "0x1000 is a different 64 B line: miss");
    /* MSHR 2 entries: a third distinct line fails */
    l1ro_tick(&c, 8);
    TAP_EQ_U64(l1ro_access(&c, 0x2000, 4, 8, &why), L1RO_MISS, "second outstanding line");
    l1ro_tick(&c, 9);
    TAP_OK(l1ro_access(&c, 0x3000, 5, 9, &why) == L1RO_FAIL && why == L1RO_RF_MSHR_FULL, "third: MSHR full (2)");
    /* merges: 31 more to the 64 B line 0x2000 (offsets 0, 2, .. 60) fit (32 with the first), the 33rd fails */
    int m = 0;
    uint64_t t = 10;
    for (int i = 0; i < 31; i++, t++) {
        l1ro_tick(&c, t);
        m += l1ro_access(&c, 0x2000 + 2 * (uint32_t)i, 100 + (uint32_t)i, t, &why) == L1RO_MERGED;
    }
    TAP_EQ_U64(m, 31, "31 merges: 32 requests per entry");
    l1ro_tick(&c, t);
    TAP_OK(l1ro_access(&c, 0x2000, 200, t, &why) == L1RO_FAIL && why == L1RO_RF_MERGE_LIMIT, "33rd: merge limit");
    int nreq = 0;
    for (uint64_t u = t; u < t + 4; u++) {
        l1ro_tick(&c, u);
        while (l1ro_pop_req(&c, &r, u)) {
            nreq++;
            ro_reply(&c, &r, mem, u);
        }
    }
    TAP_EQ_U64(nreq, 2, "2 requests (0x1000 and 0x2000)");
    int nd = 0;
    for (uint64_t u = t + 4; u < t + 8; u++) {
        l1ro_tick(&c, u);
        while (l1ro_pop_done(&c, &d, u))
            nd++;
    }
    TAP_EQ_U64(nd, 33, "33 completions: 1 for 0x1000 + 32 for 0x2000");
    /* LRU, 2 ways: 0x1040, 0x2040, 0x3040 share set 1 (stride 64 sets x 64 B = 4 KB) */
    t += 8;
    uint64_t lines[3] = {0x1040, 0x2040, 0x3040};
    for (int i = 0; i < 3; i++) {
        if (i == 2) { /* touch 0x1040 so 0x2040 is LRU */
            l1ro_tick(&c, t);
            l1ro_access(&c, 0x1040, 0, t, &why);
            t++;
        }
        l1ro_tick(&c, t);
        enum l1ro_result res = l1ro_access(&c, lines[i], 0, t, &why);
        if (res == L1RO_MISS) {
            t++;
            l1ro_tick(&c, t);
            l1ro_pop_req(&c, &r, t);
            ro_reply(&c, &r, mem, t);
        }
        t++;
        l1ro_tick(&c, t);
        while (l1ro_pop_done(&c, &d, t))
            ;
        t++;
    }
    TAP_OK(l1ro_probe_line(&c, 0x1040, NULL) == TA_VALID && l1ro_probe_line(&c, 0x3040, NULL) == TA_VALID &&
               l1ro_probe_line(&c, 0x2040, NULL) == TA_INVALID,
           "allocate on fill evicted 0x2040, the LRU way of set 1");
    l1ro_invalidate_all(&c);
    TAP_EQ_U64(l1ro_probe_line(&c, 0x1040, NULL), TA_INVALID, "invalidate-all at launch");
    free(mem);
    l1ro_fini(&c);
}

/* NOTE(l1ro-no-data): a cache that keeps no line bytes (the SM's l1i)
 * behaves like one that does: the same results, completions (token, line,
 * latency, hit) in the same cycles and the same statistics, over a random
 * run with misses, merges, fails and evictions; the one with data returns
 * the right bytes. */
static void test_ro_no_data(void)
{
    struct l1ro_cfg cfg;
    l1i_cfg_defaults(&cfg);
    struct l1ro a, b;
    l1ro_init(&a, &cfg, "l1i", 0);
    l1ro_init(&b, &cfg, "l1i", 0);
    l1ro_no_data(&b);
    uint8_t *mem = xmalloc(1 << 16);
    for (uint32_t i = 0; i < (1u << 16); i++)
        mem[i] = (uint8_t)(i * 5u + (i >> 9));
    struct mem_req pend[64];
    uint64_t pend_at[64];
    unsigned np = 0, bad = 0, nd = 0, badbytes = 0;
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    for (uint64_t t = 0; t < 4000; t++) {
        l1ro_tick(&a, t);
        l1ro_tick(&b, t);
        for (unsigned i = 0; i < np;) { /* replies 7 cycles after their request */
            if (pend_at[i] + 7 > t) {
                i++;
                continue;
            }
            struct mem_reply rep;
            memset(&rep, 0, sizeof rep);
            rep.addr = pend[i].addr;
            rep.id = pend[i].id;
            rep.op = MEM_OP_READ;
            memcpy(rep.data, mem + mem_line_of(pend[i].addr), LINE);
            bool ok = l1ro_push_reply(&a, &rep, t);
            bad += ok != l1ro_push_reply(&b, &rep, t);
            if (!ok)
                break; /* same for both: try again next cycle */
            pend[i] = pend[--np];
            pend_at[i] = pend_at[np];
        }
        struct l1ro_done da, db;
        for (;;) {
            bool pa = l1ro_pop_done(&a, &da, t), pb = l1ro_pop_done(&b, &db, t);
            bad += pa != pb;
            if (!pa || !pb)
                break;
            nd++;
            bad += da.token != db.token || da.line_addr != db.line_addr || da.latency != db.latency ||
                   da.hit != db.hit;
            badbytes += memcmp(da.data, mem + da.line_addr, cfg.line) != 0;
        }
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        if ((rng >> 60) < 10) { /* an access most cycles, over 8 KB: misses, merges and evictions */
            uint64_t addr = (rng >> 20) % (1u << 13);
            enum l1ro_rf_cause ca, cb;
            enum l1ro_result ra = l1ro_access(&a, addr, (uint32_t)t, t, &ca);
            enum l1ro_result rb = l1ro_access(&b, addr, (uint32_t)t, t, &cb);
            bad += ra != rb || (ra == L1RO_FAIL && ca != cb);
        }
        struct mem_req ra, rb;
        for (;;) {
            bool pa = l1ro_pop_req(&a, &ra, t), pb = l1ro_pop_req(&b, &rb, t);
            bad += pa != pb;
            if (!pa || !pb)
                break;
            bad += ra.addr != rb.addr || ra.id != rb.id;
            SIM_ASSERT(np < 64, "test: too many requests in flight");
            pend[np] = ra;
            pend_at[np++] = t;
        }
    }
    TAP_EQ_U64(bad, 0, "no-data cache: same results, completions and requests as the data cache");
    TAP_OK(nd > 1000 && a.st.misses > 50 && a.st.mshr_merges > 10 && a.st.hits > 500,
           "the run exercised hits (%llu), misses (%llu) and merges (%llu) in %u completions",
           (unsigned long long)a.st.hits, (unsigned long long)a.st.misses, (unsigned long long)a.st.mshr_merges, nd);
    TAP_OK(memcmp(&a.st, &b.st, sizeof a.st) == 0, "no-data cache: identical statistics");
    TAP_EQ_U64(badbytes, 0, "the data cache returned every line's bytes");
    free(mem);
    l1ro_fini(&a);
    l1ro_fini(&b);
}

static void test_icache(void)
{
    struct l1ro_cfg cfg;
    l1i_cfg_defaults(&cfg);
    struct l1ro c;
    l1ro_init(&c, &cfg, "l1i", 0);
    TAP_EQ_U64(c.n_sets, 4, "2 KB / (4 x 128 B) = 4 sets");
    uint8_t *mem = xmalloc(1 << 16);
    memset(mem, 0x5A, 1 << 16);
    struct l1ro_done d;
    struct mem_req r;
    enum l1ro_rf_cause why;
    /* Miss queue of 4, MSHR 2: fill 0, 512, 1024, 1536 (set 0), then 2048 evicts 0 (LRU). */
    uint64_t t = 0;
    for (uint64_t k = 0; k < 5; k++) {
        l1ro_tick(&c, t);
        TAP_EQ_U64(l1ro_access(&c, k * 512 + 8, (uint32_t)k, t, &why), L1RO_MISS, "fetch 0x%llx misses",
                   (unsigned long long)(k * 512 + 8));
        t++;
        l1ro_tick(&c, t);
        TAP_OK(l1ro_pop_req(&c, &r, t) && r.size == 128 && r.addr == k * 512, "128 B line request");
        ro_reply(&c, &r, mem, t);
        t++;
        l1ro_tick(&c, t);
        TAP_OK(l1ro_pop_done(&c, &d, t) && d.latency == 2, "fill completes 2 cycles after the access");
        t++;
    }
    TAP_EQ_U64(l1ro_probe_line(&c, 0, NULL), TA_INVALID, "line 0 (LRU of set 0) evicted by the 5th line");
    TAP_EQ_U64(l1ro_probe_line(&c, 512, NULL), TA_VALID, "line 512 still present");
    /* Miss queue full: 4 slots, nothing popped; only 2 MSHRs, so use the cap: with MSHR 2 the queue cannot fill. */
    cfg.mshr = 8;
    struct l1ro c2;
    l1ro_init(&c2, &cfg, "l1i", 1);
    int ok = 0;
    for (uint64_t k = 0; k < 4; k++) {
        l1ro_tick(&c2, k);
        ok += l1ro_access(&c2, k * 128, 0, k, &why) == L1RO_MISS;
    }
    l1ro_tick(&c2, 4);
    TAP_OK(ok == 4 && l1ro_access(&c2, 4 * 128, 0, 4, &why) == L1RO_FAIL && why == L1RO_RF_MISS_QUEUE,
           "4 misses fill the 4-entry miss queue; the 5th fails rf_miss_queue");
    l1ro_fini(&c2);
    /* statistics registry */
    struct stats *s = stats_create();
    l1ro_stats_register(&c, s);
    uint64_t v = 0;
    TAP_OK(stats_get_instance_u64(s, "l1i.misses", 0, &v) && v == 5, "l1i.misses[0] = 5 via the registry");
    stats_destroy(s);
    free(mem);
    l1ro_fini(&c);
}

static void test_stats_registry(void)
{
    struct l1d_cfg c = dcfg();
    struct l1d l;
    l1d_init(&l, &c, 4);
    struct stats *s = stats_create();
    l1d_stats_register(&l, s);
    struct l1d_acc a = mk_acc(COAL_LOAD, 0x100, 4, 0, false, false);
    l1d_tick(&l, 0);
    l1d_access(&l, &a, 0, NULL);
    uint64_t v = 0;
    TAP_OK(stats_get_instance_u64(s, "l1d.load_misses", 4, &v) && v == 1, "l1d.load_misses[4] = 1 via the registry");
    stats_destroy(s);
    l1d_fini(&l);
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"cfg", test_cfg},
        {"fermi_hash", test_fermi_hash},
        {"miss_fill_hit", test_miss_fill_hit},
        {"merge_limit", test_merge_limit},
        {"reservation_fails", test_reservation_fails},
        {"lru_victim", test_lru_victim},
        {"bypass_and_atomic", test_bypass_and_atomic},
        {"volatile_mshr", test_volatile_mshr},
        {"write_evict_policy", test_write_evict_policy},
        {"write_through_policy", test_write_through_policy},
        {"stale_mshr", test_stale_mshr},
        {"stale_noncoherent", test_stale_noncoherent},
        {"backpressure", test_backpressure},
        {"random_vs_naive", test_random_vs_naive},
        {"random_pipelined", test_random_pipelined},
        {"const_cache", test_const_cache},
        {"icache", test_icache},
        {"ro_no_data", test_ro_no_data},
        {"stats_registry", test_stats_registry},
    };
    return tap_run(tests, ARRAY_LEN(tests));
}
