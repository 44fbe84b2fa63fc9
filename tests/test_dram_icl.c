/* tests/test_dram_icl.c: seed 003's inter-core-locality-aware DRAM schedulers
 * (partitions/dram/dram_mshr*.c, dram-intercore-locality.md): the thesis's
 * worked example (§3.1) with the real controller deciding the order, the
 * request and row scores of MSHR-M and MSHR-S on crafted queues, the
 * degenerate cases (all counts 1), and update messages changing a pick.
 * The exact-hardware path (dram.icl_exact_hw): the L2-side MIB's
 * multiplexer, dummy messages timed on the L2->DRAM link, late dummies, the
 * lazy 15-bit ages (delta and total modes, saturation) and a pick that
 * staleness changes; end to end through a memory partition.
 * Whole-GPU determinism of the policies is in tests/cli/dram_icl.sh.
 */
#include <stdlib.h>
#include <string.h>

#include "partitions/dram/dram.h"
#include "partitions/dram/dram_icl_cost.h"
#include "partitions/dram/dram_sched.h"
#include "partitions/l2/l2_mib.h"
#include "partitions/mempart/mempart.h"
#include "sim/base/common.h"
#include "sim/func/atomic_ops.h"
#include "sim/gpu/gpu_cfg.h"
#include "tap.h"

struct rig {
    struct dram d;
    uint64_t order[32]; /* tags in return order (the blocker excluded) */
    uint32_t n;
    cycle_t now;        /* next DRAM cycle to tick */
};

#define BLOCKER 999 /* tag of the read that holds the bank while the others queue */

/* Requests enter the scheduler queue one per cycle, so a test first pushes
 * a blocker to the bank (row 1000): the others queue while it is served and
 * the policy then chooses among all of them. */
static void rig_init(struct rig *g, const struct dram_sched_ops *ops)
{
    memset(g, 0, sizeof *g);
    struct dram_cfg c;
    dram_cfg_defaults(&c);
    dram_init(&g->d, &c, 0);
    dram_set_sched(&g->d, ops);
    struct dram_req r = {.tag = BLOCKER, .addr = BLOCKER * 128, .bank = 0, .row = 1000, .bytes = 128, .merges = 1};
    SIM_ASSERT(dram_push(&g->d, &r, 0), "push");
}

static void push_t(struct rig *g, uint64_t tag, uint32_t bank, uint32_t row, uint16_t merges, uint64_t t_create,
                   uint64_t t_create_sum)
{
    struct dram_req r = {.tag = tag, .addr = tag * 128, .bank = bank, .row = row, .bytes = 128, .merges = merges,
                         .t_create = t_create, .t_create_sum = t_create_sum};
    SIM_ASSERT(dram_push(&g->d, &r, g->now), "push");
}

static void push(struct rig *g, uint64_t tag, uint32_t bank, uint32_t row, uint16_t merges)
{
    push_t(g, tag, bank, row, merges, 0, 0);
}

static void run(struct rig *g, uint32_t n)
{
    for (cycle_t end = g->now + 100000; g->now < end && g->n < n; g->now++) {
        dram_tick(&g->d, g->now);
        struct dram_req out;
        while (dram_pop_read(&g->d, &out, g->now))
            if (out.tag != BLOCKER)
                g->order[g->n++] = out.tag;
    }
}

/* The thesis's abstract machine: one request served per cycle in `order`,
 * a warp retires one instruction per cycle from the cycle after its data
 * until cycle `window`; returns instructions retired. waiters[r] = warps
 * waiting on request r. */
static uint32_t retired(const uint64_t *order, uint32_t n, const uint32_t *waiters, uint32_t window)
{
    uint32_t sum = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t served = k + 1; /* cycle */
        sum += waiters[order[k]] * (window - served);
    }
    return sum;
}

