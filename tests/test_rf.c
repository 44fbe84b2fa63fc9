/* tests/test_rf.c: the register-file unit (sim/sm/rf/rf.{c,h}, rf_sram.c) and
 * its use by the operand collectors (sim/sm/rf/opcoll.c; docs/rf.md).
 *
 * Every expected cycle is computed by hand; the arithmetic is next to each
 * value. Pipeline timeline (docs/pipes.md): an op issued at cycle i has its
 * reads arbitrated from cycle i+1, once per RF tick (rf.clock_mult ticks
 * per cycle, tick T of cycle T / M); a read granted at tick T with access
 * time k is available at cycle ceil((T + k) / M); the op dispatches then
 * and writes back latency cycles later (fp32 add: 4). Grants rotate from
 * bank (T mod n_banks).
 *
 * A worked example policy ("slow2": every access costs 2 RF ticks, every
 * third warp is held back from issue, warp 4's results go to a write
 * buffer, a tick of its own every 10 cycles) is defined here and plugged in
 * through the public table struct rf_policy_ops, without touching rf.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cfg/config.h"
#include "sim/sm/rf/opcoll.h"
#include "sim/sm/exec/pipes.h"
#include "sim/sm/rf/rf.h"
#include "sim/base/stats.h"
#include "tap.h"

#define MAX_OPS 64

/* ------------------------------------------------------------ the example policy */

struct slow2_arg {
    int created, destroyed;       /* create / destroy calls */
    uint32_t kernel_warps;        /* n_warps of the last kernel_start */
};

struct slow2 {
    struct slow2_arg *arg;  /* the test's counters */
    const struct rf *rf;    /* the unit (read-only look at the banks) */
    uint64_t holds;         /* statistics: can_issue refusals */
    uint64_t issued;        /* statistics: on_issue calls */
    uint64_t ticks;         /* statistics: tick calls */
    cycle_t last_tick;      /* cycle of the last tick call */
};

static void *slow2_create(struct rf *rf, void *arg)
{
    struct slow2 *p = xcalloc(1, sizeof *p);
    p->arg = arg;
    p->rf = rf;
    p->last_tick = CYCLE_NEVER;
    if (p->arg)
        p->arg->created++;
    return p;
}

static void slow2_destroy(void *ps)
{
    struct slow2 *p = ps;
    if (p->arg)
        p->arg->destroyed++;
    free(p);
}

static uint32_t slow2_access(void *ps, uint32_t bank, uint32_t warp, uint32_t reg, bool is_write, cycle_t tick)
{
    (void)ps, (void)bank, (void)warp, (void)reg, (void)is_write, (void)tick;
    return 2; /* every access keeps its bank busy 2 RF ticks */
}

static bool slow2_can_issue(void *ps, uint32_t warp, uint32_t func, uint32_t pc, const struct pipe_op *op,
                            cycle_t now)
{
    (void)ps, (void)func, (void)pc, (void)op, (void)now;
    return warp % 3 != 2; /* every third warp is held back */
}

static void slow2_on_issue(void *ps, const struct pipe_op *op, cycle_t now)
{
    (void)op, (void)now;
    ((struct slow2 *)ps)->issued++;
}

static enum rf_wb_action slow2_on_writeback(void *ps, uint32_t warp, const uint16_t *regs, uint32_t n, cycle_t now)
{
    (void)ps, (void)regs, (void)n, (void)now;
    return warp == 4 ? RF_WB_TAKEN : RF_WB_BANKS; /* warp 4 writes into a (free) write buffer */
}

static cycle_t slow2_tick(void *ps, cycle_t now)
{
    struct slow2 *p = ps;
    p->ticks++;
    p->last_tick = now;
    return (now / 10 + 1) * 10; /* wants to run every 10th cycle, e.g. to preshift */
}

