/* tests/test_dram.c: DRAM controller + GDDR5 channel (partitions/dram/dram.c,
 * dram_frfcfs.c, dram_fcfs.c), its key table (dram_cfg.c) and the address
 * map (partitions/addrmap/addrmap.c).
 *
 * Timing expectations are DRAM command cycles computed by hand from the
 * gtx480 defaults (spec baseline-gpu.md §3.3):
 *   tRCD 12, tRAS 28, tRP 12, tRC 40, tCCDS 2, tCCDL 3, tRRD 6, tCL 12,
 *   tWL 4, tCDLR 5, tWR 12, tRTPL 2, BL 8, data_cmd_ratio 4
 *   derived: burst = 8/4 = 2 cycles, ACT->WR = 12-(4+1) = 7,
 *   tRTW = 12+2+2-4 = 12, tWTR = 4+2+5 = 11, WR->PRE = 4+2+12 = 18.
 * Pipeline of one tick (dram.c): retire, schedule, issue, admit. A request
 * pushed with ready cycle r enters the queue in tick r, is handed to its
 * bank in tick r+1 and can issue its first command in that same tick.
 *
 * Also: a naive pairwise checker of the raw timing rules run over command
 * traces of random workloads (the optimised structure is the compiled
 * constraint table), with injected faults showing it catches violations;
 * backpressure (queue, delay line, return queue) with conservation of
 * requests; determinism (two runs, and tick-every-cycle vs skip-to-next);
 * FR-FCFS vs fcfs ordering; separate_rw write drain; perfect model; and the
 * address map against hand-worked bit layouts and a naive bitwise reference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partitions/addrmap/addrmap.h"
#include "partitions/dram/dram.h"
#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/base/stats.h"
#include "tap.h"

/* ------------------------------------------------------------------ harness */

#define MAX_TRACE 20000
#define MAX_REQ 4096

struct ret_rec {
    uint64_t tag;
    cycle_t cycle;
};

struct harness {
    struct dram d;
    struct dram_cmd_rec tr[MAX_TRACE];
    size_t n_tr;
    struct ret_rec ret[MAX_REQ];
    size_t n_ret;
    bool pop;        /* pop reads as soon as they are in the return queue */
};

static void trace_cb(void *ctx, const struct dram_cmd_rec *r)
{
    struct harness *h = ctx;
    if (h->n_tr < MAX_TRACE)
        h->tr[h->n_tr++] = *r;
}

static struct harness *h_new(const struct dram_cfg *c)
{
    struct harness *h = xcalloc(1, sizeof *h);
    dram_init(&h->d, c, 0);
    dram_set_trace(&h->d, trace_cb, h);
    h->pop = true;
    return h;
}

static void h_free(struct harness *h)
{
    dram_fini(&h->d);
    free(h);
}

static void h_pop_all(struct harness *h, cycle_t c)
{
    struct dram_req r;
    while (h->pop && dram_pop_read(&h->d, &r, c))
        if (h->n_ret < MAX_REQ)
            h->ret[h->n_ret++] = (struct ret_rec){r.tag, c};
}

/* Tick from `from` until idle (or `limit`); every_cycle ticks each cycle,
 * otherwise jumps to the returned next-work cycle. Returns the last cycle. */
static cycle_t h_run(struct harness *h, cycle_t from, cycle_t limit, bool every_cycle)
{
    cycle_t c = from, last = from;
    while (c <= limit) {
        cycle_t nx = dram_tick(&h->d, c);
        h_pop_all(h, c);
        last = c;
        if (nx == CYCLE_NEVER && (dram_pending(&h->d) == 0 || !h->pop))
            break;
        if (nx == CYCLE_NEVER)
            nx = c + 1; /* woken by our pop */
        c = every_cycle ? c + 1 : nx;
    }
    return last;
}

static struct dram_req mkreq(uint64_t tag, uint32_t bank, uint32_t row, bool w)
{
    struct dram_req r = {.tag = tag, .bank = bank, .row = row, .bytes = 128, .is_write = w};
    return r;
}

/* Cycle of the k-th (0-based) command `cmd` serving `tag`, or CYCLE_NEVER. */
static cycle_t cmd_at(const struct harness *h, uint64_t tag, enum dram_cmd cmd, int k)
{
    for (size_t i = 0; i < h->n_tr; i++)
        if (h->tr[i].tag == tag && h->tr[i].cmd == cmd && k-- == 0)
            return h->tr[i].cycle;
    return CYCLE_NEVER;
}

static cycle_t ret_at(const struct harness *h, uint64_t tag)
{
    for (size_t i = 0; i < h->n_ret; i++)
        if (h->ret[i].tag == tag)
            return h->ret[i].cycle;
    return CYCLE_NEVER;
}

static struct dram_cfg defaults(void)
{
    struct dram_cfg c;
    dram_cfg_defaults(&c);
    return c;
}

/* --------------------------------------------- naive reference timing checker */

/* The raw rules of spec §3.3, written out pair by pair with no table, no
 * derived arrays: for every ordered pair of commands (i before j) the
 * distance must be at least the rule's latency. Also one command per cycle,
 * and column commands only to the open row. Returns violations found. */
struct ref_timing {
    int tRCD, tRCDWR, tRAS, tRC, tRP, rd2pre, tWTP, tCCDL, tRTPL, tCCDS, tRRD, tRTW, tWTR;
    uint32_t bpg; /* banks per bank group */
    uint32_t low; /* 0: group = bank / bpg; else group = bank % low (dram.bank_group_index = low, low groups) */
};

static struct ref_timing ref_gtx480(void)
{
    struct ref_timing t = {12, 7, 28, 40, 12, 2, 18, 3, 2, 2, 6, 12, 11, 4, 0};
    return t;
}