static void test_worked_example(void)
{
    /* R1 (W1), R3 (W3) and R0 (W0 and W2 merged: count 2) wait for one bank,
     * in that arrival order, each in its own row. Tags are the request
     * numbers. */
    static const uint32_t waiters[4] = {2, 1, 0, 1};
    const uint64_t arrival[3] = {1, 3, 0};
    const uint16_t merges[4] = {2, 1, 0, 1};
    struct rig g;
    rig_init(&g, &dram_sched_frfcfs);
    for (int i = 0; i < 3; i++)
        push(&g, arrival[i], 0, 10 + (uint32_t)arrival[i], merges[arrival[i]]);
    run(&g, 3);
    TAP_OK(g.n == 3 && g.order[0] == 1 && g.order[1] == 3 && g.order[2] == 0, "FR-FCFS serves R1, R3, R0");
    uint32_t ipc_fr = retired(g.order, 3, waiters, 4);
    TAP_EQ_U64(ipc_fr, 7, "FR-FCFS: 7 instructions in 4 cycles (delta IPC 1.75, thesis 3.1)");
    dram_fini(&g.d);

    const struct dram_sched_ops *pols[3] = {&dram_sched_mshr_m, &dram_sched_mshr_s, &dram_sched_mshr_sa};
    for (int p = 0; p < 3; p++) {
        rig_init(&g, pols[p]);
        for (int i = 0; i < 3; i++)
            push(&g, arrival[i], 0, 10 + (uint32_t)arrival[i], merges[arrival[i]]);
        run(&g, 3);
        TAP_OK(g.n == 3 && g.order[0] == 0 && g.order[1] == 1 && g.order[2] == 3, "%s serves R0 first, then R1, R3",
               pols[p]->name);
        TAP_EQ_U64(retired(g.order, 3, waiters, 4), 9, "%s: 9 instructions in 4 cycles (delta IPC 2.25, thesis 3.1)",
                   pols[p]->name);
        dram_fini(&g.d);
    }
}

static void test_row_scores(void)
{
    /* One bank: row 5 holds three reads of count 1 (sum 3, max 1), row 7
     * one read of count 2 (sum 2, max 2). Row 5's first read is oldest. */
    struct rig g;
    rig_init(&g, &dram_sched_mshr_m);
    push(&g, 1, 0, 5, 1);
    push(&g, 2, 0, 5, 1);
    push(&g, 3, 0, 7, 2);
    push(&g, 4, 0, 5, 1);
    run(&g, 4);
    TAP_OK(g.n == 4 && g.order[0] == 3, "MSHR-M opens the row with the largest single count (row 7) first");
    TAP_OK(g.order[1] == 1 && g.order[2] == 2 && g.order[3] == 4, "then row 5 in arrival order");
    TAP_OK(g.d.st.reorders >= 1 && g.d.st.row_switch_score >= 1,
           "counted: a reorder against FR-FCFS and a row opened by score (%llu, %llu)",
           (unsigned long long)g.d.st.reorders, (unsigned long long)g.d.st.row_switch_score);
    dram_fini(&g.d);

    rig_init(&g, &dram_sched_mshr_s);
    push(&g, 1, 0, 5, 1);
    push(&g, 2, 0, 5, 1);
    push(&g, 3, 0, 7, 2);
    push(&g, 4, 0, 5, 1);
    run(&g, 4);
    TAP_OK(g.n == 4 && g.order[0] == 1 && g.order[1] == 2 && g.order[2] == 4 && g.order[3] == 3,
           "MSHR-S opens the row with the largest sum (row 5: 3 > 2) and serves it out first");
    dram_fini(&g.d);

    /* Rule 1: a hit to the bank's current row beats a larger count elsewhere.
     * Row 5 (10 + 1) outscores row 9 (6), so read 1 is handed and row 5
     * becomes the bank's row; then the hit (read 3, count 1) goes before
     * read 2 (count 6). */
    rig_init(&g, &dram_sched_mshr_s);
    push(&g, 1, 0, 5, 10);
    push(&g, 2, 0, 9, 6);
    push(&g, 3, 0, 5, 1);
    run(&g, 3);
    TAP_OK(g.n == 3 && g.order[0] == 1 && g.order[1] == 3 && g.order[2] == 2,
           "row hit (count 1) before a row miss (count 6)");
    dram_fini(&g.d);
    /* Within the chosen row the largest count goes first. */
    rig_init(&g, &dram_sched_mshr_m);
    push(&g, 4, 0, 9, 1);
    push(&g, 5, 0, 9, 3);
    run(&g, 2);
    TAP_OK(g.n == 2 && g.order[0] == 5 && g.order[1] == 4, "within a row: count 3 before the older count 1");
    dram_fini(&g.d);
}

/* With every count 1, MSHR-M hands exactly what FR-FCFS hands. */
static void test_degenerate(void)
{
    struct rig a, b;
    rig_init(&a, &dram_sched_frfcfs);
    rig_init(&b, &dram_sched_mshr_m);
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (uint64_t t = 0; t < 16; t++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t bank = (uint32_t)(x % 4), row = (uint32_t)((x >> 8) % 3);
        push(&a, t, bank, row, 1);
        push(&b, t, bank, row, 1);
    }
    run(&a, 16);
    run(&b, 16);
    TAP_OK(a.n == 16 && b.n == 16 && memcmp(a.order, b.order, sizeof a.order) == 0,
           "all counts 1: MSHR-M returns the 16 reads in FR-FCFS's order");
    TAP_EQ_U64(b.d.st.row_hits, a.d.st.row_hits, "and with the same row hits");
    TAP_EQ_U64(b.d.st.reorders, 0, "and no hand-off counted as a reorder");
    dram_fini(&a.d);
    dram_fini(&b.d);
}