static void slow2_kernel_start(void *ps, const struct rf_kernel_info *ki)
{
    struct slow2 *p = ps;
    if (p->arg)
        p->arg->kernel_warps = ki->n_warps;
}

static void slow2_stats(void *ps, struct stats *reg, const char *group, int instance)
{
    struct slow2 *p = ps;
    stats_counter(reg, group, instance, "slow2_issued", &p->issued, "instructions seen by the example policy");
}

static const struct rf_policy_ops slow2_ops = {
    .name = "slow2",
    .create = slow2_create,
    .destroy = slow2_destroy,
    .access = slow2_access,
    .tick = slow2_tick,
    .on_writeback = slow2_on_writeback,
    .can_issue = slow2_can_issue,
    .on_issue = slow2_on_issue,
    .kernel_start = slow2_kernel_start,
    .stats_register = slow2_stats,
};

/* ------------------------------------------------------------ harness */

struct rig {
    struct rf_cfg rf;
    struct oc_cfg oc_cfg;
    struct pipes_cfg pc;
    struct opcoll oc;
    struct pipes p;
    cycle_t wb[MAX_OPS]; /* writeback cycle per tag */
};

static void on_wb(void *ctx, const struct pipe_op *op, cycle_t now)
{
    struct rig *r = ctx;
    SIM_ASSERT(op->tag < MAX_OPS && r->wb[op->tag] == CYCLE_NEVER, "double writeback of tag %llu",
               (unsigned long long)op->tag);
    r->wb[op->tag] = now;
}

static void rig_init(struct rig *r, uint64_t mult, const struct rf_policy_ops *pol, void *arg)
{
    memset(r, 0, sizeof *r);
    rf_cfg_defaults(&r->rf);
    r->rf.clock_mult = mult;
    oc_cfg_defaults(&r->oc_cfg);
    r->oc_cfg.alloc_delay = 0;
    pipes_cfg_defaults(&r->pc);
    /* the hand-computed timelines below are without the GPGPU-Sim latches */
    r->pc.dispatch_delay = 0;
    r->pc.wb_reserve = false;
    opcoll_init(&r->oc, &r->rf, &r->oc_cfg, pol, arg);
    pipes_init(&r->p, &r->pc, on_wb, r);
    for (int i = 0; i < MAX_OPS; i++)
        r->wb[i] = CYCLE_NEVER;
}

static void rig_fini(struct rig *r)
{
    pipes_fini(&r->p);
    opcoll_fini(&r->oc);
}

static void run(struct rig *r, cycle_t from, cycle_t to)
{
    for (cycle_t t = from; t <= to; t++) {
        pipes_tick(&r->p, &r->oc, t);
        opcoll_check(&r->oc);
        pipes_check(&r->p);
    }
}

static struct pipe_op add2(uint32_t warp, uint64_t tag, int n_src, int s0, int s1, int dst)
{
    struct pipe_op op;
    memset(&op, 0, sizeof op);
    op.cls = PIPE_C_F32_ADD;
    op.warp = warp;
    op.tag = tag;
    op.n_src = (uint8_t)n_src;
    op.src[0] = (uint16_t)s0;
    op.src[1] = (uint16_t)s1;
    op.n_dst = 1;
    op.dst[0] = (uint16_t)dst;
    return op;
}

/* Writeback cycle of one op issued at 0 on a fresh rig. */
static cycle_t wb_of(uint64_t mult, const struct rf_policy_ops *pol, struct pipe_op op, uint64_t *conflicts)
{
    struct rig r;
    rig_init(&r, mult, pol, NULL);
    run(&r, 0, 0);
    opcoll_issue(&r.oc, &op, 0);
    run(&r, 1, 30);
    cycle_t w = r.wb[op.tag];
    if (conflicts)
        *conflicts = r.oc.conflict_cycles;
    rig_fini(&r);
    return w;
}

/* ------------------------------------------------------------ tests */

