/* tests/test_dram_icl.c: seed 003's inter-core-locality-aware DRAM schedulers
 * (partitions/dram/dram_mshr*.c, dram-intercore-locality.md): the thesis's
 * worked example (§3.1) with the real controller deciding the order, the
 * request and row scores of MSHR-M and MSHR-S on crafted queues, the
 * degenerate cases (all counts 1), and update messages changing a pick.
 * Whole-GPU determinism of the policies is in tests/cli/dram_icl.sh.
 */
#include <string.h>

#include "partitions/dram/dram.h"
#include "partitions/dram/dram_icl_cost.h"
#include "partitions/dram/dram_sched.h"
#include "sim/base/common.h"
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
static void test_update(void)
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

static const struct tap_test tests[] = {
    {"age", test_age},
    {"cost", test_cost},
    {"worked_example", test_worked_example},
    {"row_scores", test_row_scores},
    {"degenerate", test_degenerate},
    {"update", test_update},
};

int main(void) { return tap_run(tests, ARRAY_LEN(tests)); }