/* An update message (a later L2 merge) raises a waiting read's count and
 * changes the pick. */
static void test_update_oracle(void)
{
    struct rig g;
    rig_init(&g, &dram_sched_mshr_m);
    TAP_OK(dram_sched_wants_update(&g.d), "mshr_m takes update messages (the L2 merge hook is wired)");
    push(&g, 1, 0, 5, 1);
    push(&g, 2, 0, 6, 1);
    TAP_OK(dram_update(&g.d, 2 * 128, 3, 0, 0), "update for read 2 found in the controller");
    run(&g, 2);
    TAP_OK(g.n == 2 && g.order[0] == 2 && g.order[1] == 1, "after the update read 2 (count 3) goes first");
    TAP_OK(!dram_update(&g.d, 2 * 128, 4, 0, 0), "update for a read already served is dropped");
    dram_fini(&g.d);
}

/* Thesis section 4.5 from the configuration: 64 L2 MSHR entries, 64-entry
 * read queue, 16 banks, 4096 rows. */
static void test_cost(void)
{
    struct dram_cfg c;
    dram_cfg_defaults(&c);
    c.separate_rw = true;
    c.rdq = 64;
    c.banks = 16;
    c.rows = 4096;
    struct dram_icl_cost k;
    dram_icl_cost(64, &c, &k);
    TAP_EQ_U64(k.l2_mib_bytes, 160, "L2-side MIB per slice: 160 B (thesis)");
    TAP_EQ_U64(k.dram_mib_bytes, 344, "DRAM-side MIB: 344 B (thesis)");
    TAP_EQ_U64(k.row_table_bytes, 280, "row-score table: 280 B (thesis)");
    TAP_EQ_U64(k.adder_bytes, 1360, "128 adders: 1360 B (thesis)");
    TAP_EQ_U64(k.ctrl_bytes, 1984, "controller total: 1984 B (thesis)");
    TAP_OK(k.exact_hw && !k.age_total, "defaults: the table describes the simulated (exact, delta) hardware");
    c.icl_exact_hw = false;
    dram_icl_cost(64, &c, &k);
    TAP_OK(!k.exact_hw && k.ctrl_bytes == 1984, "oracle: same table, flagged as not what is simulated");
    c.icl_exact_hw = true;
    c.rdq = 128;
    dram_icl_cost(64, &c, &k);
    TAP_EQ_U64(k.ctrl_bytes, 2 * 1984, "doubling the read queue doubles the controller's storage");
}

/* MSHR-S+A: scores are summed ages (NOTE(mshr-age)), so a lone read
 * created long ago outscores a merged read created just now, which MSHR-S
 * would serve first; and with equal creation times the merged read wins. */
static void test_age(void)
{
    struct rig g;
    rig_init(&g, &dram_sched_mshr_sa);
    push_t(&g, 1, 0, 5, 1, 0, 0);       /* created at cycle 0 */
    push_t(&g, 2, 0, 7, 2, 0, 2 * 5000); /* two requests created at cycle 5000 (in the future: age 0) */
    run(&g, 2);
    TAP_OK(g.n == 2 && g.order[0] == 1 && g.order[1] == 2, "S+A: the old lone read first (age beats count)");
    dram_fini(&g.d);
    rig_init(&g, &dram_sched_mshr_s);
    push_t(&g, 1, 0, 5, 1, 0, 0);
    push_t(&g, 2, 0, 7, 2, 0, 2 * 5000);
    run(&g, 2);
    TAP_OK(g.n == 2 && g.order[0] == 2, "MSHR-S: the merged read first (count only)");
    dram_fini(&g.d);
    rig_init(&g, &dram_sched_mshr_sa);
    push_t(&g, 1, 0, 5, 1, 0, 0);
    push_t(&g, 2, 0, 7, 2, 0, 0);
    run(&g, 2);
    TAP_OK(g.n == 2 && g.order[0] == 2, "S+A, same creation times: the merged read first (its age sum grows 2x)");
    dram_fini(&g.d);
    /* The time base converts SM pipeline cycles to DRAM cycles. */
    rig_init(&g, &dram_sched_mshr_sa);
    dram_set_time_base(&g.d, 1428, 1082); /* 700 MHz pipeline, 924 MHz DRAM (ps) */
    TAP_EQ_U64(dram_tc_to_cycles(&g.d, 700), 700ull * 1428 / 1082, "t_create 700 pipeline cycles = 923 DRAM cycles");
    dram_fini(&g.d);
}