static void t_bank_mapping(void)
{
    struct rf_cfg c;
    rf_cfg_defaults(&c);
    struct rf rf;
    rf_init(&rf, &c, NULL, NULL);
    TAP_STREQ(rf.ops->name, "sram", "default policy is sram");
    TAP_OK(rf.ops == &rf_policy_sram && rf_policy_of(RF_POLICY_SRAM) == &rf_policy_sram, "policy table lookup");
    TAP_EQ_U64(rf_bank_of(&rf, 0, 3), 3, "warp 0 reg 3 -> bank 3");
    TAP_EQ_U64(rf_bank_of(&rf, 5, 3), 8, "warp 5 reg 3 -> bank (3 + 5) mod 16 = 8");
    TAP_EQ_U64(rf_bank_of(&rf, 7, 12), 3, "warp 7 reg 12 -> bank 19 mod 16 = 3");
    TAP_EQ_U64(rf_bank_of(&rf, 47, 255), (255 + 47) % 16, "warp 47 reg 255 -> bank 302 mod 16 = 14");
    rf_fini(&rf);
    c.n_banks = 5;
    c.entries_per_bank = 1;
    rf_init(&rf, &c, NULL, NULL);
    TAP_EQ_U64(rf_bank_of(&rf, 3, 4), 2, "5 banks: warp 3 reg 4 -> bank 7 mod 5 = 2");
    rf_fini(&rf);
}

static void t_busy(void)
{
    struct rf_cfg c;
    rf_cfg_defaults(&c);
    c.max_bank_accesses_per_cycle = 2;
    struct rf rf;
    rf_init(&rf, &c, NULL, NULL);
    /* Read of bank 3 at tick 10: value ready at 11, bank busy during 10. */
    TAP_OK(rf_bank_free(&rf, 3, 10) && rf_port_free(&rf, 10), "bank 3 free at 10");
    TAP_EQ_U64(rf_read(&rf, 3, 0, 3, 10), 11, "SRAM read at tick 10 ready at 11");
    TAP_OK(!rf_bank_free(&rf, 3, 10) && rf_bank_free(&rf, 3, 11), "bank 3 busy at 10, free at 11");
    /* Write into the busy bank in the same cycle: refused, nothing counted. */
    uint16_t r3 = 3, r4 = 4, r5 = 5;
    TAP_OK(!rf_write(&rf, 0, &r3, 1, 10), "write to busy bank 3 at cycle 10 refused");
    TAP_EQ_U64(rf.st.writes, 0, "refused write not counted");
    /* One more access fits the limit of 2 at tick 10, a third does not. */
    TAP_OK(rf_write(&rf, 0, &r4, 1, 10), "write to bank 4 at 10 accepted (2nd access of the tick)");
    TAP_OK(!rf_port_free(&rf, 10), "access limit 2 reached at tick 10");
    TAP_OK(!rf_write(&rf, 0, &r5, 1, 10), "third access at tick 10 refused by the limit");
    /* All or nothing: two registers, one bank busy. */
    uint16_t two[2] = {5, 3};
    TAP_OK(rf_write(&rf, 0, two, 2, 11), "write {5, 3} at 11 (both free again)");
    TAP_EQ_U64(rf.st.writes, 3, "3 registers written");
    TAP_OK(!rf_write(&rf, 0, two, 2, 11) && rf.st.writes == 3, "same write again at 11: both busy, nothing written");
    /* Same-bank pair (regs 3 and 19 of warp 0): bank busy for 1 + 1 ticks. */
    uint16_t pair[2] = {3, 19};
    TAP_OK(rf_write(&rf, 0, pair, 2, 12), "same-bank pair written at 12");
    TAP_OK(!rf_bank_free(&rf, 3, 13) && rf_bank_free(&rf, 3, 14), "bank 3 busy 12..13 (two 1-tick writes)");
    TAP_EQ_U64(rf.st.busy_by_bank.count, 6, "busy ticks: 1 read + 5 writes x 1");
    TAP_EQ_U64(rf.st.reads_by_bank.bins[3], 1, "reads_by_bank[3] = 1");
    TAP_EQ_U64(rf.st.writes_by_bank.bins[3], 3, "writes_by_bank[3] = 3");
    TAP_EQ_U64(rf.st.busy_by_bank.bins[3], 4, "busy_by_bank[3] = 4 ticks");
    rf_check(&rf);
    rf_fini(&rf);
}