static int ref_check(const struct dram_cmd_rec *tr, size_t n, const struct ref_timing *t, int verbose)
{
    int bad = 0;
#define IS(c, x) ((c) == DRAM_CMD_##x)
#define COL(c) (IS(c, RD) || IS(c, WR))
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < j; i++) {
            const struct dram_cmd_rec *a = &tr[i], *b = &tr[j];
            int64_t dist = (int64_t)b->cycle - (int64_t)a->cycle;
            bool sb = a->bank == b->bank;
            bool sg = t->low ? a->bank % t->low == b->bank % t->low : a->bank / t->bpg == b->bank / t->bpg;
            int need = 0;
#define NEED(cond, v)                                                                              \
    if (cond)                                                                                      \
        need = MAX(need, (v));
            NEED(sb && IS(a->cmd, ACT) && IS(b->cmd, RD), t->tRCD);
            NEED(sb && IS(a->cmd, ACT) && IS(b->cmd, WR), t->tRCDWR);
            NEED(sb && IS(a->cmd, ACT) && IS(b->cmd, PRE), t->tRAS);
            NEED(sb && IS(a->cmd, ACT) && IS(b->cmd, ACT), t->tRC);
            NEED(sb && IS(a->cmd, PRE) && IS(b->cmd, ACT), t->tRP);
            NEED(sb && IS(a->cmd, RD) && IS(b->cmd, PRE), t->rd2pre);
            NEED(sb && IS(a->cmd, WR) && IS(b->cmd, PRE), t->tWTP);
            NEED(sg && COL(a->cmd) && COL(b->cmd), t->tCCDL);
            NEED(sg && IS(a->cmd, RD) && IS(b->cmd, PRE), t->tRTPL);
            NEED(COL(a->cmd) && COL(b->cmd), t->tCCDS);
            NEED(IS(a->cmd, ACT) && IS(b->cmd, ACT), t->tRRD);
            NEED(IS(a->cmd, RD) && IS(b->cmd, WR), t->tRTW);
            NEED(IS(a->cmd, WR) && IS(b->cmd, RD), t->tWTR);
            NEED(true, 1); /* one command per cycle */
#undef NEED
            if (dist < need) {
                if (verbose && bad < 3)
                    tap_diag("ref: %s b%u @%llu -> %s b%u @%llu: distance %lld < %d",
                             dram_cmd_name(a->cmd), a->bank, (unsigned long long)a->cycle,
                             dram_cmd_name(b->cmd), b->bank, (unsigned long long)b->cycle,
                             (long long)dist, need);
                bad++;
            }
        }
    }
    /* Protocol: per bank, ACT only when closed, PRE only when open, column
     * commands only to the open row. */
    uint32_t open[256];
    for (int b = 0; b < 256; b++)
        open[b] = DRAM_NONE;
    for (size_t j = 0; j < n; j++) {
        const struct dram_cmd_rec *x = &tr[j];
        if (IS(x->cmd, ACT)) {
            bad += open[x->bank] != DRAM_NONE;
            open[x->bank] = x->row;
        } else if (IS(x->cmd, PRE)) {
            bad += open[x->bank] == DRAM_NONE;
            open[x->bank] = DRAM_NONE;
        } else {
            bad += open[x->bank] != x->row;
        }
    }
#undef IS
#undef COL
    return bad;
}

/* Deterministic random workload (LCG). */
static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* Push n random requests (rows from a small set so hits, misses and
 * conflicts all occur), one attempt per cycle. every_cycle ticks each cycle;
 * otherwise the unit is ticked only at its returned next-work cycle, lowered
 * to a pushed request's ready cycle (the caller's side of the skip contract). */
static cycle_t run_random(struct harness *h, uint64_t seed, int n, bool every_cycle)
{
    uint64_t s = seed;
    int pushed = 0;
    cycle_t c = 0, next = 0;
    struct dram_req pend = {0};
    bool have = false;
    while (pushed < n) {
        if (!have) {
            uint32_t bank = (uint32_t)(lcg(&s) % h->d.cfg.banks), row = (uint32_t)(lcg(&s) % 3);
            if (row == 2 && h->d.cfg.rows != 4096)
                row = (uint32_t)h->d.cfg.rows - 1; /* other geometries: reach the top row */
            pend = mkreq((uint64_t)pushed, bank, row, lcg(&s) % 4 == 0);
            have = true;
        }
        cycle_t ready = c + (lcg(&s) % 3);
        if (dram_push(&h->d, &pend, ready)) {
            pushed++;
            have = false;
            next = MIN(next, ready);
        }
        if (every_cycle || c >= next) {
            next = dram_tick(&h->d, c);
            h_pop_all(h, c);
        }
        c++;
    }
    return h_run(h, MIN(c, next), c + 1000000, every_cycle);
}

/* ------------------------------------------------------------------- tests */

static void test_single_read(void)
{
    struct dram_cfg c = defaults();
    struct harness *h = h_new(&c);
    struct stats *reg = stats_create();
    dram_stats_register(&h->d, reg, 0);
    struct dram_req r = mkreq(7, 0, 5, false);
    TAP_OK(dram_push(&h->d, &r, 0), "single read: accepted");
    h_run(h, 0, 1000, false);
    /* enters queue at 0, handed + ACT at 1 = c0 */
    TAP_EQ_U64(cmd_at(h, 7, DRAM_CMD_ACT, 0), 1, "single read: ACT at c0 = 1");
    /* RD at c0 + tRCD = 1 + 12 = 13 */
    TAP_EQ_U64(cmd_at(h, 7, DRAM_CMD_RD, 0), 13, "single read: first RD at c0+tRCD = 13");
    /* second 64 B half: same bank => same group, tCCDL 3: 13 + 3 = 16 */
    TAP_EQ_U64(cmd_at(h, 7, DRAM_CMD_RD, 1), 16, "single read: second RD at +tCCDL = 16");
    /* data done tCL after the second RD: 16 + 12 = 28 */
    TAP_EQ_U64(ret_at(h, 7), 28, "single read: returned at 16 + tCL = 28");
    uint64_t v = 0;
    stats_get_instance_u64(reg, "dram.activates", 0, &v);
    TAP_EQ_U64(v, 1, "single read: stats activates = 1");
    stats_get_instance_u64(reg, "dram.row_misses", 0, &v);
    TAP_EQ_U64(v, 1, "single read: stats row_misses = 1");
    stats_get_instance_u64(reg, "dram.bus_busy_cycles", 0, &v);
    TAP_EQ_U64(v, 4, "single read: bus busy 2 RD x 2 cycles = 4");
    TAP_EQ_U64(h->d.st.read_latency.sum, 28, "single read: latency 28 - 0 = 28");
    TAP_EQ_U64(h->d.st.rd_cmds, 2, "single read: 2 RD commands for 128 B");
    stats_destroy(reg);
    h_free(h);
}

static void test_row_hit_and_conflict(void)
{
    struct dram_cfg c = defaults();
    struct harness *h = h_new(&c);
    struct dram_req a = mkreq(1, 0, 5, false), b = mkreq(2, 0, 5, false);
    dram_push(&h->d, &a, 0);
    dram_push(&h->d, &b, 0); /* enters the queue one cycle later (one admission per cycle) */
    h_run(h, 0, 1000, false);
    /* first as single read: ACT 1, RD 13, RD 16. Bank free after RD@16; the
     * hit is handed at 17 and its RD waits for tCCDL from 16: 19, then 22. */
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_RD, 0), 19, "row hit: RD at 16 + tCCDL = 19");
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_RD, 1), 22, "row hit: second RD at 22");
    TAP_EQ_U64(ret_at(h, 2), 34, "row hit: returned at 22 + tCL = 34");
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_ACT, 0), CYCLE_NEVER, "row hit: no ACT");
    TAP_EQ_U64(h->d.st.row_hits, 1, "row hit: counted");
    h_free(h);

    h = h_new(&c);
    a = mkreq(1, 0, 5, false);
    b = mkreq(2, 0, 9, false);
    dram_push(&h->d, &a, 0);
    dram_push(&h->d, &b, 0);
    h_run(h, 0, 1000, false);
    /* PRE: max(RD->PRE 16+2, tRTPL 16+2, tRAS 1+28) = 29 */
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_PRE, 0), 29, "row conflict: PRE at ACT + tRAS = 29");
    /* ACT: max(PRE + tRP = 41, ACT + tRC = 1 + 40 = 41) = 41 */
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_ACT, 0), 41, "row conflict: ACT at max(29+tRP, 1+tRC) = 41");
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_RD, 0), 53, "row conflict: RD at 41 + tRCD = 53");
    TAP_EQ_U64(ret_at(h, 2), 68, "row conflict: returned at 53 + 3 + 12 = 68");
    TAP_EQ_U64(h->d.st.row_conflicts, 1, "row conflict: counted");
    TAP_EQ_U64(h->d.st.precharges, 1, "row conflict: one PRE");
    h_free(h);

    /* tRC binding alone: tRAS 20 makes PRE at 1+20 = 21, ACT by tRP 33, but
     * tRC 40 holds it to 41. */
    c.tRAS = 20;
    h = h_new(&c);
    dram_push(&h->d, &a, 0);
    dram_push(&h->d, &b, 0);
    h_run(h, 0, 1000, false);
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_PRE, 0), 21, "tRAS 20: PRE at 1 + 20 = 21");
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_ACT, 0), 41, "tRAS 20: ACT held by tRC to 1 + 40 = 41 (tRP gives 33)");
    h_free(h);
}