/* ------------------------------------------------ exact-hardware path */

/* The L2-side MIB: 4-bit counts, 15-bit delta/total ages, the
 * dummy-after-original gate and the multiplexer's pick. */
static void test_l2_mib(void)
{
    struct l2_mib m;
    l2_mib_init(&m, 8, true);
    l2_mib_merge(&m, 3, 2, 100, false);
    l2_mib_merge(&m, 5, 4, 10, false);
    TAP_EQ_U64(m.n_ready, 0, "after_original: merges into entries whose miss has not left are not sendable");
    TAP_EQ_U64((uint64_t)(l2_mib_pick(&m, false) + 1), 0, "nothing to pick");
    l2_mib_depart(&m, 3);
    TAP_OK(m.valid[3] == 0 && m.age[3] == 0 && m.n_ready == 0,
           "departure folds the pending update into the original (valid and age cleared)");
    l2_mib_merge(&m, 3, 3, 100, false);
    l2_mib_merge(&m, 3, 4, 50, false);
    l2_mib_depart(&m, 5);
    l2_mib_merge(&m, 5, 5, 7, false);
    TAP_EQ_U64(m.n_ready, 2, "two entries ready once departed and merged again");
    TAP_EQ_U64(m.age[3], 150, "delta mode: ages of the merges since the last send add up (100 + 50)");
    TAP_EQ_U64(m.age[5], 7, "entry 5: first merge after departure (count 5) keeps its delta of 7");
    TAP_EQ_U64((uint64_t)l2_mib_pick(&m, false), 5, "by merge_len: entry 5 (5 > 4)");
    TAP_EQ_U64((uint64_t)l2_mib_pick(&m, true), 3, "by age: entry 3 (150 > 7)");
    l2_mib_merge(&m, 5, 16, 143, false);
    TAP_OK(m.merge_len[5] == 15 && m.age[5] == 150, "16 requests saturate the 4-bit count at 15 (OQ-3); age 7+143");
    TAP_EQ_U64((uint64_t)l2_mib_pick(&m, true), 3, "equal ages: the lowest MSHR index (3) goes first");
    l2_mib_sent(&m, 3);
    TAP_OK(!m.valid[3] && m.age[3] == 0 && m.n_ready == 1, "sending clears valid and the age payload");
    l2_mib_merge(&m, 5, 16, 40000, false);
    TAP_EQ_U64(m.age[5], L2_MIB_AGE_MAX, "the age payload saturates at 2^15 - 1");
    l2_mib_merge(&m, 5, 16, 1234, true);
    TAP_EQ_U64(m.age[5], 1234, "total mode: the recomputed sum replaces the payload");
    l2_mib_free(&m, 5);
    TAP_OK(m.n_ready == 0 && !m.departed[5], "the fill frees the entry");
    l2_mib_fini(&m);
    l2_mib_init(&m, 4, false);
    l2_mib_merge(&m, 1, 2, 5, false);
    TAP_EQ_U64(m.n_ready, 1, "dummy_after_original off: a merge is sendable before its miss leaves");
    l2_mib_fini(&m);
}

struct erig {
    struct dram d;
    uint64_t order[8];
    uint32_t n;
    cycle_t last_rd;    /* cycle of the blocker's last RD command */
    cycle_t now;
};

static void erig_trace(void *ctx, const struct dram_cmd_rec *r)
{
    struct erig *g = ctx;
    if (r->cmd == DRAM_CMD_RD && r->tag == BLOCKER)
        g->last_rd = r->cycle;
}

/* A controller configured with an MSHR policy and (exact) the DRAM-side
 * MIB; the blocker holds bank 0 (row 1000) from cycle 1. */
static void erig_init(struct erig *g, int sched, bool exact, int age_mode)
{
    memset(g, 0, sizeof *g);
    struct dram_cfg c;
    dram_cfg_defaults(&c);
    c.sched = sched;
    c.icl_exact_hw = exact;
    c.icl_age_mode = age_mode;
    dram_init(&g->d, &c, 0);
    dram_set_trace(&g->d, erig_trace, g);
    struct dram_req r = {.tag = BLOCKER, .addr = BLOCKER * 128, .bank = 0, .row = 1000, .bytes = 128, .merges = 1};
    SIM_ASSERT(dram_push(&g->d, &r, 0), "push");
}