static void t_clock_mult(void)
{
    uint64_t cf = 0;
    /* One source r1 (bank 1). M = 1: read at 1, ready 2, dispatch 2, wb 6.
     * M = 2: read at tick 2 (cycle 1), ready tick 3 -> cycle ceil(3/2) = 2,
     * wb 6: a 1-tick access still costs a whole pipeline cycle. */
    TAP_EQ_U64(wb_of(1, NULL, add2(0, 0, 1, 1, 0, 3), NULL), 6, "M=1, one source: wb 0 + 1 + 1 + 4 = 6");
    TAP_EQ_U64(wb_of(2, NULL, add2(0, 0, 1, 1, 0, 3), NULL), 6,
               "M=2, one source: read tick 2, ready ceil(3/2)=2, wb 6");
    /* r1 and r17, both bank 1 (same-bank conflict). M = 1: r1 at 1, r17 at
     * 2, ready 3, wb 7, one conflict cycle. M = 2: r1 at tick 2, r17 at
     * tick 3, ready tick 4 = cycle 2, wb 6: the faster RF hides the
     * conflict (one conflict tick). */
    TAP_EQ_U64(wb_of(1, NULL, add2(0, 0, 2, 1, 17, 3), &cf), 7, "M=1, same bank: wb 0 + 2 reads + 1 + 4 = 7");
    TAP_EQ_U64(cf, 1, "M=1: one conflict cycle");
    TAP_EQ_U64(wb_of(2, NULL, add2(0, 0, 2, 1, 17, 3), &cf), 6, "M=2, same bank: ticks 2, 3, ready cycle 2, wb 6");
    TAP_EQ_U64(cf, 1, "M=2: one conflict tick (bank 1 at tick 2)");
    /* r1, r2 (banks 1, 2), one read per unit per tick. M = 2: tick 2
     * rotation starts at bank 2: r2 granted, r1 refused (unit limit, a
     * conflict), tick 3: r1; ready tick 4 = cycle 2, wb 6 (M = 1: 7). */
    TAP_EQ_U64(wb_of(1, NULL, add2(0, 0, 2, 1, 2, 3), NULL), 7, "M=1, two banks, 1 read/unit: wb 7");
    TAP_EQ_U64(wb_of(2, NULL, add2(0, 0, 2, 1, 2, 3), &cf), 6, "M=2, two banks, 1 read/unit/tick: wb 6");
    TAP_EQ_U64(cf, 1, "M=2: bank 1 waited one tick");
    /* Example policy, 2 ticks per access. M = 1: read at 1, ready 3,
     * dispatch 3, wb 7. M = 2: read at tick 2, ready tick 4 = cycle 2, wb 6.
     * Same bank r1, r17: M = 1: r1 at 1 (busy 1..2), r17 at 3, ready 5,
     * wb 9. M = 2: ticks 2 and 4, ready tick 6 = cycle 3, wb 7. */
    TAP_EQ_U64(wb_of(1, &slow2_ops, add2(0, 0, 1, 1, 0, 3), NULL), 7, "slow2 M=1, one source: wb 1 + 2 + 4 = 7");
    TAP_EQ_U64(wb_of(2, &slow2_ops, add2(0, 0, 1, 1, 0, 3), NULL), 6, "slow2 M=2, one source: ready tick 4, wb 6");
    TAP_EQ_U64(wb_of(1, &slow2_ops, add2(0, 0, 2, 1, 17, 3), NULL), 9, "slow2 M=1, same bank: reads 1, 3, wb 9");
    TAP_EQ_U64(wb_of(2, &slow2_ops, add2(0, 0, 2, 1, 17, 3), NULL), 7, "slow2 M=2, same bank: ticks 2, 4, wb 7");

    /* Write at a later tick of the cycle (M = 2, slow2): a read of bank 3
     * at tick 3 (cycle 1, second tick) keeps it busy to tick 5; a write to
     * bank 3 at cycle 2 (ticks 4, 5) starts at tick 5 and is accepted. */
    struct rf_cfg c;
    rf_cfg_defaults(&c);
    c.clock_mult = 2;
    struct rf rf;
    rf_init(&rf, &c, &slow2_ops, NULL);
    TAP_OK(rf_port_free(&rf, 3), "tick 3 (cycle 1) has a free port");
    TAP_EQ_U64(rf_read(&rf, 3, 0, 3, 3), 5, "slow2 M=2: read at tick 3 ready at tick 5");
    uint16_t r3 = 3;
    TAP_OK(rf_write(&rf, 0, &r3, 1, 2), "write at cycle 2 starts at its second tick (5)");
    TAP_OK(!rf_bank_free(&rf, 3, 6) && rf_bank_free(&rf, 3, 7), "bank 3 busy ticks 5..6");
    TAP_EQ_U64(rf.acc[1], 1, "counted at tick 1 of cycle 2");
    /* cycle 3 = ticks 6, 7: bank busy until 7 -> starts at 7 (busy to 9).
     * cycle 4 = ticks 8, 9: pair r3, r19 (both bank 3) starts at 9, busy
     * 9..12 (2 + 2 ticks). cycle 5 = ticks 10, 11: bank busy to 13 -> refused;
     * cycle 6 = ticks 12, 13: starts at 13. */
    TAP_OK(rf_write(&rf, 0, &r3, 1, 3), "write at cycle 3 starts at tick 7");
    uint16_t pair[2] = {3, 19};
    TAP_OK(rf_write(&rf, 0, pair, 2, 4), "same-bank pair at cycle 4 starts at tick 9");
    TAP_OK(!rf_write(&rf, 0, &r3, 1, 5), "write at cycle 5 (ticks 10, 11): bank busy to 13 -> refused");
    TAP_OK(rf_write(&rf, 0, &r3, 1, 6) && !rf_bank_free(&rf, 3, 14) && rf_bank_free(&rf, 3, 15),
           "write at cycle 6 starts at tick 13, busy to 15");
    rf_fini(&rf);
}