static void test_turnarounds(void)
{
    struct dram_cfg c = defaults();
    /* read -> write: R bank 0 (group 0), W bank 4 (group 1). */
    struct harness *h = h_new(&c);
    struct dram_req r = mkreq(1, 0, 5, false), w = mkreq(2, 4, 5, true);
    dram_push(&h->d, &r, 0);
    dram_push(&h->d, &w, 0);
    h_run(h, 0, 1000, false);
    /* R: ACT 1, RD 13, RD 16. W handed at 2, ACT at 1 + tRRD = 7. */
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_ACT, 0), 7, "rd->wr: second ACT at 1 + tRRD 6 = 7");
    /* WR: ACT->WR 7 + 7 = 14, but tRTW from RD@16: 16 + 12 = 28 */
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_WR, 0), 28, "rd->wr: WR at last RD 16 + tRTW 12 = 28");
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_WR, 1), 31, "rd->wr: second WR at 28 + tCCDL 3 = 31");
    TAP_EQ_U64(h->d.st.writes, 1, "rd->wr: write completed");
    TAP_EQ_U64(h->d.st.turnarounds, 1, "rd->wr: one turnaround counted");
    h_free(h);

    /* write -> read: W bank 0, R bank 4. */
    h = h_new(&c);
    w = mkreq(1, 0, 5, true);
    r = mkreq(2, 4, 5, false);
    dram_push(&h->d, &w, 0);
    dram_push(&h->d, &r, 0);
    h_run(h, 0, 1000, false);
    /* W: ACT 1, WR 1 + (tRCD - tWL - 1) = 8, WR 8 + 3 = 11. R: ACT 7. */
    TAP_EQ_U64(cmd_at(h, 1, DRAM_CMD_WR, 0), 8, "wr->rd: WR at ACT + 7 = 8");
    TAP_EQ_U64(cmd_at(h, 1, DRAM_CMD_WR, 1), 11, "wr->rd: second WR at 11");
    /* RD: tRCD 7 + 12 = 19, but tWTR from WR@11: 11 + 11 = 22 */
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_RD, 0), 22, "wr->rd: RD at last WR 11 + tWTR 11 = 22");
    TAP_EQ_U64(ret_at(h, 2), 37, "wr->rd: read returns at 22 + 3 + 12 = 37");
    h_free(h);

    /* write -> PRE in the same bank: W row 5 then R row 6, bank 0.
     * WR@11 + tWTP 18 = 29 = tRAS 1 + 28 = 29: raise tRAS to show tWTP alone. */
    c.tRAS = 10;
    h = h_new(&c);
    w = mkreq(1, 0, 5, true);
    r = mkreq(2, 0, 6, false);
    dram_push(&h->d, &w, 0);
    dram_push(&h->d, &r, 0);
    h_run(h, 0, 1000, false);
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_PRE, 0), 29, "wr->pre: PRE at last WR 11 + tWL+BL/4+tWR 18 = 29");
    h_free(h);
}

static void test_trrd(void)
{
    struct dram_cfg c = defaults();
    struct harness *h = h_new(&c);
    for (uint32_t i = 0; i < 3; i++) {
        struct dram_req r = mkreq(i, i * 4, 1, false); /* banks 0, 4, 8: three groups */
        dram_push(&h->d, &r, 0);
    }
    h_run(h, 0, 1000, false);
    TAP_EQ_U64(cmd_at(h, 0, DRAM_CMD_ACT, 0), 1, "tRRD: ACT bank 0 at 1");
    TAP_EQ_U64(cmd_at(h, 1, DRAM_CMD_ACT, 0), 7, "tRRD: ACT bank 4 at 1 + 6 = 7");
    TAP_EQ_U64(cmd_at(h, 2, DRAM_CMD_ACT, 0), 13, "tRRD: ACT bank 8 at 7 + 6 = 13");
    /* bank 0's RD is legal at 13 too, but one command per cycle and the
     * rotating priority (after bank 4 issued, bank 5.. first) give it 14. */
    TAP_EQ_U64(cmd_at(h, 0, DRAM_CMD_RD, 0), 14, "tRRD: bank 0 RD deferred to 14 (one cmd/cycle)");
    h_free(h);
}

/* dram.bank_group_index = low (GPGPU-Sim 4.x -dram_bnkgrp_indexing_policy
 * 1): banks 0 and 1 are in different groups (tCCDS 2 between their column
 * commands), banks 0 and 4 in the same one (tCCDL 3); high is the reverse. */
static void test_bank_group_index(void)
{
    for (int low = 0; low < 2; low++) {
        struct dram_cfg c = defaults();
        c.bank_group_index = low ? DRAM_BG_LOW : DRAM_BG_HIGH;
        struct harness *h = h_new(&c);
        /* open row 1 in banks 0, 1 and 4, then 64 B reads (one RD each) in pairs */
        uint32_t banks[3] = {0, 1, 4};
        for (uint32_t i = 0; i < 3; i++) {
            struct dram_req r = mkreq(i, banks[i], 1, false);
            dram_push(&h->d, &r, 0);
        }
        cycle_t t0 = h_run(h, 0, 1000, false) + 1;
        size_t from = h->n_tr;
        struct dram_req r0 = mkreq(10, 0, 1, false), r1 = mkreq(11, 1, 1, false);
        r0.bytes = r1.bytes = 64;
        dram_push(&h->d, &r0, t0);
        dram_push(&h->d, &r1, t0);
        cycle_t t1 = h_run(h, t0, t0 + 1000, false) + 1;
        size_t mid = h->n_tr;
        struct dram_req r2 = mkreq(12, 0, 1, false), r4 = mkreq(14, 4, 1, false);
        r2.bytes = r4.bytes = 64;
        dram_push(&h->d, &r2, t1);
        dram_push(&h->d, &r4, t1);
        h_run(h, t1, t1 + 1000, false);
        TAP_EQ_U64(h->n_tr - from, 4, "bank_group_index %s: 4 row-hit RDs, no ACT", low ? "low" : "high");
        cycle_t d01 = h->tr[from + 1].cycle - h->tr[from].cycle, d04 = h->tr[mid + 1].cycle - h->tr[mid].cycle;
        TAP_EQ_U64(d01, low ? 2 : 3, "bank_group_index %s: RD bank 0 -> RD bank 1 after %s", low ? "low" : "high",
                   low ? "tCCDS 2 (groups 0, 1)" : "tCCDL 3 (both group 0)");
        TAP_EQ_U64(d04, low ? 3 : 2, "bank_group_index %s: RD bank 0 -> RD bank 4 after %s", low ? "low" : "high",
                   low ? "tCCDL 3 (both group 0)" : "tCCDS 2 (groups 0, 1)");
        h_free(h);
    }
    /* random traffic under low indexing obeys the rules with low groups */
    struct dram_cfg c = defaults();
    c.bank_group_index = DRAM_BG_LOW;
    struct harness *h = h_new(&c);
    run_random(h, 11, 1200, false);
    struct ref_timing t = ref_gtx480();
    t.low = 4;
    TAP_EQ_U64(ref_check(h->tr, h->n_tr, &t, 1), 0, "bank_group_index low: random trace obeys every rule (low groups)");
    struct ref_timing th = ref_gtx480();
    TAP_OK(ref_check(h->tr, h->n_tr, &th, 0) > 0,
           "bank_group_index low: the same trace violates tCCDL under high groups (the key takes effect)");
    h_free(h);
}