/* A read that left the L2 at cycle `dep` with `merges` requests whose ages
 * summed to `age` then. */
static void erig_push(struct erig *g, uint64_t tag, uint32_t row, uint16_t merges, uint16_t age, cycle_t dep,
                      cycle_t ready)
{
    struct dram_req r = {.tag = tag, .addr = tag * 128, .bank = 0, .row = row, .bytes = 128, .merges = merges,
                         .mib_age = age, .mib_cycle = dep};
    SIM_ASSERT(dram_push(&g->d, &r, ready), "push");
}

static void erig_dummy(struct erig *g, uint64_t tag, uint32_t merges, uint16_t age, cycle_t sent, cycle_t ready)
{
    struct dram_dummy m = {tag * 128, merges, age, sent, ready};
    SIM_ASSERT(dram_push_dummy(&g->d, &m), "dummy");
}

static void erig_run_to(struct erig *g, cycle_t end)
{
    for (; g->now < end; g->now++) {
        dram_tick(&g->d, g->now);
        struct dram_req out;
        while (dram_pop_read(&g->d, &out, g->now))
            if (out.tag != BLOCKER)
                g->order[g->n++] = out.tag;
    }
}

static uint32_t erig_slot(const struct erig *g, uint64_t tag)
{
    for (uint32_t s = g->d.arr_head; s != DRAM_NONE; s = g->d.slot[s].next)
        if (g->d.slot[s].req.tag == tag)
            return s;
    return DRAM_NONE;
}

/* Read 1 (row 5) and read 2 (row 6) wait behind the blocker, both count 1;
 * a dummy raises read 2 to 3. The blocker: ACT at 1, RD at 1 + tRCD = 13,
 * its second RD tCCDL = 3 later at 16, which frees the bank; the next pick
 * is at 17. A dummy arriving at cycle 16 is applied in that cycle's admit
 * stage (after its pick) and counts at 17: read 2 first. Arriving at 17 it
 * is applied after the pick of 17, which already handed read 1: read 1
 * first (read 2 still gets the update, too late to matter). */
static void test_exact_dummy_timing(void)
{
    for (int late = 0; late < 2; late++) {
        struct erig g;
        erig_init(&g, DRAM_SCHED_MSHR_M, true, DRAM_ICL_AGE_DELTA);
        TAP_OK(dram_mib_on(&g.d), "mshr_m with icl_exact_hw: the DRAM-side MIB is on");
        erig_push(&g, 1, 5, 1, 0, 0, 1);
        erig_push(&g, 2, 6, 1, 0, 0, 2);
        cycle_t arrive = 16 + (cycle_t)late;
        erig_dummy(&g, 2, 3, 0, arrive - 20, arrive); /* sent 20 cycles (link latency) before */
        erig_run_to(&g, arrive);
        uint32_t s2 = erig_slot(&g, 2);
        TAP_OK(s2 != DRAM_NONE && g.d.slot[s2].mib_m == 1, "late=%d: before cycle %llu read 2's MIB count is 1", late,
               (unsigned long long)arrive);
        erig_run_to(&g, 400);
        TAP_EQ_U64(g.last_rd, 16, "late=%d: the blocker's last RD at 1 + tRCD + tCCDL = 16 (bank free, pick at 17)",
                   late);
        TAP_EQ_U64(g.n, 2, "late=%d: both reads served", late);
        if (!late)
            TAP_OK(g.order[0] == 2 && g.order[1] == 1 && g.d.st.icl_dummies == 1,
                   "dummy arrives at 16: the pick at 17 sees count 3, read 2 first");
        else
            TAP_OK(g.order[0] == 1 && g.order[1] == 2 && g.d.st.icl_dummies == 1,
                   "dummy arrives at 17: the pick of 17 had no information, read 1 first");
        dram_fini(&g.d);
    }
    /* A dummy for a read that is no longer waiting is dropped and counted. */
    struct erig g;
    erig_init(&g, DRAM_SCHED_MSHR_M, true, DRAM_ICL_AGE_DELTA);
    erig_push(&g, 1, 5, 1, 0, 0, 1);
    erig_dummy(&g, 1, 2, 0, 0, 300); /* read 1 is handed at 17 */
    erig_dummy(&g, 7, 2, 0, 0, 301); /* no read 7 at all */
    erig_run_to(&g, 400);
    TAP_OK(g.d.st.icl_late_dummies == 2 && g.d.st.icl_dummies == 0, "late dummies dropped and counted (2)");
    dram_fini(&g.d);
    /* A dummy never overtakes a request pushed before it on the link: reads
     * 1..16 fill the 16-entry queue (cycles 1..16, the blocker handed at 1);
     * read 20 waits in the link until the pick of 17 frees a place. Its
     * dummy, due at 12, is delivered after it (at 17), not dropped. */
    erig_init(&g, DRAM_SCHED_MSHR_M, true, DRAM_ICL_AGE_DELTA);
    for (uint64_t t = 1; t <= 16; t++)
        erig_push(&g, t, 100 + (uint32_t)t, 1, 0, 0, 1);
    erig_push(&g, 20, 5, 1, 0, 0, 1);
    erig_dummy(&g, 20, 4, 0, 0, 12);
    erig_run_to(&g, 17);
    TAP_OK(erig_slot(&g, 20) == DRAM_NONE && g.d.dummy_count == 1, "at 16 read 20 waits in the link, its dummy too");
    erig_run_to(&g, 18);
    uint32_t s20 = erig_slot(&g, 20);
    TAP_OK(s20 != DRAM_NONE && g.d.slot[s20].mib_m == 4 && g.d.st.icl_late_dummies == 0,
           "at 17 read 20 enters and its dummy follows (count 4, not late)");
    dram_fini(&g.d);
}