static void t_example_policy(void)
{
    struct slow2_arg arg = {0, 0, 0};
    struct rig r;
    rig_init(&r, 1, &slow2_ops, &arg);
    TAP_EQ_U64(arg.created, 1, "policy state created once through the table");
    TAP_STREQ(r.oc.rf.ops->name, "slow2", "the collector's register file runs the example policy");
    struct slow2 *ps = r.oc.rf.ps;
    TAP_OK(ps && ps->rf == &r.oc.rf, "policy got its unit");

    /* Issue gate: every third warp (2, 5, 8) is held back. */
    struct pipe_op op = add2(0, 0, 1, 1, 0, 3);
    int held = 0;
    for (uint32_t w = 0; w < 9; w++)
        held += !rf_can_issue(&r.oc.rf, w, 0, 0, &op, 0);
    TAP_EQ_U64(held, 3, "warps 2, 5, 8 of 0..8 held back");
    TAP_OK(!rf_can_issue(&r.oc.rf, 5, 0, 0, &op, 0) && rf_can_issue(&r.oc.rf, 4, 0, 0, &op, 0),
           "warp 5 held, warp 4 may issue");
    struct rf_kernel_info ki = {24, 8, 3, 20, 32768, NULL, 20, 1, 0, "k"};
    opcoll_kernel_start(&r.oc, &ki);
    TAP_EQ_U64(arg.kernel_warps, 24, "kernel_start saw 3 CTAs x 8 warps");

    /* Tick hook: idle rig, pipes_tick returns the policy's next cycle
     * (exact idle skipping), and skipped cycles are not ticked. */
    cycle_t n = pipes_tick(&r.p, &r.oc, 0);
    TAP_EQ_U64(n, 10, "idle pipes with slow2: next cycle 10 (the policy's)");
    n = pipes_tick(&r.p, &r.oc, n);
    TAP_EQ_U64(n, 20, "then 20");
    TAP_OK(ps->ticks == 2 && ps->last_tick == 10, "ticked at 0 and 10 only");

    /* Warp 0 (banks) and warp 4 (write buffer) each run an add at 20:
     * read at 21 (2 ticks) ready 23, wb 27. Warp 4's write takes no bank. */
    struct pipe_op a = add2(0, 0, 1, 1, 0, 3), b = add2(4, 1, 1, 8, 0, 9);
    opcoll_issue(&r.oc, &a, 20);
    opcoll_issue(&r.oc, &b, 20);
    TAP_EQ_U64(ps->issued, 2, "on_issue saw both");
    run(&r, 21, 40);
    TAP_EQ_U64(r.wb[0], 27, "slow2 warp 0: wb 20 + 1 + 2 + 4 = 27");
    TAP_EQ_U64(r.wb[1], 27, "slow2 warp 4: wb 27");
    TAP_EQ_U64(r.oc.rf.st.reads, 2, "2 bank reads");
    TAP_EQ_U64(r.oc.rf.st.writes, 1, "1 bank write (warp 0)");
    TAP_EQ_U64(r.oc.rf.st.wb_taken, 1, "1 register absorbed by the write buffer (warp 4)");
    TAP_EQ_U64(r.oc.rf.st.busy_by_bank.count, 6, "busy ticks: 3 accesses x 2");

    struct stats *st = stats_create();
    opcoll_stats_register(&r.oc, st, "sm.oc", 0);
    uint64_t v = 0;
    TAP_OK(stats_get_u64(st, "sm.oc.slow2_issued", &v) && v == 2, "policy statistic registered (%llu)",
           (unsigned long long)v);
    TAP_OK(stats_get_u64(st, "sm.oc.rf_busy_ticks", &v) && v == 6, "sm.oc.rf_busy_ticks = 6");
    TAP_OK(stats_get_u64(st, "sm.oc.rf_wb_taken", &v) && v == 1, "sm.oc.rf_wb_taken = 1");
    TAP_OK(stats_get_u64(st, "sm.oc.reads", &v) && v == 2, "sm.oc.reads kept its name");
    stats_destroy(st);
    rig_fini(&r);
    TAP_EQ_U64(arg.destroyed, 1, "policy state destroyed at fini");

    /* The same run with SRAM: wb 20 + 1 + 1 + 4 = 26, no hold, no tick. */
    rig_init(&r, 1, NULL, NULL);
    TAP_OK(rf_can_issue(&r.oc.rf, 5, 0, 0, &op, 0), "SRAM never holds a warp");
    TAP_EQ_U64(pipes_tick(&r.p, &r.oc, 0), CYCLE_NEVER, "SRAM idle: CYCLE_NEVER (no tick of its own)");
    opcoll_issue(&r.oc, &a, 20);
    run(&r, 21, 40);
    TAP_EQ_U64(r.wb[0], 26, "SRAM: wb 26");
    rig_fini(&r);
}