static void order_of_returns(struct harness *h, uint64_t *out, size_t n)
{
    for (size_t i = 0; i < n && i < h->n_ret; i++)
        out[i] = h->ret[i].tag;
}

static void test_frfcfs_vs_fcfs(void)
{
    struct dram_cfg c = defaults();
    for (int pol = 0; pol < 2; pol++) {
        c.sched = pol == 0 ? DRAM_SCHED_FRFCFS : DRAM_SCHED_FCFS;
        struct harness *h = h_new(&c);
        struct dram_req r1 = mkreq(1, 0, 5, false), r2 = mkreq(2, 0, 9, false), r3 = mkreq(3, 0, 5, false);
        dram_push(&h->d, &r1, 0);
        dram_push(&h->d, &r2, 0);
        dram_push(&h->d, &r3, 0);
        h_run(h, 0, 1000, false);
        uint64_t ord[3] = {0, 0, 0};
        order_of_returns(h, ord, 3);
        if (pol == 0) {
            TAP_OK(ord[0] == 1 && ord[1] == 3 && ord[2] == 2,
                   "frfcfs: younger row hit (3) served before older miss (2): order %llu %llu %llu",
                   (unsigned long long)ord[0], (unsigned long long)ord[1], (unsigned long long)ord[2]);
            /* r3 handed at 17 like a row hit: RD 19 */
            TAP_EQ_U64(cmd_at(h, 3, DRAM_CMD_RD, 0), 19, "frfcfs: hit RD at 19");
            TAP_EQ_U64(h->d.st.row_hits, 1, "frfcfs: 1 hit");
        } else {
            TAP_OK(ord[0] == 1 && ord[1] == 2 && ord[2] == 3,
                   "fcfs: strict arrival order: %llu %llu %llu", (unsigned long long)ord[0],
                   (unsigned long long)ord[1], (unsigned long long)ord[2]);
            TAP_EQ_U64(h->d.st.row_conflicts, 2, "fcfs: 5->9->5 gives 2 conflicts");
        }
        h_free(h);
    }
}

static void test_streaming(void)
{
    struct dram_cfg c = defaults();
    struct harness *h = h_new(&c);
    const int n = 256;
    int pushed = 0;
    cycle_t cyc = 0;
    while (pushed < n) {
        /* banks 0,4,8,12,1,5,...: consecutive requests in different groups; one row */
        uint32_t i = (uint32_t)pushed;
        struct dram_req r = mkreq(i, ((i * 4) + (i / 4)) % 16, 3, false);
        if (dram_push(&h->d, &r, cyc))
            pushed++;
        dram_tick(&h->d, cyc);
        h_pop_all(h, cyc);
        cyc++;
    }
    h_run(h, cyc, cyc + 100000, false);
    TAP_EQ_U64(h->n_ret, (uint64_t)n, "streaming: all %d reads returned", n);
    /* Steady state: after the 16 ACTs (tRRD 6 => last ACT near 1 + 15*6 = 91)
     * every row is open and each RD follows the previous after tCCDS = 2
     * cycles = the 2-cycle burst: 64 B / 2 cycles = 32 B per cycle. */
    size_t first_rd_after = 0, last_act = 0;
    for (size_t i = 0; i < h->n_tr; i++)
        if (h->tr[i].cmd == DRAM_CMD_ACT)
            last_act = i;
    first_rd_after = last_act + 1;
    /* The drain tail: once the queue has emptied, the last requests may sit
     * in a single bank, whose two RDs are tCCDL = 3 apart. Gaps there are
     * counted separately and must be exactly 3. */
    cycle_t last_rd = 0;
    for (size_t i = 0; i < h->n_tr; i++)
        if (h->tr[i].cmd == DRAM_CMD_RD)
            last_rd = h->tr[i].cycle;
    int gaps_not_2 = 0, tail_bad = 0, n_rd = 0;
    cycle_t prev = CYCLE_NEVER, first = 0, lastc = 0;
    for (size_t i = first_rd_after; i < h->n_tr; i++) {
        if (h->tr[i].cmd != DRAM_CMD_RD)
            continue;
        cycle_t gap = prev == CYCLE_NEVER ? 2 : h->tr[i].cycle - prev;
        if (h->tr[i].cycle + 16 > last_rd)
            tail_bad += gap != 2 && gap != 3;
        else if (gap != 2)
            gaps_not_2++;
        if (prev == CYCLE_NEVER)
            first = h->tr[i].cycle;
        prev = lastc = h->tr[i].cycle;
        n_rd++;
    }
    tap_diag("streaming: last ACT at %llu, %d RDs after it from %llu to %llu",
             (unsigned long long)h->tr[last_act].cycle, n_rd, (unsigned long long)first,
             (unsigned long long)lastc);
    TAP_EQ_U64(h->d.st.activates, 16, "streaming: 16 ACTs (one row per bank), rest hits");
    TAP_OK(h->tr[last_act].cycle <= 1 + 15 * 6 + 16,
           "streaming: ramp (last ACT) at %llu <= 1 + 15 x tRRD + 16", (unsigned long long)h->tr[last_act].cycle);
    TAP_OK(n_rd > 400 && gaps_not_2 == 0 && tail_bad == 0,
           "streaming: between ramp and drain tail every RD follows the last by 2 cycles = 32 B/cycle "
           "(%d RDs, %d other gaps, %d tail gaps not 2 or tCCDL 3)",
           n_rd, gaps_not_2, tail_bad);
    uint64_t bytes_window = (uint64_t)n_rd * 64, cyc_window = lastc + 2 - first;
    TAP_OK(bytes_window * 100 >= cyc_window * 32 * 98,
           "streaming: window bandwidth %llu B / %llu cycles >= 98%% of 32 B/cycle",
           (unsigned long long)bytes_window, (unsigned long long)cyc_window);
    h_free(h);
}