/* A staleness case: an update that the oracle delivers at once but the
 * exact controller never receives changes the order. */
static void test_exact_vs_oracle(void)
{
    for (int exact = 0; exact < 2; exact++) {
        struct erig g;
        erig_init(&g, DRAM_SCHED_MSHR_M, exact, DRAM_ICL_AGE_DELTA);
        erig_push(&g, 1, 5, 1, 0, 0, 1);
        erig_push(&g, 2, 6, 1, 0, 0, 2);
        erig_run_to(&g, 5);
        TAP_OK(dram_update(&g.d, 2 * 128, 3, 0, 5), "exact=%d: the L2's merge reaches the controller's live count",
               exact);
        erig_run_to(&g, 400);
        if (exact) {
            TAP_OK(g.n == 2 && g.order[0] == 1, "exact: no dummy arrived, read 1 (oldest) first");
            TAP_EQ_U64(g.d.st.icl_stale_picks, 1, "exact: read 2 handed without information while its count was 3");
            TAP_EQ_U64(g.d.st.icl_lag_picks, 1, "exact: one read handed with a lagging count");
        } else {
            TAP_OK(g.n == 2 && g.order[0] == 2, "oracle: the live count 3 makes read 2 go first");
            TAP_EQ_U64(g.d.st.icl_stale_picks, 0, "oracle: no stale picks counted");
        }
        TAP_EQ_U64(g.d.st.hand_merges.bins[3], 1, "exact=%d: the histogram of handed reads holds one count-3 read",
                   exact);
        TAP_OK(g.d.st.read_latency_merged.count == 1 && g.d.st.read_latency_single.count == 2 &&
                   g.d.st.read_latency_merged.sum + g.d.st.read_latency_single.sum == g.d.st.read_latency.sum,
               "exact=%d: read latency split by class: read 2 merged; read 1 and the blocker single", exact);
        dram_fini(&g.d);
    }
}