static void t_remap(void)
{
    struct pipe_op op = add2(3, 0, 2, 1, 2, 3);
    static const uint16_t map[4] = {0, 9, 2, 7};
    pipes_op_remap(&op, map, 4);
    TAP_OK(op.src[0] == 9 && op.src[1] == 2 && op.dst[0] == 7, "per-function map: r1 -> 9, r2 -> 2, r3 -> 7");
    op = add2(3, 0, 2, 20, 1, 30);
    pipes_op_remap(&op, map, 4);
    TAP_OK(op.src[0] == 20 && op.src[1] == 9 && op.dst[0] == 30, "registers beyond the map keep their number");
    static const uint16_t regs[3] = {5, 6, 7};
    TAP_OK(pipes_op_set_regs(&op, regs, 2, 1) && op.src[0] == 5 && op.src[1] == 6 && op.dst[0] == 7,
           "per-operand numbers");
    TAP_OK(!pipes_op_set_regs(&op, regs, 1, 1) && op.src[0] == 5, "count mismatch refused, op unchanged");
    /* Renumbering changes the bank: warp 0 reads r1, r17 (bank 1 twice);
     * remapped r17 -> r18, the second read goes to bank 2. */
    struct rig r;
    rig_init(&r, 1, NULL, NULL);
    struct pipe_op a = add2(0, 0, 2, 1, 17, 3);
    uint16_t m[19];
    for (uint16_t i = 0; i < 19; i++)
        m[i] = i;
    m[17] = 18;
    pipes_op_remap(&a, m, 19);
    opcoll_issue(&r.oc, &a, 0);
    run(&r, 1, 20);
    TAP_OK(r.oc.rf.st.reads_by_bank.bins[1] == 1 && r.oc.rf.st.reads_by_bank.bins[2] == 1,
           "remapped r17 -> r18 is read from bank 2");
    rig_fini(&r);
}