static void test_backpressure(void)
{
    struct dram_cfg c = defaults();
    struct harness *h = h_new(&c);
    /* Queue full: all requests to bank 0 with different rows (slow service). */
    int pushed = 0, refused_seen = 0;
    cycle_t cyc = 0;
    for (; cyc < 40; cyc++) {
        struct dram_req r = mkreq((uint64_t)pushed, 0, (uint32_t)(pushed % 7), false);
        bool can = dram_can_accept(&h->d, false);
        uint32_t before = dram_pending(&h->d);
        bool ok = dram_push(&h->d, &r, cyc);
        if (ok != can)
            refused_seen = -1000;
        if (ok)
            pushed++;
        else if (dram_pending(&h->d) == before)
            refused_seen++;
        dram_tick(&h->d, cyc);
        h_pop_all(h, cyc);
    }
    /* one admission per cycle, one hand-off at 1: the queue holds 16 after
     * 17 admissions (cycles 0..16); with pushes ready at once, the push of
     * cycle 16 still fits the delay line but the queue check at cycle 17
     * (n_wait == 16) refuses. */
    TAP_EQ_U64(h->d.n_wait, 16, "backpressure: queue full at 16 entries");
    TAP_OK(!dram_can_accept(&h->d, false), "backpressure: can_accept false when queue full");
    TAP_OK(refused_seen > 0, "backpressure: refused pushes change nothing (%d refused)", refused_seen);
    TAP_EQ_U64(h->d.st.refused, (uint64_t)refused_seen, "backpressure: refused counter matches");
    h_run(h, cyc, cyc + 100000, false);
    TAP_EQ_U64(h->n_ret, (uint64_t)pushed, "backpressure: every accepted read returned (%d)", pushed);
    int dup = 0;
    for (size_t i = 0; i < h->n_ret; i++)
        for (size_t j = 0; j < i; j++)
            dup += h->ret[i].tag == h->ret[j].tag;
    TAP_EQ_U64(dup, 0, "backpressure: no read returned twice");
    h_free(h);

    /* Delay line: without ticks, accept exactly delay_cap = 16 + 116 + 2 = 134. */
    h = h_new(&c);
    int acc = 0;
    for (int i = 0; i < 200; i++) {
        struct dram_req r = mkreq((uint64_t)i, (uint32_t)(i % 16), 0, false);
        acc += dram_push(&h->d, &r, 0);
    }
    TAP_EQ_U64(acc, 134, "delay line: 16 + 116 + 2 = 134 accepted, rest refused");
    /* Return queue: do not pop; reads stop at 116 in the return queue. */
    h->pop = false;
    h_run(h, 0, 5000, false);
    TAP_EQ_U64(h->d.retq_count, 116, "return queue: holds 116 without pops");
    TAP_EQ_U64(dram_pending(&h->d), 134, "return queue: nothing lost while blocked (134 pending)");
    h->pop = true;
    h_run(h, 5001, 100000, false);
    TAP_EQ_U64(h->n_ret, 134, "return queue: all 134 returned after popping");
    TAP_EQ_U64(dram_pending(&h->d), 0, "return queue: drained");
    h_free(h);
}

static uint64_t trace_hash(const struct harness *h)
{
    uint64_t x = 1469598103934665603ull;
    for (size_t i = 0; i < h->n_tr; i++) {
        uint64_t v[4] = {h->tr[i].cycle, h->tr[i].cmd, h->tr[i].bank, h->tr[i].tag};
        for (int k = 0; k < 4; k++)
            x = (x ^ v[k]) * 1099511628211ull;
    }
    for (size_t i = 0; i < h->n_ret; i++)
        x = ((x ^ h->ret[i].tag) * 1099511628211ull ^ h->ret[i].cycle) * 1099511628211ull;
    return x;
}

static void test_determinism_and_reference(void)
{
    struct dram_cfg c = defaults();
    struct harness *a = h_new(&c), *b = h_new(&c), *e = h_new(&c);
    run_random(a, 42, 1500, false);
    run_random(b, 42, 1500, false);
    run_random(e, 42, 1500, true);
    TAP_EQ_U64(a->n_ret, b->n_ret, "determinism: same number of returns");
    TAP_EQ_U64(trace_hash(a), trace_hash(b), "determinism: two runs give identical traces");
    TAP_EQ_U64(trace_hash(a), trace_hash(e), "determinism: skip-to-next equals tick-every-cycle");
    TAP_OK(memcmp(&a->d.st.reads, &e->d.st.reads, offsetof(struct dram_stats, read_latency)) == 0,
           "determinism: counters equal between skipping and every-cycle runs");
    TAP_OK(a->d.st.queue_occ.sum == e->d.st.queue_occ.sum && a->d.st.blp.sum == e->d.st.blp.sum &&
               a->d.st.blp.count == e->d.st.blp.count && a->d.st.read_latency.sum == e->d.st.read_latency.sum,
           "determinism: time-weighted averages (occupancy %llu/%llu, BLP %llu/%llu) equal when skipping",
           (unsigned long long)a->d.st.queue_occ.sum, (unsigned long long)a->d.st.queue_occ.count,
           (unsigned long long)a->d.st.blp.sum, (unsigned long long)a->d.st.blp.count);
    TAP_EQ_U64(a->d.st.reads + a->d.st.writes, 1500, "random: all 1500 requests completed");
    TAP_OK(a->d.st.row_hits && a->d.st.row_misses && a->d.st.row_conflicts,
           "random: hits %llu, misses %llu, conflicts %llu all occur",
           (unsigned long long)a->d.st.row_hits, (unsigned long long)a->d.st.row_misses,
           (unsigned long long)a->d.st.row_conflicts);

    struct ref_timing t = ref_gtx480();
    TAP_EQ_U64(ref_check(a->tr, a->n_tr, &t, 1), 0,
               "reference: %zu commands obey every pairwise rule of §3.3", a->n_tr);
    /* Injected fault 1: a wrong expectation (tRRD 7 instead of 6) must be
     * reported against the real trace. */
    struct ref_timing wrong = t;
    wrong.tRRD = 7;
    TAP_OK(ref_check(a->tr, a->n_tr, &wrong, 0) > 0, "reference_fault: checker flags tRRD=7 against the real trace");
    /* Injected fault 2: move one RD one cycle earlier in a copy of the trace. */
    struct dram_cmd_rec *cp = xmalloc(a->n_tr * sizeof *cp);
    memcpy(cp, a->tr, a->n_tr * sizeof *cp);
    size_t k = 0;
    for (size_t i = a->n_tr / 2; i < a->n_tr; i++)
        if (cp[i].cmd == DRAM_CMD_RD) {
            k = i;
            break;
        }
    cp[k].cycle -= 1;
    TAP_OK(ref_check(cp, a->n_tr, &t, 0) > 0, "reference_fault: a RD moved 1 cycle early is caught");
    /* Injected fault 3: an implementation with a wrong timing value (tCCDL 2)
     * produces a trace the checker rejects. */
    struct dram_cfg bad = c;
    bad.tCCDL = 2;
    struct harness *f = h_new(&bad);
    run_random(f, 42, 1500, false);
    TAP_OK(ref_check(f->tr, f->n_tr, &t, 0) > 0, "reference_fault: a controller built with tCCDL 2 is caught");
    free(cp);
    h_free(f);

    /* Writes mixed in, fcfs, and separate_rw traces obey the rules too. */
    struct dram_cfg c2 = c;
    c2.sched = DRAM_SCHED_FCFS;
    struct harness *g = h_new(&c2);
    run_random(g, 7, 800, false);
    TAP_EQ_U64(ref_check(g->tr, g->n_tr, &t, 1), 0, "reference: fcfs trace obeys every rule");
    TAP_EQ_U64(g->d.st.reads + g->d.st.writes, 800, "fcfs: all 800 completed");
    h_free(g);
    c2 = c;
    c2.separate_rw = true;
    c2.rdq = 16;
    c2.wrq = 16;
    c2.wm_hi = 12;
    c2.wm_lo = 4;
    g = h_new(&c2);
    run_random(g, 9, 800, false);
    TAP_EQ_U64(ref_check(g->tr, g->n_tr, &t, 1), 0, "reference: separate_rw trace obeys every rule");
    TAP_EQ_U64(g->d.st.reads + g->d.st.writes, 800, "separate_rw: all 800 completed");
    h_free(g);

    h_free(a);
    h_free(b);
    h_free(e);
}