/* MSHR-S+A ages: closed form, delta vs total dummies, saturation. */
static void test_exact_ages(void)
{
    for (int mode = 0; mode < 2; mode++) {
        struct erig g;
        erig_init(&g, DRAM_SCHED_MSHR_SA, true, mode);
        /* read 3 left the L2 at cycle 0 with 2 requests of ages 10 + 30 */
        erig_push(&g, 3, 5, 2, 40, 0, 1);
        erig_run_to(&g, 6);
        uint32_t s = erig_slot(&g, 3);
        TAP_EQ_U64(dram_mib_age(&g.d, s, 5), 50, "mode %d: at 5, 40 + 2 x 5 = 50 (age += merge_len per cycle)", mode);
        /* a third request merged at cycle 4 with age 20 there; its dummy
         * left at 6 and arrives at 10 */
        erig_dummy(&g, 3, 3, mode == DRAM_ICL_AGE_TOTAL ? (uint16_t)(40 + 2 * 6 + 22) : (uint16_t)20, 6, 10);
        erig_run_to(&g, 12);
        uint64_t a = dram_mib_age(&g.d, s, 11);
        if (mode == DRAM_ICL_AGE_DELTA)
            TAP_EQ_U64(a, 40 + 2 * 10 + 20 + 3 * 1,
                       "delta: 40 + 2 x 10 (old count to arrival) + 20 (payload) + 3 x 1 = 83 at 11");
        else
            TAP_EQ_U64(a, 74 + 3 * (11 - 6),
                       "total: the sum at sending (74) + 3 x (11 - 6) = 89 at 11 (transit counted)");
        dram_fini(&g.d);
    }
    /* saturation at 2^15 - 1 */
    struct erig g;
    erig_init(&g, DRAM_SCHED_MSHR_SA, true, DRAM_ICL_AGE_DELTA);
    erig_push(&g, 4, 5, 15, 32700, 0, 1);
    erig_run_to(&g, 3);
    uint32_t s = erig_slot(&g, 4);
    TAP_EQ_U64(dram_mib_age(&g.d, s, 4), 32760, "32700 + 15 x 4 = 32760 below the limit");
    TAP_EQ_U64(dram_mib_age(&g.d, s, 5), 32767, "32700 + 15 x 5 = 32775 saturates at 32767");
    TAP_EQ_U64(dram_mib_age(&g.d, s, 100000), 32767, "and stays there");
    erig_dummy(&g, 4, 15, 30000, 3, 4);
    erig_run_to(&g, 5);
    TAP_EQ_U64(g.d.slot[s].mib_age, 32767, "a delta added to a near-full sum saturates");
    dram_fini(&g.d);
    /* Saturation loses the order: a lone old read and a 15-fold merged read,
     * both saturated, tie, and the older goes first. */
    erig_init(&g, DRAM_SCHED_MSHR_SA, true, DRAM_ICL_AGE_DELTA);
    erig_push(&g, 1, 5, 1, 32767, 0, 1);
    erig_push(&g, 2, 6, 15, 32767, 0, 2);
    erig_run_to(&g, 400);
    TAP_OK(g.n == 2 && g.order[0] == 1, "saturated ages tie: the older read first");
    TAP_EQ_U64(g.d.st.icl_sat_picks, 2, "both handed with a saturated age");
    dram_fini(&g.d);
}

/* ---------------------------------------------- through a partition */

struct pdrv {
    struct addrmap map;
    uint8_t *store;
    struct mempart mp;
    struct clock_periods per;
};

#define PSTORE_BYTES (1u << 22)
static void ps_read(void *ctx, uint64_t line_addr, uint64_t local, uint8_t out[MEM_LINE_BYTES])
{
    struct pdrv *d = ctx;
    (void)line_addr;
    memcpy(out, d->store + local, MEM_LINE_BYTES);
}
static void ps_write(void *ctx, uint64_t line_addr, uint64_t local, const uint8_t data[MEM_LINE_BYTES],
                     const uint64_t mask[2])
{
    struct pdrv *d = ctx;
    (void)line_addr;
    for (uint32_t i = 0; i < MEM_LINE_BYTES; i++)
        if (mem_mask_test(mask, i))
            d->store[local + i] = data[i];
}

static struct mem_req prq(uint64_t addr, uint32_t id, uint16_t sm)
{
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.op = MEM_OP_READ, r.addr = addr, r.id = id, r.size = 128, r.src = sm, r.t_create = 10;
    return r;
}

/* Two SMs read line A, the second b_when L2 cycles later. Records the L2
 * cycle of the merge, the DRAM cycle the dummy leaves and the one it
 * reaches the controller (there A's read is long handed: a late dummy). */