static void t_config(void)
{
    struct rf_cfg rf;
    struct oc_cfg oc;
    rf_cfg_defaults(&rf);
    oc_cfg_defaults(&oc);
    TAP_EQ_U64(rf.clock_mult, 1, "rf.clock_mult defaults to 1");
    TAP_EQ_U64(opcoll_cfg_validate(&rf, &oc, NULL, NULL), 0, "defaults validate");
    rf.clock_mult = 0;
    TAP_EQ_U64(opcoll_cfg_validate(&rf, &oc, NULL, NULL), 1, "clock_mult 0 rejected");
    rf.clock_mult = RF_MAX_CLOCK_MULT + 1;
    TAP_EQ_U64(opcoll_cfg_validate(&rf, &oc, NULL, NULL), 1, "clock_mult %d rejected", RF_MAX_CLOCK_MULT + 1);
    rf.clock_mult = 1;
    rf.policy = RF_POLICY_COUNT;
    TAP_EQ_U64(opcoll_cfg_validate(&rf, &oc, NULL, NULL), 1, "unknown policy rejected");
    const struct cfg_key *cm = NULL, *pol = NULL;
    for (size_t i = 0; i < rf_cfg_n_keys; i++) {
        if (!strcmp(rf_cfg_keys[i].name, "clock_mult"))
            cm = &rf_cfg_keys[i];
        if (!strcmp(rf_cfg_keys[i].name, "policy"))
            pol = &rf_cfg_keys[i];
    }
    TAP_OK(cm && cm->type == CFG_UINT && cm->min == 1 && cm->max == RF_MAX_CLOCK_MULT && !strcmp(cm->def, "1") &&
               cm->doc && cm->doc[0],
           "rf.clock_mult declared: uint 1..%d default 1 with doc", RF_MAX_CLOCK_MULT);
    TAP_OK(pol && pol->type == CFG_ENUM && pol->choices && !strcmp(pol->choices[RF_POLICY_SRAM], "sram") &&
               !strcmp(pol->def, "sram"),
           "rf.policy: enum with choice sram (default)");
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"bank mapping", t_bank_mapping},
        {"busy banks and access limit", t_busy},
        {"rf.clock_mult", t_clock_mult},
        {"example policy through the table", t_example_policy},
        {"register renumbering at pre-decode", t_remap},
        {"config keys", t_config},
    };
    return tap_run(tests, ARRAY_LEN(tests));
}