static void test_separate_rw(void)
{
    struct dram_cfg c = defaults();
    c.separate_rw = true;
    c.rdq = 8;
    c.wrq = 8;
    c.wm_hi = 6;
    c.wm_lo = 3;
    for (int sep = 0; sep < 2; sep++) {
        c.separate_rw = sep;
        struct harness *h = h_new(&c);
        /* W0..W3 (tags 0-3) enter at 0..3, R0..R3 (tags 10-13) at 4..7; one
         * bank, one row, so only the policy orders them. */
        for (int i = 0; i < 4; i++) {
            struct dram_req w = mkreq((uint64_t)i, 0, 1, true);
            dram_push(&h->d, &w, 0);
        }
        for (int i = 0; i < 4; i++) {
            struct dram_req r = mkreq((uint64_t)(10 + i), 0, 1, false);
            dram_push(&h->d, &r, 0);
        }
        h_run(h, 0, 10000, false);
        uint64_t ord[8] = {0};
        int k = 0;
        for (size_t i = 0; i < h->n_tr && k < 8; i++) {
            const struct dram_cmd_rec *x = &h->tr[i];
            if ((x->cmd == DRAM_CMD_RD || x->cmd == DRAM_CMD_WR) && (k == 0 || ord[k - 1] != x->tag))
                ord[k++] = x->tag;
        }
        if (!sep) {
            static const uint64_t want[8] = {0, 1, 2, 3, 10, 11, 12, 13};
            TAP_OK(k == 8 && memcmp(ord, want, sizeof want) == 0,
                   "unified queue: oldest row hit first: W0..W3 then R0..R3");
        } else {
            /* cycle 1: read queue empty, writes wait -> write mode, W0 handed.
             * Bank free after W0's WR@11; at 12 writes = 3 <= wm_lo 3 with
             * reads waiting -> read mode: R0..R3, then drain W1..W3. */
            static const uint64_t want[8] = {0, 10, 11, 12, 13, 1, 2, 3};
            TAP_OK(k == 8 && memcmp(ord, want, sizeof want) == 0,
                   "separate_rw: W0 (drain, no reads), R0..R3 (reads preferred), W1..W3 (%llu %llu %llu %llu %llu %llu %llu %llu)",
                   (unsigned long long)ord[0], (unsigned long long)ord[1], (unsigned long long)ord[2],
                   (unsigned long long)ord[3], (unsigned long long)ord[4], (unsigned long long)ord[5],
                   (unsigned long long)ord[6], (unsigned long long)ord[7]);
            TAP_EQ_U64(h->d.st.write_drains, 2, "separate_rw: two entries into write drain");
        }
        h_free(h);
    }
    /* Per-type admission: with rdq 8, 8 reads fill the read queue while
     * writes are still accepted. */
    c.separate_rw = true;
    struct harness *h = h_new(&c);
    h->d.n_wait_rd = 8; /* white-box: pretend the read queue is full */
    TAP_OK(!dram_can_accept(&h->d, false) && dram_can_accept(&h->d, true),
           "separate_rw: full read queue refuses reads, accepts writes");
    h->d.n_wait_rd = 0;
    h_free(h);
}

static void test_perfect(void)
{
    struct dram_cfg c = defaults();
    c.model = DRAM_MODEL_PERFECT;
    struct harness *h = h_new(&c);
    struct dram_req r = mkreq(5, 3, 3, false), w = mkreq(6, 3, 4, true);
    dram_push(&h->d, &r, 5);
    dram_push(&h->d, &w, 5);
    h_run(h, 0, 1000, false);
    TAP_EQ_U64(ret_at(h, 5), 5, "perfect: read returns the cycle it leaves the delay line (5)");
    TAP_EQ_U64(h->d.st.writes, 1, "perfect: write completed");
    TAP_EQ_U64(h->n_tr, 0, "perfect: no DRAM commands");
    h_free(h);
}

/* ------------------------------------------------- other bank/row geometries */

/* dram.c sizes every per-bank and per-group structure from the config: DDR3
 * (8 banks), 32 banks, 1 or 8 groups and up to 2^20 rows run random traffic
 * that obeys every pairwise rule with the right bank-group size. */
static void test_geometries(void)
{
    static const struct {
        uint32_t banks, groups, rows;
    } geo[] = {{8, 2, 32768}, {8, 1, 2048}, {32, 8, 65536}, {16, 4, 1048576}, {64, 16, 8192}};
    for (size_t i = 0; i < ARRAY_LEN(geo); i++) {
        struct dram_cfg c = defaults();
        c.banks = geo[i].banks;
        c.bank_groups = geo[i].groups;
        c.rows = geo[i].rows;
        TAP_EQ_U64(dram_cfg_validate(&c, NULL, NULL), 0, "geometry %u banks / %u groups / %u rows is valid",
                   geo[i].banks, geo[i].groups, geo[i].rows);
        struct harness *h = h_new(&c);
        run_random(h, 11 + i, 600, false);
        TAP_EQ_U64(h->d.st.reads + h->d.st.writes, 600, "geometry %u/%u/%u: all 600 requests completed",
                   geo[i].banks, geo[i].groups, geo[i].rows);
        struct ref_timing t = ref_gtx480();
        t.bpg = geo[i].banks / geo[i].groups;
        TAP_EQ_U64(ref_check(h->tr, h->n_tr, &t, 1), 0, "geometry %u/%u/%u: %zu commands obey every rule",
                   geo[i].banks, geo[i].groups, geo[i].rows, h->n_tr);
        uint32_t top_bank_cmds = 0, top_row_cmds = 0;
        for (size_t k = 0; k < h->n_tr; k++) {
            top_bank_cmds += h->tr[k].bank == geo[i].banks - 1;
            top_row_cmds += h->tr[k].row == geo[i].rows - 1;
        }
        TAP_OK(top_bank_cmds > 0 && top_row_cmds > 0, "geometry %u/%u/%u: the last bank (%u cmds) and top row "
               "(%u cmds) are used", geo[i].banks, geo[i].groups, geo[i].rows, top_bank_cmds, top_row_cmds);
        h_free(h);
    }
    struct dram_cfg bad = defaults();
    bad.banks = 8;
    bad.bank_groups = 3;
    TAP_OK(dram_cfg_validate(&bad, NULL, NULL) > 0, "geometry: 3 groups do not divide 8 banks (refused)");
}