static void partition_case(uint64_t b_when, bool after_original, uint64_t *t_merge, uint64_t *d_sent,
                           uint64_t *d_arrive, struct mempart_stats *st, struct dram_stats *dst, uint64_t *first_dram)
{
    struct pdrv *d = xcalloc(1, sizeof *d);
    struct clock_cfg ck = {700000000ull, 700000000ull, 700000000ull, 924000000ull};
    clock_periods_compute(&ck, &d->per);
    addrmap_init(&d->map, 6, 2, 16, 4096, 64);
    d->store = xcalloc(PSTORE_BYTES, 1);
    struct mempart_cfg mc;
    struct l2_cfg lc;
    struct dram_cfg dc;
    mempart_cfg_defaults(&mc);
    l2_cfg_defaults(&lc);
    dram_cfg_defaults(&dc);
    dc.sched = DRAM_SCHED_MSHR_M;
    dc.icl_dummy_after_original = after_original;
    struct mempart_init_args a = {0, &d->map, NULL, d->per.core, d->per.l2, d->per.dram, {ps_read, ps_write, d},
                                  &func_atomic_ops, NULL};
    mempart_init(&d->mp, &mc, &lc, &dc, &a);
    uint64_t la = addrmap_encode(&d->map, 0, 0x0);
    struct mem_req in[2] = {prq(la, 1, 4), prq(la, 2, 9)};
    uint64_t when[2] = {0, b_when};
    uint32_t next = 0, n_rep = 0;
    uint64_t l2c = 0, dcy = 0;
    *t_merge = *d_sent = *d_arrive = CYCLE_NEVER;
    unsigned sub = mempart_sub_of(&d->mp, la);
    for (int g = 0; g < 200000 && (next < 2 || n_rep < 2 || dcy < 2000); g++) {
        ps_t tl = l2c * d->per.l2, td = dcy * d->per.dram;
        if (td <= tl) {
            mempart_tick_dram(&d->mp, dcy);
            if (*d_sent == CYCLE_NEVER && d->mp.st.icl_dummies)
                *d_sent = dcy;
            if (*d_arrive == CYCLE_NEVER && d->mp.dram.st.icl_dummies + d->mp.dram.st.icl_late_dummies)
                *d_arrive = dcy;
            dcy++;
            continue;
        }
        mempart_tick_l2(&d->mp, l2c);
        if (*t_merge == CYCLE_NEVER && d->mp.l2[sub].st.merges)
            *t_merge = l2c;
        while (next < 2 && when[next] <= l2c) {
            if (!mempart_push(&d->mp, sub, &in[next], l2c))
                break;
            next++;
        }
        struct mem_reply r;
        if (mempart_pop_reply(&d->mp, sub, &r, l2c))
            n_rep++;
        l2c++;
    }
    TAP_EQ_U64(n_rep, 2, "b_when %llu: both reads answered", (unsigned long long)b_when);
    /* the first DRAM cycle whose edge follows the merge's L2 edge */
    *first_dram = *t_merge == CYCLE_NEVER ? 0 : *t_merge * d->per.l2 / d->per.dram + 1;
    *st = d->mp.st;
    *dst = d->mp.dram.st;
    dst->read_latency_hist.bins = NULL; /* owned by the partition, freed below */
    dst->hand_merges.bins = NULL;
    mempart_fini(&d->mp);
    free(d->store);
    free(d);
}

static void test_exact_partition(void)
{
    uint64_t tm, ds, da, fd;
    struct mempart_stats st;
    struct dram_stats dst;
    /* B merges after A's read left the L2 (A's read is in the 132-cycle link) */
    partition_case(6, true, &tm, &ds, &da, &st, &dst, &fd);
    TAP_EQ_U64(st.icl_dummies, 1, "one merge after departure: one dummy sent");
    TAP_OK(tm != CYCLE_NEVER && ds == fd,
           "merge at L2 cycle %llu: the dummy leaves at the next DRAM edge, cycle %llu (MIB first, link free)",
           (unsigned long long)tm, (unsigned long long)ds);
    TAP_EQ_U64(da, ds + 132, "it reaches the controller l2_to_dram.latency = 100 x 1429 / 1082 = 132 DRAM cycles later");
    TAP_EQ_U64(dst.icl_late_dummies, 1, "A's read was handed long before (empty controller): a late dummy");
    partition_case(1, true, &tm, &ds, &da, &st, &dst, &fd);
    TAP_EQ_U64(st.icl_dummies, 0, "B merges while A's miss is still in the L2: no dummy, the original carries count 2");
    TAP_EQ_U64(dst.icl_stale_picks + dst.icl_lag_picks, 0, "and A's read is handed knowing its count (no stale pick)");
    partition_case(1, false, &tm, &ds, &da, &st, &dst, &fd);
    TAP_EQ_U64(st.icl_dummies, 1, "dummy_after_original off: the merge's dummy overtakes A's miss");
    TAP_EQ_U64(dst.icl_late_dummies, 1, "and finds no read at the controller: dropped as late");
}

static const struct tap_test tests[] = {
    {"age", test_age},
    {"cost", test_cost},
    {"worked_example", test_worked_example},
    {"row_scores", test_row_scores},
    {"degenerate", test_degenerate},
    {"update", test_update_oracle},
    {"l2_mib", test_l2_mib},
    {"exact_dummy_timing", test_exact_dummy_timing},
    {"exact_vs_oracle", test_exact_vs_oracle},
    {"exact_ages", test_exact_ages},
    {"exact_partition", test_exact_partition},
};

int main(void) { return tap_run(tests, ARRAY_LEN(tests)); }