/* ------------------------------------------------------------ configuration */

static void test_config(void)
{
    struct dram_cfg parsed, def;
    dram_cfg_defaults(&def);
    memset(&parsed, 0, sizeof parsed);
    int bad = 0;
    char why[200];
    for (size_t i = 0; i < dram_cfg_n_keys; i++) {
        const struct cfg_key *k = &dram_cfg_keys[i];
        if (!cfg_parse_value(k, k->def, (char *)&parsed + k->offset, why, sizeof why)) {
            tap_diag("key dram.%s default '%s': %s", k->name, k->def, why);
            bad++;
        }
    }
    TAP_EQ_U64(bad, 0, "config: every default parses with the cfg machinery");
    /* dram.addr_map: the table holds the GTX480 string, dram_cfg_defaults NULL (= the same map) */
    TAP_OK(parsed.addr_map && strcmp(parsed.addr_map, ADDRMAP_GTX480) == 0 && def.addr_map == NULL,
           "config: dram.addr_map defaults to the GTX480 string (NULL in dram_cfg_defaults)");
    free(parsed.addr_map);
    parsed.addr_map = NULL;
    TAP_OK(memcmp(&parsed, &def, sizeof def) == 0, "config: key-table defaults equal dram_cfg_defaults");
    TAP_EQ_U64(dram_cfg_validate(&def, NULL, NULL), 0, "config: gtx480 defaults pass the cross-field rules");
    const struct cfg_key *sched = NULL;
    for (size_t i = 0; i < dram_cfg_n_keys; i++)
        if (strcmp(dram_cfg_keys[i].name, "sched") == 0)
            sched = &dram_cfg_keys[i];
    int v = -1;
    TAP_OK(sched && cfg_parse_value(sched, "fcfs", &v, why, sizeof why) && v == DRAM_SCHED_FCFS,
           "config: dram.sched = fcfs parses");
    TAP_OK(sched && !cfg_parse_value(sched, "fr-fcfs", &v, why, sizeof why), "config: misspelt policy refused");
    struct dram_cfg x = def;
    x.bank_groups = 3;
    x.tRCD = 4;
    x.separate_rw = true;
    x.wm_lo = 100;
    TAP_EQ_U64(dram_cfg_validate(&x, NULL, NULL), 3,
               "config: all 3 violations reported (groups 3 !| 16, tRCD 4 < tWL+1, wm_lo >= wm_hi)");
}

/* ------------------------------------------------------------- address map */

/* Naive reference: build R bit by bit from the layout string
 * "RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS" (bit 27 first). */
static void ref_map(uint64_t a, uint32_t n_ch, const char *layout, struct addrmap_loc *o)
{
    uint64_t chunk = a / 256, r = (chunk / n_ch) * 256 + a % 256;
    o->channel = (uint32_t)(chunk % n_ch);
    o->local = r;
    uint32_t bank = 0, row = 0, col = 0;
    int nb = 0, nr = 0, nc = 0;
    size_t len = strlen(layout);
    /* walk from bit 0 (the last character) upward */
    int bit = 0;
    for (size_t i = len; i-- > 0;) {
        char ch = layout[i];
        if (ch == '.')
            continue;
        uint32_t v = (uint32_t)((r >> bit) & 1);
        if (ch == 'B')
            bank |= v << nb++;
        else if (ch == 'R')
            row |= v << nr++;
        else
            col |= v << nc++; /* 'C' and 'S': column bits, lowest first */
        bit++;
    }
    o->bank = bank;
    o->row = row;
    o->col = col;
    o->sub = o->channel * 2 + (bank & 1);
    /* L2 set: drop bit 8 of R (the sub-partition bit), take bits 7.. of the rest */
    uint64_t r2 = r % 256 + (r / 512) * 256;
    o->l2_set = (uint32_t)((r2 / 128) % 64);
}

#define GTX480_LAYOUT "RRRRRRRRRRRR.BBBCCCCB.CCSSSSSS"

static int cmp_loc(const struct addrmap_loc *x, const struct addrmap_loc *y)
{
    return x->channel != y->channel || x->local != y->local || x->bank != y->bank || x->row != y->row ||
           x->col != y->col || x->sub != y->sub || x->l2_set != y->l2_set;
}

static void test_addrmap(void)
{
    struct addrmap m6, m8;
    addrmap_init(&m6, 6, 2, 16, 4096, 64);
    addrmap_init(&m8, 8, 2, 16, 4096, 64);
    struct addrmap_loc l;
    TAP_EQ_U64(addrmap_capacity(&m6), 6ull << 28, "addrmap: 6 channels cover 1.5 GB");

    /* 0x100, 6 ch: chunk 1 -> channel 1, R 0, sub 2 */
    addrmap_decode(&m6, 0x100, &l);
    TAP_OK(l.channel == 1 && l.local == 0 && l.sub == 2, "addrmap 6ch 0x100: channel 1, R 0, sub 2");
    /* 0x680, 6 ch: chunk 6 -> ch 0, q 1: R = 0x100 | 0x80 = 0x180: bank bit0 = R[8] = 1,
     * col = 0x80, sub = 0*2 + 1 = 1, set = (0x80 | 0) >> 7 = 1 */
    addrmap_decode(&m6, 0x680, &l);
    TAP_OK(l.channel == 0 && l.local == 0x180 && l.bank == 1 && l.col == 0x80 && l.sub == 1 && l.l2_set == 1,
           "addrmap 6ch 0x680: ch 0, R 0x180, bank 1, col 0x80, sub 1, set 1");
    /* 0x12345678, 6 ch: chunk 0x123456 = 1193046 = 6 x 198841 -> ch 0, q 198841 = 0x308B9,
     * R = 0x308B978; row = R>>16 = 0x308 = 776; R[8] = 1 (0x978 & 0x100),
     * R[15:13] = 0xB978 >> 13 = 5 -> bank 1 | 5<<1 = 11; col = 0x78 | ((0xB978>>9)&0xF = 0xC)<<8
     * = 0xC78; sub 1; R' = 0x78 | (0x1845C << 8) = 0x1845C78, >>7 = 0x308B8, & 63 = 56 */
    addrmap_decode(&m6, 0x12345678, &l);
    TAP_OK(l.channel == 0 && l.local == 0x308B978 && l.row == 776 && l.bank == 11 && l.col == 0xC78 &&
               l.sub == 1 && l.l2_set == 56,
           "addrmap 6ch 0x12345678: ch 0, R 0x308B978, row 776, bank 11, col 0xC78, sub 1, set 56");
    /* 0x12345678, 8 ch: chunk 0x123456 & 7 = 6 -> ch 6, q = 0x2468A, R = 0x2468A78; row 0x246 = 582;
     * R[8] = 0; R[15:13] = 0x8A78 >> 13 = 4 -> bank 8; col = 0x78 | ((0x8A78>>9)&0xF = 5)<<8 = 0x578;
     * sub = 12; R' = 0x78 | (0x12345 << 8) = 0x1234578, >>7 = 0x2468A, & 63 = 10 */
    addrmap_decode(&m8, 0x12345678, &l);
    TAP_OK(l.channel == 6 && l.local == 0x2468A78 && l.row == 582 && l.bank == 8 && l.col == 0x578 &&
               l.sub == 12 && l.l2_set == 10,
           "addrmap 8ch 0x12345678: ch 6, R 0x2468A78, row 582, bank 8, col 0x578, sub 12, set 10");
    /* 0x3A7C0, 8 ch: chunk 0x3A7 = 935 -> ch 7, q 116 = 0x74, R = 0x74C0; R[8] = 0,
     * R[15:13] = 3 -> bank 6; col = 0xC0 | (0x3A & 0xF = 0xA)<<8 = 0xAC0; sub 14;
     * R' = 0xC0 | 0x3A00 = 0x3AC0, >>7 = 0x75, & 63 = 53 */
    addrmap_decode(&m8, 0x3A7C0, &l);
    TAP_OK(l.channel == 7 && l.local == 0x74C0 && l.bank == 6 && l.col == 0xAC0 && l.sub == 14 &&
               l.l2_set == 53 && l.row == 0,
           "addrmap 8ch 0x3A7C0: ch 7, R 0x74C0, bank 6, col 0xAC0, sub 14, set 53");
    /* top of memory: 6 x 256 MB - 1 = 0x5FFFFFFF -> ch 5, R 0xFFFFFFF, all fields max */
    addrmap_decode(&m6, 0x5FFFFFFF, &l);
    TAP_OK(l.channel == 5 && l.local == 0xFFFFFFF && l.bank == 15 && l.row == 4095 && l.col == 0xFFF &&
               l.sub == 11 && l.l2_set == 63,
           "addrmap 6ch top 0x5FFFFFFF: ch 5, R 0xFFFFFFF, bank 15, row 4095, col 0xFFF, sub 11, set 63");
    TAP_OK(!addrmap_decode(&m6, 0x60000000, &l), "addrmap: address at 6 x 256 MB refused");
    /* Both 128 B lines of a 256 B chunk share a sub-partition. */
    struct addrmap_loc l2;
    addrmap_decode(&m6, 0x4200, &l);
    addrmap_decode(&m6, 0x4280, &l2);
    TAP_OK(l.sub == l2.sub && l.channel == l2.channel, "addrmap: both lines of a 256 B chunk in one sub-partition");

    /* Random round trips against the naive reference. */
    const uint32_t chans[] = {1, 2, 5, 6, 8, 12};
    uint64_t s = 12345;
    int mism = 0, rt = 0, n = 0;
    for (size_t ci = 0; ci < ARRAY_LEN(chans); ci++) {
        struct addrmap m;
        addrmap_init(&m, chans[ci], 2, 16, 4096, 64);
        for (int i = 0; i < 20000; i++) {
            uint64_t a = ((lcg(&s) << 31) ^ lcg(&s)) % addrmap_capacity(&m);
            struct addrmap_loc x, y;
            addrmap_decode(&m, a, &x);
            ref_map(a, chans[ci], GTX480_LAYOUT, &y);
            mism += cmp_loc(&x, &y);
            rt += addrmap_encode(&m, x.channel, x.local) != a;
            n++;
        }
    }
    TAP_EQ_U64(mism, 0, "addrmap: %d random addresses (1,2,5,6,8,12 channels) match the naive reference", n);
    TAP_EQ_U64(rt, 0, "addrmap: encode(decode(A)) == A for all of them");
    /* Injected fault: a reference with two bank/column bits swapped must disagree. */
    int fault = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t a = ((lcg(&s) << 31) ^ lcg(&s)) % addrmap_capacity(&m6);
        struct addrmap_loc x, y;
        addrmap_decode(&m6, a, &x);
        ref_map(a, 6, "RRRRRRRRRRRR.BBCBCCCB.CCSSSSSS", &y);
        fault += cmp_loc(&x, &y);
    }
    TAP_OK(fault > 0, "addrmap_fault: a wrong layout string is detected (%d mismatches)", fault);
}

/* NOTE(bank-masks): the rotating walk over a bank mask visits exactly the
 * set bits in the order (r + i) mod banks, for masks of every density and
 * every start r, up to 256 banks. */
static void test_bank_mask_walk(void)
{
    uint64_t x = 0x2545F4914F6CDD1Dull;
    uint32_t bad = 0, walks = 0;
    const uint32_t nbs[] = {1, 2, 16, 63, 64, 65, 128, 200, 256};
    for (uint32_t t = 0; t < sizeof nbs / sizeof nbs[0]; t++) {
        uint32_t nb = nbs[t];
        for (uint32_t rep = 0; rep < 60; rep++) {
            uint64_t m[DRAM_BANK_WORDS] = {0};
            for (uint32_t b = 0; b < nb; b++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                uint32_t keep = rep % 6 == 0 ? 0 : rep % 6 == 1 ? 1 : (uint32_t)(x % (rep % 6));
                if (keep == 1 || (rep % 6 == 1))
                    dram_mask_put(m, b, true);
            }
            for (uint32_t r = 0; r < nb; r++) {
                uint32_t want[256], n = 0, got = 0;
                for (uint32_t i = 0; i < nb; i++) {
                    uint32_t b = (r + i) % nb;
                    if (m[b >> 6] >> (b & 63) & 1)
                        want[n++] = b;
                }
                /* the words in use (NOTE(mask-words)), and all of them */
                const uint32_t nws[2] = {(nb + 63) / 64, DRAM_BANK_WORDS};
                for (uint32_t k = 0; k < 2; k++) {
                    uint32_t nw = nws[k];
                    got = 0;
                    for (uint32_t b = dram_mask_rot(m, nw, r, UINT32_MAX); b != UINT32_MAX;
                         b = dram_mask_rot(m, nw, r, b)) {
                        if (got >= n || want[got] != b) {
                            bad++;
                            break;
                        }
                        got++;
                    }
                    bad += got != n;
                    walks++;
                }
            }
        }
    }
    TAP_OK(walks > 10000, "%u rotating walks", walks);
    TAP_EQ_U64(bad, 0, "the mask walk is the rotating bank order with idle banks skipped");
}

int main(void)
{
    tap_no_plan();
    test_single_read();
    test_row_hit_and_conflict();
    test_turnarounds();
    test_trrd();
    test_bank_group_index();
    test_frfcfs_vs_fcfs();
    test_streaming();
    test_backpressure();
    test_determinism_and_reference();
    test_separate_rw();
    test_perfect();
    test_config();
    test_geometries();
    test_addrmap();
    test_bank_mask_walk();
    return tap_exit();
}
