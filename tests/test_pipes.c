/* tests/test_pipes.c: operand collectors, register banks, execution pipes
 * and writeback (sim/sm/rf/opcoll.c, sim/sm/exec/pipes.c; docs/pipes.md).
 *
 * Every expected cycle is computed by hand from the gtx480 defaults and the
 * rules in docs/pipes.md; the arithmetic is next to each value. Timeline of
 * an op issued at cycle i: its reads are granted from cycle i+1 (one per
 * bank per cycle, by default one per collector unit per cycle), it
 * dispatches the cycle after its last read, and writes back at
 * dispatch + latency. A randomized run is checked against a naive reference
 * model written here, also with an RF clock of 2 and 3 ticks per cycle
 * (rf.clock_mult) and register-file policies of fixed 2- and 3-tick
 * accesses (docs/rf.md); an injected fault shows the comparison catches a
 * wrong bank mapping.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cfg/config.h"
#include "sim/ptx/ir.h"
#include "sim/sm/rf/opcoll.h"
#include "sim/sm/exec/pipes.h"
#include "tap.h"

#define MAX_OPS 4096

/* ------------------------------------------------------------ harness */

struct rig {
    struct rf_cfg rf;
    struct oc_cfg oc_cfg;
    struct pipes_cfg pc;
    struct opcoll oc;
    struct pipes p;
    cycle_t wb[MAX_OPS];     /* writeback cycle per tag, CYCLE_NEVER = not yet */
    uint32_t n_wb;           /* writebacks seen */
};

static void on_wb(void *ctx, const struct pipe_op *op, cycle_t now)
{
    struct rig *r = ctx;
    SIM_ASSERT(op->tag < MAX_OPS && r->wb[op->tag] == CYCLE_NEVER, "double writeback of tag %llu",
               (unsigned long long)op->tag);
    r->wb[op->tag] = now;
    r->n_wb++;
}

/* pol: register-file policy table, NULL = the configured one (sram). */
static void rig_init_pol(struct rig *r, const struct rf_cfg *rf, const struct oc_cfg *oc, const struct pipes_cfg *pc,
                         const struct rf_policy_ops *pol)
{
    memset(r, 0, sizeof *r);
    if (rf)
        r->rf = *rf;
    else
        rf_cfg_defaults(&r->rf);
    if (oc)
        r->oc_cfg = *oc;
    else {
        oc_cfg_defaults(&r->oc_cfg);
        r->oc_cfg.alloc_delay = 0; /* the hand-computed timelines below are without the GPGPU-Sim latches */
    }
    if (pc)
        r->pc = *pc;
    else {
        pipes_cfg_defaults(&r->pc);
        r->pc.dispatch_delay = 0;
        r->pc.wb_reserve = false; /* the elastic writeback of the timelines below; t_wb_reserve has the other */
    }
    opcoll_init(&r->oc, &r->rf, &r->oc_cfg, pol, NULL);
    pipes_init(&r->p, &r->pc, on_wb, r);
    for (int i = 0; i < MAX_OPS; i++)
        r->wb[i] = CYCLE_NEVER;
}

static void rig_init(struct rig *r, const struct rf_cfg *rf, const struct oc_cfg *oc, const struct pipes_cfg *pc)
{
    rig_init_pol(r, rf, oc, pc, NULL);
}

static void rig_fini(struct rig *r)
{
    pipes_fini(&r->p);
    opcoll_fini(&r->oc);
}

static struct pipe_op mk(enum pipe_class c, uint32_t warp, uint64_t tag, int n_src, const int *src, int n_dst,
                         const int *dst)
{
    struct pipe_op op;
    memset(&op, 0, sizeof op);
    op.cls = (uint8_t)c;
    op.warp = warp;
    op.tag = tag;
    op.n_src = (uint8_t)n_src;
    op.n_dst = (uint8_t)n_dst;
    for (int i = 0; i < n_src; i++)
        op.src[i] = (uint16_t)src[i];
    for (int i = 0; i < n_dst; i++)
        op.dst[i] = (uint16_t)dst[i];
    return op;
}

/* Tick cycles [from, to] every cycle, checking invariants. */
static void run(struct rig *r, cycle_t from, cycle_t to)
{
    for (cycle_t t = from; t <= to; t++) {
        pipes_tick(&r->p, &r->oc, t);
        opcoll_check(&r->oc);
        pipes_check(&r->p);
    }
}

#define S(...) (const int[]){__VA_ARGS__}

/* ------------------------------------------------------------ tests */

static void t_single_add(void)
{
    struct rig r;
    /* add.f32 r3, r1, 5.0 (one source): issue 0, read r1 (bank 1) at 1,
     * dispatch 2, ready 2 + 4 (fp32 ADD latency) = 6, writeback 6. */
    rig_init(&r, NULL, NULL, NULL);
    run(&r, 0, 0);
    TAP_OK(opcoll_can_accept(&r.oc, PIPE_C_F32_ADD, 0), "fp32 add can issue at 0");
    struct pipe_op a = mk(PIPE_C_F32_ADD, 0, 0, 1, S(1), 1, S(3));
    opcoll_issue(&r.oc, &a, 0);
    run(&r, 1, 5);
    TAP_EQ_U64(r.wb[0], CYCLE_NEVER, "not written back before cycle 6");
    run(&r, 6, 6);
    TAP_EQ_U64(r.wb[0], 6, "one-source fp32 add: writeback at 0 + 1 + 1 + 4 = 6");
    TAP_EQ_U64(r.oc.rf.st.reads, 1, "one register read");
    TAP_EQ_U64(r.oc.rf.st.writes, 1, "one register write");
    TAP_EQ_U64(r.oc.rf.st.writes_by_bank.bins[3], 1, "write went to bank (3 + 0) mod 16 = 3");
    rig_fini(&r);

    /* add.f32 r3, r1, r2 with the GPGPU-Sim allocator (one read per unit per
     * cycle): r1 at 1, r2 at 2, dispatch 3, writeback 3 + 4 = 7. */
    rig_init(&r, NULL, NULL, NULL);
    a = mk(PIPE_C_F32_ADD, 0, 0, 2, S(1, 2), 1, S(3));
    opcoll_issue(&r.oc, &a, 0);
    run(&r, 1, 10);
    TAP_EQ_U64(r.wb[0], 7, "two-source fp32 add, reads_per_unit 1: writeback 0 + 2 reads + 1 + 4 = 7");
    rig_fini(&r);

    /* Same with rf.reads_per_unit = 0 (one access per bank only): both reads
     * at 1, dispatch 2, writeback 6. */
    struct rf_cfg rf;
    rf_cfg_defaults(&rf);
    rf.reads_per_unit = 0;
    rig_init(&r, &rf, NULL, NULL);
    opcoll_issue(&r.oc, &a, 0);
    run(&r, 1, 10);
    TAP_EQ_U64(r.wb[0], 6, "two-source fp32 add, unlimited reads per unit: writeback 6");
    rig_fini(&r);
}

/* GPGPU-Sim's latches (gtx480: oc.alloc_delay 1, pipes.dispatch_delay 2;
 * docs/pipes.md, docs/correlation.md). */
static void t_latches(void)
{
    struct rig r;
    struct oc_cfg oc;
    struct pipes_cfg pc;
    oc_cfg_defaults(&oc);
    pipes_cfg_defaults(&pc);
    TAP_OK(oc.alloc_delay == 1 && pc.dispatch_delay == 2, "gtx480 defaults: alloc_delay 1, dispatch_delay 2");
    /* add.f32 r3, r1, 5.0: issue 0 (latch), unit at 1, read 2, dispatch 3,
     * ready 3 + 4 + 2 = 9: a dependent instruction issues at 10, 3 cycles
     * later than without the latches (writeback 6). */
    rig_init(&r, NULL, &oc, &pc);
    struct pipe_op a = mk(PIPE_C_F32_ADD, 0, 0, 1, S(1), 1, S(3));
    opcoll_issue(&r.oc, &a, 0);
    TAP_EQ_U64(opcoll_busy(&r.oc, PIPE_SP), 0, "issued at 0: in the latch, no collector unit yet");
    run(&r, 1, 1);
    TAP_EQ_U64(opcoll_busy(&r.oc, PIPE_SP), 1, "unit taken at 1");
    TAP_EQ_U64(r.oc.rf.st.reads, 0, "no read at 1");
    run(&r, 2, 2);
    TAP_EQ_U64(r.oc.rf.st.reads, 1, "read granted at 2");
    run(&r, 3, 8);
    TAP_EQ_U64(r.wb[0], CYCLE_NEVER, "not written back before 9");
    run(&r, 9, 9);
    TAP_EQ_U64(r.wb[0], 9, "one-source fp32 add: writeback at 0 + 1 + 1 + 1 + 4 + 2 = 9");
    rig_fini(&r);

    /* fma.f32 r4, r1, r2, r3 (three sources, one read per unit per cycle):
     * unit 1, reads 2, 3, 4, dispatch 5, ready 5 + 5 + 2 = 12. */
    rig_init(&r, NULL, &oc, &pc);
    a = mk(PIPE_C_F32_MAD, 0, 0, 3, S(1, 2, 3), 1, S(4));
    opcoll_issue(&r.oc, &a, 0);
    run(&r, 1, 20);
    TAP_EQ_U64(r.wb[0], 12, "three-source fma: writeback at 5 + 5 + 2 = 12");
    rig_fini(&r);

    /* The latch holds no unit: two one-source adds per cycle for 12 cycles
     * (24 > 6 SP units) all issue, because each unit is busy 2 cycles
     * (taken at t + 1, read t + 2, dispatched t + 3 and free for t + 3). */
    rig_init(&r, NULL, &oc, &pc);
    int issued = 0;
    for (cycle_t t = 0; t < 12; t++) {
        run(&r, t, t);
        for (int i = 0; i < 2; i++) {
            /* warps 2i, 2i+1 ... read register 1 of banks (1 + w) mod 16: no two alike per cycle */
            uint32_t w = (uint32_t)(2 * t + (cycle_t)i) % 16;
            struct pipe_op b = mk(PIPE_C_F32_ADD, w, (uint64_t)issued, 1, S(1), 1, S(3));
            if (opcoll_can_accept(&r.oc, PIPE_C_F32_ADD, t)) {
                opcoll_issue(&r.oc, &b, t);
                issued++;
            }
        }
    }
    TAP_EQ_I64(issued, 24, "2 issues per cycle sustained through the latch (24 of 24)");
    run(&r, 12, 40);
    TAP_EQ_U64(r.n_wb, 24, "all 24 written back");
    rig_fini(&r);

    /* ld.global r4, [r2:r3]: unit at 1, reads 2, 3, dispatch 4, latched for
     * the LD/ST unit at 4 + 2 = 6. */
    rig_init(&r, NULL, &oc, &pc);
    struct pipe_op m = mk(PIPE_C_MEM, 0, 0, 2, S(2, 3), 1, S(4));
    opcoll_issue(&r.oc, &m, 0);
    struct pipe_op out;
    run(&r, 1, 5);
    TAP_OK(!pipes_mem_pop(&r.p, &out), "MEM op not at the LD/ST unit before 6");
    run(&r, 6, 6);
    TAP_OK(pipes_mem_pop(&r.p, &out) && out.tag == 0, "MEM op reaches the LD/ST latch at 4 + 2 = 6");
    rig_fini(&r);

    /* pipes.mem_dispatch_delay 0 (NOTE(mem-dispatch-delay)): the same load
     * is latched at its dispatch, 4, while an fp32 add still keeps the
     * 2-cycle dispatch delay (writeback 9, as above). */
    struct pipes_cfg pm = pc;
    pm.mem_dispatch_delay = 0;
    rig_init(&r, NULL, &oc, &pm);
    m = mk(PIPE_C_MEM, 0, 0, 2, S(2, 3), 1, S(4));
    opcoll_issue(&r.oc, &m, 0);
    a = mk(PIPE_C_F32_ADD, 1, 1, 1, S(5), 1, S(7)); /* bank 6: no conflict with the load's 2, 3 */
    opcoll_issue(&r.oc, &a, 0);
    run(&r, 1, 3);
    TAP_OK(!pipes_mem_pop(&r.p, &out), "mem_dispatch_delay 0: nothing latched before the dispatch at 4");
    run(&r, 4, 4);
    TAP_OK(pipes_mem_pop(&r.p, &out) && out.tag == 0, "mem_dispatch_delay 0: latched at its dispatch, 4");
    run(&r, 5, 20);
    TAP_EQ_U64(r.wb[1], 9, "the fp32 add keeps pipes.dispatch_delay 2: writeback at 9");
    rig_fini(&r);

    /* 1: one register, latched at 4 + 1 = 5 */
    pm.mem_dispatch_delay = 1;
    rig_init(&r, NULL, &oc, &pm);
    m = mk(PIPE_C_MEM, 0, 0, 2, S(2, 3), 1, S(4));
    opcoll_issue(&r.oc, &m, 0);
    run(&r, 1, 4);
    TAP_OK(!pipes_mem_pop(&r.p, &out), "mem_dispatch_delay 1: not latched at 4");
    run(&r, 5, 5);
    TAP_OK(pipes_mem_pop(&r.p, &out) && out.tag == 0, "mem_dispatch_delay 1: latched at 4 + 1 = 5");
    rig_fini(&r);
}

static void t_bank_conflict(void)
{
    struct rig r;
    /* Two one-source adds of warp 0 issued at 0 reading r1 and r17: both in
     * bank (1 + 0) mod 16 = (17 + 0) mod 16 = 1. First read at 1 (dispatch 2,
     * wb 6), second at 2 (dispatch 3, wb 7): one cycle of conflict. */
    rig_init(&r, NULL, NULL, NULL);
    struct pipe_op a = mk(PIPE_C_F32_ADD, 0, 0, 1, S(1), 1, S(3));
    struct pipe_op b = mk(PIPE_C_F32_ADD, 0, 1, 1, S(17), 1, S(4));
    opcoll_issue(&r.oc, &a, 0);
    opcoll_issue(&r.oc, &b, 0);
    run(&r, 1, 10);
    TAP_EQ_U64(r.wb[0], 6, "same bank: first at 6");
    TAP_EQ_U64(r.wb[1], 7, "same bank: second at 7 (1-cycle conflict)");
    TAP_EQ_U64(r.oc.conflict_cycles, 1, "one bank conflict cycle (bank 1 at cycle 1)");
    TAP_EQ_U64(r.oc.conflicts_by_bank.bins[1], 1, "charged to bank 1");
    rig_fini(&r);

    /* r1 and r2: banks 1 and 2, both read at 1, both dispatch at 2 (two SP
     * pipes, out width 2), both written back at 6. */
    rig_init(&r, NULL, NULL, NULL);
    b = mk(PIPE_C_F32_ADD, 0, 1, 1, S(2), 1, S(4));
    opcoll_issue(&r.oc, &a, 0);
    opcoll_issue(&r.oc, &b, 0);
    run(&r, 1, 10);
    TAP_OK(r.wb[0] == 6 && r.wb[1] == 6, "different banks: both at 6 (got %llu, %llu)",
           (unsigned long long)r.wb[0], (unsigned long long)r.wb[1]);
    TAP_EQ_U64(r.oc.conflict_cycles, 0, "no conflict");
    rig_fini(&r);

    /* Warp offset: warp 1 reading r0 is in bank (0 + 1) mod 16 = 1, the
     * same bank as warp 0's r1. */
    rig_init(&r, NULL, NULL, NULL);
    b = mk(PIPE_C_F32_ADD, 1, 1, 1, S(0), 1, S(4));
    opcoll_issue(&r.oc, &a, 0);
    opcoll_issue(&r.oc, &b, 0);
    run(&r, 1, 10);
    TAP_OK(r.wb[0] == 6 && r.wb[1] == 7, "bank = (reg + warp) mod 16: warp1 r0 conflicts with warp0 r1");
    rig_fini(&r);
}

static void t_three_sources(void)
{
    struct rf_cfg rf;
    rf_cfg_defaults(&rf);
    rf.reads_per_unit = 0;
    struct rig r;
    /* mad.f32 r4, r1, r2, r3 (banks 1, 2, 3), unlimited reads per unit:
     * all at 1, dispatch 2, wb 2 + 5 (fp32 MAD) = 7. */
    rig_init(&r, &rf, NULL, NULL);
    struct pipe_op a = mk(PIPE_C_F32_MAD, 0, 0, 3, S(1, 2, 3), 1, S(4));
    opcoll_issue(&r.oc, &a, 0);
    run(&r, 1, 12);
    TAP_EQ_U64(r.wb[0], 7, "3 sources in 3 banks: wb 0 + 1 + 1 + 5 = 7");
    rig_fini(&r);
    /* r1, r17, r33 all in bank 1: reads at 1, 2, 3, dispatch 4, wb 9. */
    rig_init(&r, &rf, NULL, NULL);
    a = mk(PIPE_C_F32_MAD, 0, 0, 3, S(1, 17, 33), 1, S(4));
    opcoll_issue(&r.oc, &a, 0);
    run(&r, 1, 12);
    TAP_EQ_U64(r.wb[0], 9, "3 sources in one bank: wb 0 + 3 + 1 + 5 = 9");
    TAP_EQ_U64(r.oc.conflict_cycles, 2, "two conflict cycles (bank 1 at cycles 1 and 2 leaves reads waiting)");
    rig_fini(&r);
    /* Default (GPGPU-Sim, one read per unit per cycle): 3 banks also take
     * 3 cycles: wb 9. */
    rig_init(&r, NULL, NULL, NULL);
    a = mk(PIPE_C_F32_MAD, 0, 0, 3, S(1, 2, 3), 1, S(4));
    opcoll_issue(&r.oc, &a, 0);
    run(&r, 1, 12);
    TAP_EQ_U64(r.wb[0], 9, "3 banks, reads_per_unit 1: wb 0 + 3 + 1 + 5 = 9");
    rig_fini(&r);
}

static void t_sp_throughput(void)
{
    struct rig r;
    rig_init(&r, NULL, NULL, NULL);
    /* 2 independent one-source fp32 adds per cycle for 20 cycles; the pair
     * of cycle i reads banks (2i mod 16) and (2i+1 mod 16) (warp 0). Each
     * completes at issue + 6; 2 SP pipes at II 1 and wb width 2 keep up. */
    int ok_issue = 1, ok_wb = 1;
    for (cycle_t t = 0; t < 40; t++) {
        pipes_tick(&r.p, &r.oc, t);
        opcoll_check(&r.oc);
        if (t < 20)
            for (int j = 0; j < 2; j++) {
                uint64_t tag = t * 2 + (uint64_t)j;
                if (!opcoll_can_accept(&r.oc, PIPE_C_F32_ADD, t)) {
                    ok_issue = 0;
                    continue;
                }
                struct pipe_op a = mk(PIPE_C_F32_ADD, 0, tag, 1, S((int)(tag % 16)), 1, S(32 + (int)(tag % 16)));
                opcoll_issue(&r.oc, &a, t);
            }
    }
    for (uint64_t tag = 0; tag < 40; tag++)
        if (r.wb[tag] != tag / 2 + 6)
            ok_wb = 0;
    TAP_OK(ok_issue, "SP accepts 2 fp32 adds every cycle (issue width 2, 6 units)");
    TAP_OK(ok_wb, "every add written back at issue + 6 (2 per cycle)");
    TAP_EQ_U64(r.p.units[0].dispatched + r.p.units[1].dispatched, 40, "40 dispatches over the 2 SP pipes");
    TAP_EQ_U64(r.p.units[0].dispatched, 20, "SP pipe 0 took 20 (one per cycle, II 1)");
    rig_fini(&r);
}

static void t_fp64_ii(void)
{
    struct rig r;
    rig_init(&r, NULL, NULL, NULL);
    /* fp64 adds, 64-bit sources (2 registers each, read in 2 cycles):
     * A (r2,r3) and B (r8,r9) issued at 0: reads 1-2, dispatch 3 on SP0 and
     * SP1, wb 3 + 8 = 11; both pipes blocked until 3 + 8 = 11.
     * C (r12,r13) and D (r14,r15) issued at 1: reads 2-3, ready 4, wait for
     * II: dispatch 11, wb 19. */
    struct pipe_op a = mk(PIPE_C_F64_ADD, 0, 0, 2, S(2, 3), 2, S(4, 5));
    struct pipe_op b = mk(PIPE_C_F64_ADD, 0, 1, 2, S(8, 9), 2, S(10, 11));
    struct pipe_op c = mk(PIPE_C_F64_ADD, 0, 2, 2, S(12, 13), 2, S(20, 21));
    struct pipe_op d = mk(PIPE_C_F64_ADD, 0, 3, 2, S(14, 15), 2, S(22, 23));
    opcoll_issue(&r.oc, &a, 0);
    opcoll_issue(&r.oc, &b, 0);
    run(&r, 1, 1);
    opcoll_issue(&r.oc, &c, 1);
    opcoll_issue(&r.oc, &d, 1);
    run(&r, 2, 30);
    TAP_OK(r.wb[0] == 11 && r.wb[1] == 11, "fp64 A, B at 3 + 8 = 11 (got %llu %llu)", (unsigned long long)r.wb[0],
           (unsigned long long)r.wb[1]);
    TAP_OK(r.wb[2] == 19 && r.wb[3] == 19, "fp64 C, D wait for II 8: 11 + 8 = 19 (got %llu %llu)",
           (unsigned long long)r.wb[2], (unsigned long long)r.wb[3]);
    TAP_EQ_U64(r.oc.rf.st.writes, 8, "4 results x 2 registers written");
    rig_fini(&r);
}

static void t_sfu(void)
{
    struct rig r;
    rig_init(&r, NULL, NULL, NULL);
    /* int MUL runs on the SFU only (4 / 2). Issued at 0, 1, 2 (SFU issue
     * width 1): #0 read 1, dispatch 2, wb 6, next accept 4; #1 read 2,
     * ready 3, dispatch 4, wb 8; #2 read 3, dispatch 6, wb 10. */
    for (cycle_t t = 0; t < 3; t++) {
        pipes_tick(&r.p, &r.oc, t);
        TAP_OK(opcoll_can_accept(&r.oc, PIPE_C_INT_MUL, t), "int mul accepted at %llu", (unsigned long long)t);
        struct pipe_op a = mk(PIPE_C_INT_MUL, 0, t, 1, S(1 + (int)t), 1, S(8 + (int)t));
        opcoll_issue(&r.oc, &a, t);
        if (t == 0)
            TAP_OK(!opcoll_can_accept(&r.oc, PIPE_C_INT_MUL, 0), "second SFU op in one cycle refused (width 1)");
    }
    run(&r, 3, 20);
    TAP_OK(r.wb[0] == 6 && r.wb[1] == 8 && r.wb[2] == 10, "SFU int mul II 2: wb 6, 8, 10 (got %llu %llu %llu)",
           (unsigned long long)r.wb[0], (unsigned long long)r.wb[1], (unsigned long long)r.wb[2]);
    TAP_EQ_U64(r.p.units[2].dispatched, 3, "all on the SFU pipe (unit 2)");
    TAP_EQ_U64(r.p.units[0].dispatched + r.p.units[1].dispatched, 0, "none on SP");
    rig_fini(&r);

    /* sin (transcendental, 8 / 8): #0 issue 0 wb 2 + 8 = 10; #1 issue 1,
     * ready 3, dispatch 2 + 8 = 10, wb 18. */
    rig_init(&r, NULL, NULL, NULL);
    struct pipe_op s0 = mk(PIPE_C_SFU, 0, 0, 1, S(1), 1, S(2));
    struct pipe_op s1 = mk(PIPE_C_SFU, 0, 1, 1, S(3), 1, S(4));
    opcoll_issue(&r.oc, &s0, 0);
    run(&r, 1, 1);
    opcoll_issue(&r.oc, &s1, 1);
    run(&r, 2, 30);
    TAP_OK(r.wb[0] == 10 && r.wb[1] == 18, "sin 8/8: wb 10, 18 (got %llu %llu)", (unsigned long long)r.wb[0],
           (unsigned long long)r.wb[1]);
    rig_fini(&r);
}

static void t_sp_or_sfu(void)
{
    struct rig r;
    rig_init(&r, NULL, NULL, NULL);
    /* fp32 MUL prefers SP: the first two at cycle 0 use the SP issue width
     * (2), the third goes to the SFU; a fourth finds both widths used. */
    uint32_t u[3];
    for (int i = 0; i < 3; i++) {
        struct pipe_op m = mk(PIPE_C_F32_MUL, 0, (uint64_t)i, 1, S(1 + i), 1, S(8 + i));
        u[i] = opcoll_issue(&r.oc, &m, 0);
    }
    TAP_OK(r.oc.units[u[0]].op.kind == PIPE_SP && r.oc.units[u[1]].op.kind == PIPE_SP, "first two fp32 mul -> SP");
    TAP_EQ_U64(r.oc.units[u[2]].op.kind, PIPE_SFU, "third fp32 mul -> SFU (SP issue width used)");
    TAP_OK(!opcoll_can_accept(&r.oc, PIPE_C_F32_MUL, 0), "fourth refused: SP and SFU widths used");
    TAP_OK(!opcoll_can_accept(&r.oc, PIPE_C_F32_ADD, 0), "SP-only add refused too");
    run(&r, 1, 10);
    /* All read at 1, dispatch 2 (SP0, SP1, SFU), ready 6: three results,
     * width 2: the two SP results (dispatched first) at 6, the SFU one at 7. */
    TAP_OK(r.wb[0] == 6 && r.wb[1] == 6 && r.wb[2] == 7, "wb 6, 6, 7 (got %llu %llu %llu)",
           (unsigned long long)r.wb[0], (unsigned long long)r.wb[1], (unsigned long long)r.wb[2]);
    TAP_EQ_U64(r.p.st.wb_width_stall, 1, "writeback width deferred one result once");
    rig_fini(&r);

    /* oc.unit_map = gpgpusim4 (NOTE(unit-map)): fp32 MUL is SP only, so the
     * third waits for the SP issue width; int MUL/MAD run on SP, fp64 on the
     * SFU. */
    struct oc_cfg oc4;
    oc_cfg_defaults(&oc4);
    oc4.alloc_delay = 0;
    oc4.unit_map = PIPES_MAP_GPGPUSIM4;
    rig_init(&r, NULL, &oc4, NULL);
    for (int i = 0; i < 2; i++) {
        struct pipe_op m = mk(PIPE_C_F32_MUL, 0, (uint64_t)i, 1, S(1 + i), 1, S(8 + i));
        opcoll_issue(&r.oc, &m, 0);
    }
    TAP_OK(!opcoll_can_accept(&r.oc, PIPE_C_F32_MUL, 0), "gpgpusim4: a third fp32 mul is refused (SP only)");
    TAP_OK(opcoll_can_accept(&r.oc, PIPE_C_F64_ADD, 0), "gpgpusim4: an fp64 add still goes (SFU)");
    rig_fini(&r);
    TAP_OK(pipes_class_pipes(PIPE_C_INT_MUL, PIPES_MAP_GPGPUSIM4) == PIPE_M_SP &&
               pipes_class_pipes(PIPE_C_INT_MAD, PIPES_MAP_GPGPUSIM4) == PIPE_M_SP &&
               pipes_class_pipes(PIPE_C_F64_MAD, PIPES_MAP_GPGPUSIM4) == PIPE_M_SFU &&
               pipes_class_pipes(PIPE_C_F32_DIV, PIPES_MAP_GPGPUSIM4) == PIPE_M_SFU &&
               pipes_class_pipes(PIPE_C_F32_MAD, PIPES_MAP_GPGPUSIM4) == PIPE_M_SP,
           "gpgpusim4: int MUL/MAD on SP, fp64 MAD and fp32 DIV on SFU, fp32 MAD on SP");
    TAP_OK(pipes_class_pipes(PIPE_C_INT_MUL, PIPES_MAP_GPGPUSIM3) == PIPE_M_SFU &&
               pipes_class_pipes(PIPE_C_F32_MUL, PIPES_MAP_GPGPUSIM3) == (PIPE_M_SP | PIPE_M_SFU) &&
               pipes_class_pipes(PIPE_C_F64_ADD, PIPES_MAP_GPGPUSIM3) == PIPE_M_SP,
           "gpgpusim3: int MUL on SFU, fp32 MUL on SP or SFU, fp64 ADD on SP");
}

/* pipes.wb_reserve (NOTE(wb-reserve)): a dispatch takes a result-bus slot
 * of its ready cycle or waits, with the younger ready collectors of its set. */
static void t_wb_reserve(void)
{
    struct pipes_cfg pc;
    pipes_cfg_defaults(&pc);
    pc.dispatch_delay = 0;
    pc.wb_reserve = true;
    struct rig r;
    rig_init(&r, NULL, NULL, &pc);
    /* The three fp32 MULs of t_sp_or_sfu: SP0 and SP1 take both slots of
     * cycle 6 at dispatch 2, so the SFU one waits a cycle (dispatch 3,
     * ready 7) instead of queueing at writeback. */
    for (int i = 0; i < 3; i++) {
        struct pipe_op m = mk(PIPE_C_F32_MUL, 0, (uint64_t)i, 1, S(1 + i), 1, S(8 + i));
        opcoll_issue(&r.oc, &m, 0);
    }
    run(&r, 1, 2);
    TAP_EQ_U64(r.p.units[2].dispatched, 0, "SFU mul not dispatched at 2 (cycle 6 reserved twice)");
    run(&r, 3, 3);
    TAP_EQ_U64(r.p.units[2].dispatched, 1, "SFU mul dispatched at 3");
    run(&r, 4, 10);
    TAP_OK(r.wb[0] == 6 && r.wb[1] == 6 && r.wb[2] == 7, "wb 6, 6, 7 (got %llu %llu %llu)",
           (unsigned long long)r.wb[0], (unsigned long long)r.wb[1], (unsigned long long)r.wb[2]);
    TAP_EQ_U64(r.p.st.resv_stall, 1, "one dispatch refused for the bus");
    TAP_EQ_U64(r.p.st.wb_width_stall, 0, "no result queued at writeback");
    rig_fini(&r);

    /* Width 1. A add (issue 0, dispatch 2, ready 6), B mad (issue 1,
     * dispatch 3, ready 8); C add and D mad issued together at 2, ready to
     * dispatch at 4: C's cycle 8 is B's, so C waits and D (cycle 9 free)
     * waits behind it; at 5 C takes 9 and D 10. Without the reservation C
     * and D dispatch at 4 (ready 8 and 9) and C queues behind B at
     * writeback: the same writeback cycles, reached the other way. */
    pc.wb_width = 1;
    for (int reserve = 1; reserve >= 0; reserve--) {
        pc.wb_reserve = reserve;
        const char *m = reserve ? "reserve" : "elastic";
        rig_init(&r, NULL, NULL, &pc);
        struct pipe_op a = mk(PIPE_C_F32_ADD, 0, 0, 1, S(1), 1, S(12));
        struct pipe_op b = mk(PIPE_C_F32_MAD, 1, 1, 1, S(2), 1, S(13));
        struct pipe_op c = mk(PIPE_C_F32_ADD, 2, 2, 1, S(3), 1, S(14));
        struct pipe_op d = mk(PIPE_C_F32_MAD, 3, 3, 1, S(4), 1, S(15));
        opcoll_issue(&r.oc, &a, 0);
        run(&r, 1, 1);
        opcoll_issue(&r.oc, &b, 1);
        run(&r, 2, 2);
        opcoll_issue(&r.oc, &c, 2);
        opcoll_issue(&r.oc, &d, 2);
        run(&r, 3, 4);
        TAP_EQ_U64(r.p.units[0].dispatched + r.p.units[1].dispatched, reserve ? 2u : 4u,
                   "%s: dispatched by cycle 4 (A, B; elastic: all four)", m);
        run(&r, 5, 20);
        TAP_OK(r.wb[0] == 6 && r.wb[1] == 8 && r.wb[2] == 9 && r.wb[3] == 10,
               "%s: wb 6, 8, 9, 10 (got %llu %llu %llu %llu)", m, (unsigned long long)r.wb[0],
               (unsigned long long)r.wb[1], (unsigned long long)r.wb[2], (unsigned long long)r.wb[3]);
        TAP_EQ_U64(r.p.st.resv_stall, reserve ? 1u : 0u, "%s: C refused once with the reservation, D waited behind it",
                   m);
        TAP_OK(reserve ? r.p.st.wb_width_stall == 0 : r.p.st.wb_width_stall >= 2,
               "%s: results queued at writeback only without it (%llu)", m, (unsigned long long)r.p.st.wb_width_stall);
        rig_fini(&r);
    }
}

static void t_exhaustion(void)
{
    struct rig r;
    rig_init(&r, NULL, NULL, NULL);
    /* Six SP ops, each reading 8 registers of bank 0 (r0, r16, ...), fill
     * the 6 SP collector units at cycles 0, 0, 1, 1, 2, 2. Bank 0 serves
     * one read per cycle, so op k finishes its reads at 8(k+1) and nothing
     * dispatches before 9: at cycle 3 every SP unit is busy. */
    uint64_t tag = 0;
    for (cycle_t t = 0; t < 3; t++) {
        pipes_tick(&r.p, &r.oc, t);
        for (int j = 0; j < 2; j++) {
            struct pipe_op a = mk(PIPE_C_INT_ADD, 0, tag, 8, S(0, 16, 32, 48, 64, 80, 96, 112), 1, S(1 + (int)tag));
            opcoll_issue(&r.oc, &a, t);
            tag++;
        }
    }
    pipes_tick(&r.p, &r.oc, 3);
    TAP_OK(!opcoll_can_accept(&r.oc, PIPE_C_INT_ADD, 3), "all 6 SP collectors busy: can_accept false (pipe busy)");
    TAP_OK(opcoll_can_accept(&r.oc, PIPE_C_F32_MUL, 3), "fp32 mul may still use an SFU collector");
    TAP_EQ_U64(opcoll_busy(&r.oc, PIPE_SP), 6, "6 SP units busy");
    /* Keep offering a 7th op every cycle until accepted; everything must
     * come out. Op 0's reads end at 8: dispatch 9, frees its unit at 9. */
    cycle_t accepted = CYCLE_NEVER;
    for (cycle_t t = 4; t < 200; t++) {
        pipes_tick(&r.p, &r.oc, t);
        opcoll_check(&r.oc);
        if (accepted == CYCLE_NEVER && opcoll_can_accept(&r.oc, PIPE_C_INT_ADD, t)) {
            struct pipe_op a = mk(PIPE_C_INT_ADD, 0, 6, 1, S(5), 1, S(40));
            opcoll_issue(&r.oc, &a, t);
            accepted = t;
        }
    }
    TAP_EQ_U64(accepted, 9, "7th op accepted at 9, when op 0 dispatched (8 reads at 1..8)");
    TAP_EQ_U64(r.n_wb, 7, "all 7 ops written back, none lost");
    TAP_EQ_U64(r.wb[0], 13, "op 0: dispatch 9, wb 9 + 4 = 13");
    /* The 7th op reads bank 5 at 10, dispatch 11, wb 15. */
    TAP_EQ_U64(r.wb[6], 15, "op 6: read 10, dispatch 11, wb 15");
    TAP_OK(pipes_idle(&r.p) && opcoll_busy(&r.oc, PIPE_SP) == 0, "drained");
    rig_fini(&r);
}

static void t_mem_and_ldst(void)
{
    struct rig r;
    rig_init(&r, NULL, NULL, NULL);
    /* ld.global r4, [r2:r3]: MEM collector, reads at 1, 2, latched at 3. */
    struct pipe_op m = mk(PIPE_C_MEM, 0, 0, 2, S(2, 3), 1, S(4));
    opcoll_issue(&r.oc, &m, 0);
    TAP_OK(!opcoll_can_accept(&r.oc, PIPE_C_MEM, 0), "MEM issue width 1");
    struct pipe_op out;
    run(&r, 1, 2);
    TAP_OK(!pipes_mem_pop(&r.p, &out), "nothing latched before cycle 3");
    run(&r, 3, 3);
    TAP_OK(pipes_mem_pop(&r.p, &out) && out.tag == 0, "MEM op latched at 3 and popped");
    /* The LD/ST unit returns it; writeback takes bank 4 at the next tick. */
    int pushed = 0;
    for (int i = 0; i < PIPES_LDST_WB_QUEUE + 2; i++) {
        struct pipe_op w = mk(PIPE_C_MEM, 0, (uint64_t)i, 0, NULL, 1, S(4));
        pushed += pipes_ldst_wb_push(&r.p, &w);
    }
    TAP_EQ_U64(pushed, PIPES_LDST_WB_QUEUE, "LD/ST writeback queue refuses when full (8 accepted of 10)");
    run(&r, 4, 20);
    /* 8 writes to bank 4, one per cycle (ldst_wb_width 1) at 4..11. */
    TAP_OK(r.wb[0] == 4 && r.wb[7] == 11, "LD/ST writebacks at 4 .. 11 (got %llu, %llu)",
           (unsigned long long)r.wb[0], (unsigned long long)r.wb[7]);
    TAP_EQ_U64(r.p.st.wb_ldst, 8, "8 LD/ST writebacks");
    rig_fini(&r);
}

/* NOTE(mem-in-order) in opcoll.c: a younger memory instruction of the same
 * warp whose operands arrive first still leaves the MEM collectors after
 * the older one; another warp's may pass it. */
static cycle_t mem_order_run(uint32_t warp_b, uint64_t *first_tag)
{
    struct rig r;
    rig_init(&r, NULL, NULL, NULL);
    /* A (warp 0): st [r0:r16], r32: three reads from bank 0 at 1, 2, 3, ready at 4 */
    struct pipe_op a = mk(PIPE_C_MEM, 0, 0, 3, S(0, 16, 32), 0, NULL);
    opcoll_issue(&r.oc, &a, 0);
    run(&r, 1, 1);
    /* B: ld r9, [r5]: one read at 2, ready at 3 */
    struct pipe_op b = mk(PIPE_C_MEM, warp_b, 1, 1, S(5), 1, S(9));
    opcoll_issue(&r.oc, &b, 1);
    cycle_t first = CYCLE_NEVER;
    *first_tag = UINT64_MAX;
    struct pipe_op out;
    for (cycle_t t = 2; t < 20 && first == CYCLE_NEVER; t++) {
        run(&r, t, t);
        if (pipes_mem_pop(&r.p, &out)) {
            first = t;
            *first_tag = out.tag;
        }
    }
    rig_fini(&r);
    return first;
}

static void t_mem_warp_order(void)
{
    uint64_t tag;
    cycle_t t = mem_order_run(0, &tag);
    TAP_EQ_U64(tag, 0, "same warp: the older store leaves the MEM collectors first");
    TAP_EQ_U64(t, 4, "same warp: the store is latched at 4 (reads at 1, 2, 3), the load after it");
    t = mem_order_run(1, &tag);
    TAP_EQ_U64(tag, 1, "other warp: the younger load passes the store");
    TAP_EQ_U64(t, 3, "other warp: the load is latched at 3 (read at 2)");
}

static void t_write_priority(void)
{
    struct rig r;
    rig_init(&r, NULL, NULL, NULL);
    /* Op A (add, src r1, dst r5) issued 0: read 1, dispatch 2, wb 6 into
     * bank 5. Op B (add, src r21 = bank 5) issued at 5: its read competes
     * with A's write at 6; the write goes first, so B reads at 7, dispatch
     * 8, wb 12. */
    struct pipe_op a = mk(PIPE_C_F32_ADD, 0, 0, 1, S(1), 1, S(5));
    struct pipe_op b = mk(PIPE_C_F32_ADD, 0, 1, 1, S(21), 1, S(6));
    opcoll_issue(&r.oc, &a, 0);
    run(&r, 1, 5);
    opcoll_issue(&r.oc, &b, 5);
    run(&r, 6, 20);
    TAP_OK(r.wb[0] == 6 && r.wb[1] == 12, "write has bank priority: wb 6 and 12 (got %llu %llu)",
           (unsigned long long)r.wb[0], (unsigned long long)r.wb[1]);
    rig_fini(&r);
}

/* ------------------------------------------------------------ classes */

static void t_classes(void)
{
    struct {
        uint8_t op, type;
        enum pipe_class want;
    } cases[] = {
        {PTX_OP_ADD, PTX_T_F32, PIPE_C_F32_ADD},   {PTX_OP_SUB, PTX_T_S32, PIPE_C_INT_ADD},
        {PTX_OP_MUL, PTX_T_S32, PIPE_C_INT_MUL},   {PTX_OP_MUL, PTX_T_F64, PIPE_C_F64_MUL},
        {PTX_OP_MAD, PTX_T_U32, PIPE_C_INT_MAD},   {PTX_OP_FMA, PTX_T_F32, PIPE_C_F32_MAD},
        {PTX_OP_DIV, PTX_T_F32, PIPE_C_F32_DIV},   {PTX_OP_REM, PTX_T_U32, PIPE_C_INT_DIV},
        {PTX_OP_MIN, PTX_T_F64, PIPE_C_F64_MAX},   {PTX_OP_SIN, PTX_T_F32, PIPE_C_SFU},
        {PTX_OP_LD, PTX_T_U32, PIPE_C_MEM},        {PTX_OP_MEMBAR, PTX_T_NONE, PIPE_C_MEM},
        {PTX_OP_SETP, PTX_T_F32, PIPE_C_ALU},      {PTX_OP_BRA, PTX_T_NONE, PIPE_C_ALU},
        {PTX_OP_CVT, PTX_T_F32, PIPE_C_ALU},       {PTX_OP_ATOM, PTX_T_U32, PIPE_C_MEM},
    };
    int ok = 1;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        struct ptx_insn in;
        memset(&in, 0, sizeof in);
        in.op = cases[i].op;
        in.type = cases[i].type;
        enum pipe_class got = pipes_class_of(&in);
        if (got != cases[i].want) {
            ok = 0;
            tap_diag("%s%s: got %s want %s", ptx_op_name((enum ptx_op)in.op), ptx_type_name((enum ptx_type)in.type),
                     pipes_class_info(got)->name, pipes_class_info(cases[i].want)->name);
        }
    }
    TAP_OK(ok, "pipes_class_of on 16 opcode/type pairs");
    const struct pipe_class_info *ci = pipes_class_info(PIPE_C_F64_DIV);
    TAP_OK(ci->lat == 330 && ci->ii == 130 && ci->pipes == PIPE_M_SFU, "fp64 div 330/130 SFU only");
    ci = pipes_class_info(PIPE_C_INT_MAX);
    TAP_OK(ci->lat == 13 && ci->ii == 2 && ci->pipes == PIPE_M_SP, "int max 13/2 SP");
    ci = pipes_class_info(PIPE_C_F32_MUL);
    TAP_OK(ci->pipes == (PIPE_M_SP | PIPE_M_SFU), "fp32 mul SP or SFU");
}

static void t_cfg(void)
{
    struct rf_cfg rf, rf2;
    struct oc_cfg oc, oc2;
    struct pipes_cfg pc, pc2;
    rf_cfg_defaults(&rf);
    oc_cfg_defaults(&oc);
    pipes_cfg_defaults(&pc);
    TAP_EQ_U64(opcoll_cfg_validate(&rf, &oc, NULL, NULL) + pipes_cfg_validate(&pc, NULL, NULL), 0,
               "defaults validate");
    TAP_EQ_U64(rf.n_banks * rf.entries_per_bank * 32, 32768, "16 x 64 x 32 = sm.n_regs 32768");
    /* The key tables' default strings parse to the same values. */
    memset(&rf2, 0xa5, sizeof rf2);
    memset(&oc2, 0xa5, sizeof oc2);
    memset(&pc2, 0xa5, sizeof pc2);
    int ok = 1;
    char why[128];
    for (size_t i = 0; i < rf_cfg_n_keys; i++)
        ok &= cfg_parse_value(&rf_cfg_keys[i], rf_cfg_keys[i].def, (char *)&rf2 + rf_cfg_keys[i].offset, why,
                              sizeof why);
    for (size_t i = 0; i < oc_cfg_n_keys; i++)
        ok &= cfg_parse_value(&oc_cfg_keys[i], oc_cfg_keys[i].def, (char *)&oc2 + oc_cfg_keys[i].offset, why,
                              sizeof why);
    for (size_t i = 0; i < pipes_cfg_n_keys; i++)
        ok &= cfg_parse_value(&pipes_cfg_keys[i], pipes_cfg_keys[i].def, (char *)&pc2 + pipes_cfg_keys[i].offset,
                              why, sizeof why);
    TAP_OK(ok, "every default parses");
    TAP_OK(rf2.n_banks == rf.n_banks && rf2.entries_per_bank == rf.entries_per_bank &&
               rf2.max_bank_accesses_per_cycle == rf.max_bank_accesses_per_cycle &&
               rf2.reads_per_unit == rf.reads_per_unit && rf2.policy == rf.policy &&
               rf2.busy_holds_slot == rf.busy_holds_slot && rf2.rm_ports == rf.rm_ports &&
               rf2.rm_domains == rf.rm_domains && rf2.rm_layout == rf.rm_layout &&
               rf2.rm_read_ticks == rf.rm_read_ticks && rf2.rm_write_ticks == rf.rm_write_ticks &&
               rf2.rm_shift_ticks == rf.rm_shift_ticks && rf2.rm_preshift == rf.rm_preshift &&
               rf2.rm_wb_entries == rf.rm_wb_entries && rf2.rm_wb_policy == rf.rm_wb_policy &&
               rf2.rm_wb_forward == rf.rm_wb_forward && rf2.rm_wb_void == rf.rm_wb_void &&
               rf2.rm_group_cmp == rf.rm_group_cmp && rf2.rm_arrange == rf.rm_arrange &&
               !strcmp(rf2.rm_profile_out, "none") && !strcmp(rf2.rm_profile_in, "none"),
           "rf key table defaults == rf_cfg_defaults");
    free(rf2.rm_profile_out); /* string keys: the parser's copies */
    free(rf2.rm_profile_in);
    TAP_OK(!memcmp(oc2.units, oc.units, sizeof oc.units) && !memcmp(oc2.in_ports, oc.in_ports, sizeof oc.in_ports) &&
               !memcmp(oc2.out_ports, oc.out_ports, sizeof oc.out_ports) && oc2.alloc_delay == oc.alloc_delay &&
               oc2.unit_map == oc.unit_map,
           "oc key table defaults == oc_cfg_defaults");
    TAP_OK(pc2.n_sp == pc.n_sp && pc2.n_sfu == pc.n_sfu && pc2.n_mem == pc.n_mem && pc2.wb_width == pc.wb_width &&
               pc2.ldst_wb_width == pc.ldst_wb_width && pc2.dispatch_delay == pc.dispatch_delay &&
               pc2.wb_reserve == pc.wb_reserve,
           "pipes key table defaults == pipes_cfg_defaults");
    oc.units[PIPE_SFU] = 0;
    pc.wb_width = 0;
    TAP_EQ_U64(opcoll_cfg_validate(&rf, &oc, NULL, NULL) + pipes_cfg_validate(&pc, NULL, NULL), 2,
               "zero SFU collectors and zero writeback width rejected");
}

/* ------------------------------------------------------------ reference */

/* A naive model of the same rules: linear scans over every op and every
 * request, ticked every cycle, no rings, no skipping. */
struct rop {
    struct pipe_op op;
    int state; /* 0 not issued, 1 collecting, 2 in pipe, 3 done */
    int set, pipe;
    cycle_t issue, ready_at, done, wb;
    uint64_t seq, dseq;
    int npend;
};
struct rreq {
    int op, bank, reg;
    bool granted;
};
struct ref {
    struct rf_cfg rf;
    struct oc_cfg oc;
    struct pipes_cfg pc;
    int fault; /* 1: bank = reg mod n (ignores the warp) */
    struct rop *ops;
    int n_ops;
    struct rreq *req;
    int n_req;
    cycle_t bank_busy[RF_MAX_BANKS]; /* RF ticks */
    cycle_t pipe_next[PIPES_MAX_UNITS];
    int in_now[3];
    int acc[RF_MAX_CLOCK_MULT];  /* accesses started per tick of the cycle */
    uint32_t rk, wk;             /* RF ticks per read / write (0 = 1) */
    uint64_t seq, dseq;
};

static uint32_t ref_mult(const struct ref *m) { return m->rf.clock_mult ? (uint32_t)m->rf.clock_mult : 1; }

static int rbank(const struct ref *m, int warp, int reg)
{
    return m->fault ? reg % (int)m->rf.n_banks : (reg + warp) % (int)m->rf.n_banks;
}

static int ref_busy(const struct ref *m, int set)
{
    int n = 0;
    for (int i = 0; i < m->n_ops; i++)
        n += m->ops[i].state == 1 && m->ops[i].set == set;
    return n;
}

static int ref_choose(const struct ref *m, int cls)
{
    uint8_t mask = pipes_class_info((enum pipe_class)cls)->pipes;
    for (int k = 0; k < 3; k++)
        if ((mask & (1u << k)) && m->in_now[k] < (int)m->oc.in_ports[k] && ref_busy(m, k) < (int)m->oc.units[k])
            return k;
    return -1;
}

/* Writes of cycle t: all banks at the first tick of t where every one is
 * free (docs/rf.md), tried tick by tick. */
static bool ref_write(struct ref *m, const struct pipe_op *op, cycle_t t)
{
    uint32_t mult = ref_mult(m), wk = m->wk ? m->wk : 1;
    for (uint32_t s = 0; s < mult; s++) {
        cycle_t tick = t * mult + s;
        int seen[RF_MAX_BANKS] = {0}, distinct = 0, ok = 1;
        for (int i = 0; i < op->n_dst; i++) {
            int b = rbank(m, (int)op->warp, op->dst[i]);
            if (m->bank_busy[b] > tick)
                ok = 0;
            if (!seen[b]++)
                distinct++;
        }
        if (!ok)
            continue;
        if (m->acc[s] + distinct > (int)m->rf.max_bank_accesses_per_cycle)
            return false;
        for (int i = 0; i < op->n_dst; i++) {
            int b = rbank(m, (int)op->warp, op->dst[i]);
            m->bank_busy[b] = (m->bank_busy[b] > tick ? m->bank_busy[b] : tick) + wk;
        }
        m->acc[s] += distinct;
        return true;
    }
    return false;
}

static int ref_inflight(const struct ref *m, int pipe)
{
    int n = 0;
    for (int i = 0; i < m->n_ops; i++)
        n += m->ops[i].state == 2 && m->ops[i].pipe == pipe;
    return n;
}

static void ref_cycle(struct ref *m, cycle_t t)
{
    memset(m->acc, 0, sizeof m->acc);
    m->in_now[0] = m->in_now[1] = m->in_now[2] = 0;
    /* writeback: oldest (done, dseq) first */
    int nw = 0;
    for (;;) {
        int best = -1;
        for (int i = 0; i < m->n_ops; i++) {
            struct rop *o = &m->ops[i];
            if (o->state != 2 || o->done > t || o->wb != CYCLE_NEVER - 1)
                continue;
            if (best < 0 || o->done < m->ops[best].done ||
                (o->done == m->ops[best].done && o->dseq < m->ops[best].dseq))
                best = i;
        }
        if (best < 0)
            break;
        struct rop *o = &m->ops[best];
        o->wb = CYCLE_NEVER - 2; /* visited this cycle */
        if (nw < (int)m->pc.wb_width && ref_write(m, &o->op, t)) {
            o->wb = t;
            o->state = 3;
            nw++;
        }
    }
    for (int i = 0; i < m->n_ops; i++)
        if (m->ops[i].wb == CYCLE_NEVER - 2)
            m->ops[i].wb = CYCLE_NEVER - 1;
    /* dispatch, per set oldest ready first */
    for (int k = 0; k < 2; k++) {
        for (int port = 0; port < (int)m->oc.out_ports[k]; port++) {
            int best = -1;
            for (int i = 0; i < m->n_ops; i++) {
                struct rop *o = &m->ops[i];
                if (o->state == 1 && o->set == k && o->npend == 0 && o->ready_at <= t &&
                    (best < 0 || o->seq < m->ops[best].seq))
                    best = i;
            }
            if (best < 0)
                break;
            int pipe = -1;
            for (int u = 0; u < (int)(m->pc.n_sp + m->pc.n_sfu) && pipe < 0; u++) {
                int kind = u < (int)m->pc.n_sp ? 0 : 1;
                if (kind == k && m->pipe_next[u] <= t && ref_inflight(m, u) < PIPES_MAX_INFLIGHT)
                    pipe = u;
            }
            if (pipe < 0)
                break;
            struct rop *o = &m->ops[best];
            const struct pipe_class_info *ci = pipes_class_info((enum pipe_class)o->op.cls);
            o->state = 2;
            o->pipe = pipe;
            o->done = t + ci->lat;
            o->dseq = m->dseq++;
            m->pipe_next[pipe] = t + ci->ii;
        }
    }
    /* reads, once per RF tick; a value read at tick T is usable at cycle
     * ceil((T + rk) / mult) */
    uint32_t mult = ref_mult(m), rk = m->rk ? m->rk : 1;
    int grants[MAX_OPS];
    for (uint32_t s = 0; s < mult; s++) {
        cycle_t tick = t * mult + s;
        memset(grants, 0, sizeof(int) * (size_t)m->n_ops);
        for (int i = 0; i < (int)m->rf.n_banks; i++) {
            int b = (int)((tick + (cycle_t)i) % m->rf.n_banks);
            int front = -1;
            for (int q = 0; q < m->n_req && front < 0; q++)
                if (!m->req[q].granted && m->req[q].bank == b)
                    front = q;
            if (front < 0)
                continue;
            struct rop *o = &m->ops[m->req[front].op];
            if (m->bank_busy[b] > tick || m->acc[s] >= (int)m->rf.max_bank_accesses_per_cycle || o->issue >= t ||
                (m->rf.reads_per_unit && grants[m->req[front].op] >= (int)m->rf.reads_per_unit))
                continue;
            m->req[front].granted = true;
            grants[m->req[front].op]++;
            m->bank_busy[b] = tick + rk;
            m->acc[s]++;
            o->npend--;
            cycle_t ready = (tick + rk + mult - 1) / mult;
            if (o->ready_at < ready)
                o->ready_at = ready;
        }
    }
}

static void ref_issue(struct ref *m, int i, int set, cycle_t t)
{
    struct rop *o = &m->ops[i];
    o->state = 1;
    o->set = set;
    o->issue = t;
    o->seq = m->seq++;
    o->npend = o->op.n_src;
    o->ready_at = o->op.n_src ? 0 : t + 1;
    for (int s = 0; s < o->op.n_src; s++)
        m->req[m->n_req++] = (struct rreq){i, rbank(m, (int)o->op.warp, o->op.src[s]), o->op.src[s], false};
    m->in_now[set]++;
}

/* ------------------------------------------------------------ random runs */

static void gen_ops(struct pipe_op *ops, int n, uint64_t seed)
{
    static const enum pipe_class cls[] = {PIPE_C_INT_ADD, PIPE_C_INT_MAX, PIPE_C_INT_MUL, PIPE_C_INT_MAD,
                                          PIPE_C_F32_ADD, PIPE_C_F32_MUL, PIPE_C_F32_MAD, PIPE_C_F64_ADD,
                                          PIPE_C_F64_MUL, PIPE_C_SFU,     PIPE_C_ALU,     PIPE_C_ALU,
                                          PIPE_C_F32_ADD, PIPE_C_F32_DIV};
    uint64_t x = seed;
    for (int i = 0; i < n; i++) {
#define RND() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
        struct pipe_op *o = &ops[i];
        memset(o, 0, sizeof *o);
        o->tag = (uint64_t)i;
        o->cls = (uint8_t)cls[RND() % ARRAY_LEN(cls)];
        o->warp = (uint32_t)(RND() % 48);
        o->n_src = (uint8_t)(RND() % 4);
        for (int s = 0; s < o->n_src; s++)
            o->src[s] = (uint16_t)(RND() % 64);
        o->n_dst = (uint8_t)(1 + RND() % 2);
        for (int d = 0; d < o->n_dst; d++)
            o->dst[d] = (uint16_t)(RND() % 64);
#undef RND
    }
}

/* In-order stream: each cycle try up to 2 next ops (the two schedulers);
 * stop at the first refused. Records issue cycles; the unit is ticked only
 * at the cycles it asked for (or after an issue), exercising the skip. */
static cycle_t run_unit(struct rig *r, const struct pipe_op *ops, int n, cycle_t *issue)
{
    int next = 0;
    cycle_t wake = 0, t;
    for (t = 0; t < 100000 && (int)r->n_wb < n; t++) {
        if (t >= wake) {
            wake = pipes_tick(&r->p, &r->oc, t);
            opcoll_check(&r->oc);
            pipes_check(&r->p);
        }
        for (int j = 0; j < 2 && next < n; j++) {
            if (!opcoll_can_accept(&r->oc, (enum pipe_class)ops[next].cls, t))
                break;
            opcoll_issue(&r->oc, &ops[next], t);
            issue[next++] = t;
            if (wake > t + 1)
                wake = t + 1;
        }
    }
    return t;
}

static void run_ref(struct ref *m, const struct pipe_op *ops, int n, cycle_t *issue, cycle_t *wb)
{
    m->ops = calloc((size_t)n, sizeof *m->ops);
    m->req = calloc((size_t)n * PIPE_MAX_SRC, sizeof *m->req);
    m->n_ops = n;
    for (int i = 0; i < n; i++) {
        m->ops[i].op = ops[i];
        m->ops[i].wb = CYCLE_NEVER - 1;
    }
    int next = 0, done = 0;
    for (cycle_t t = 0; t < 100000 && done < n; t++) {
        ref_cycle(m, t);
        for (int j = 0; j < 2 && next < n; j++) {
            int k = ref_choose(m, ops[next].cls);
            if (k < 0)
                break;
            ref_issue(m, next, k, t);
            issue[next++] = t;
        }
        done = 0;
        for (int i = 0; i < n; i++)
            done += m->ops[i].state == 3;
    }
    for (int i = 0; i < n; i++)
        wb[i] = m->ops[i].state == 3 ? m->ops[i].wb : CYCLE_NEVER;
    free(m->ops);
    free(m->req);
}

/* Number of ops whose (issue, wb) differ. */
static int compare(const cycle_t *ia, const cycle_t *wa, const cycle_t *ib, const cycle_t *wb, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (ia[i] != ib[i] || wa[i] != wb[i]) {
            if (bad < 3)
                tap_diag("op %d: issue %llu/%llu wb %llu/%llu", i, (unsigned long long)ia[i],
                         (unsigned long long)ib[i], (unsigned long long)wa[i], (unsigned long long)wb[i]);
            bad++;
        }
    return bad;
}

#define N_RAND 1500

static void t_random_vs_ref(void)
{
    static struct pipe_op ops[N_RAND];
    static cycle_t iu[N_RAND], ir[N_RAND], wr[N_RAND];
    /* Register-file policies given only by fixed access times (no hooks):
     * the reference needs nothing but the two numbers. */
    static const struct rf_policy_ops fixed_2_2 = {.name = "fixed_2_2", .read_ticks = 2, .write_ticks = 2};
    static const struct rf_policy_ops fixed_3_2 = {.name = "fixed_3_2", .read_ticks = 3, .write_ticks = 2};
    static const struct {
        uint64_t reads_per_unit, max_acc, mult;
        const struct rf_policy_ops *pol;
        const char *name;
    } variants[] = {{1, 16, 1, NULL, "defaults"},
                    {0, 16, 1, NULL, "reads_per_unit 0"},
                    {1, 4, 1, NULL, "max_bank_accesses 4"},
                    {2, 3, 1, NULL, "2 / 3"},
                    {1, 16, 2, NULL, "rf.clock_mult 2"},
                    {1, 16, 1, &fixed_2_2, "2-tick accesses"},
                    {1, 4, 2, &fixed_3_2, "rf.clock_mult 2, read 3 / write 2 ticks, max_bank_accesses 4"},
                    {0, 16, 3, &fixed_2_2, "rf.clock_mult 3, 2-tick accesses, reads_per_unit 0"}};
    for (size_t v = 0; v < ARRAY_LEN(variants); v++) {
        struct rf_cfg rf;
        rf_cfg_defaults(&rf);
        rf.reads_per_unit = variants[v].reads_per_unit;
        rf.max_bank_accesses_per_cycle = variants[v].max_acc;
        rf.clock_mult = variants[v].mult;
        gen_ops(ops, N_RAND, 0x9e3779b97f4a7c15ull + v);
        struct rig *r = malloc(sizeof *r);
        rig_init_pol(r, &rf, NULL, NULL, variants[v].pol);
        run_unit(r, ops, N_RAND, iu);
        struct ref m;
        memset(&m, 0, sizeof m);
        m.rf = rf;
        if (variants[v].pol) {
            m.rk = variants[v].pol->read_ticks;
            m.wk = variants[v].pol->write_ticks;
        }
        oc_cfg_defaults(&m.oc);
        pipes_cfg_defaults(&m.pc);
        m.oc.alloc_delay = 0; /* the naive reference has no latches (the rig above runs without them too) */
        m.pc.dispatch_delay = 0;
        m.pc.wb_reserve = false; /* nor the result-bus reservation */
        run_ref(&m, ops, N_RAND, ir, wr);
        TAP_EQ_U64(r->n_wb, N_RAND, "%s: unit wrote back all %d ops", variants[v].name, N_RAND);
        TAP_EQ_U64(compare(iu, r->wb, ir, wr, N_RAND), 0, "%s: unit == naive reference (issue and wb cycles)",
                   variants[v].name);
        if (v == 0) {
            /* Injected fault: the reference with bank = reg mod 16 must disagree. */
            struct ref f;
            memset(&f, 0, sizeof f);
            f.rf = rf;
            f.oc = m.oc;
            f.pc = m.pc;
            f.fault = 1;
            static cycle_t fi[N_RAND], fw[N_RAND];
            run_ref(&f, ops, N_RAND, fi, fw);
            int bad = compare(iu, r->wb, fi, fw, N_RAND);
            TAP_OK(bad > 0, "pipes_fault: a reference ignoring the warp in the bank mapping is caught (%d ops differ)",
                   bad);
            /* And a deliberately wrong expected set: shift one wb by 1. */
            wr[N_RAND / 2]++;
            TAP_EQ_U64(compare(iu, r->wb, ir, wr, N_RAND), 1, "pipes_fault: one wrong expected cycle is reported");
        }
        rig_fini(r);
        free(r);
    }
}

static void t_determinism(void)
{
    static struct pipe_op ops[N_RAND];
    static cycle_t i1[N_RAND], i2[N_RAND];
    gen_ops(ops, N_RAND, 42);
    struct rig *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    rig_init(a, NULL, NULL, NULL);
    rig_init(b, NULL, NULL, NULL);
    /* Statistics registry (registered before the run: the registry counts
     * from registration). */
    struct stats *st = stats_create();
    opcoll_stats_register(&a->oc, st, "sm.rf", 0);
    pipes_stats_register(&a->p, st, "sm.pipes", 0);
    cycle_t ea = run_unit(a, ops, N_RAND, i1);
    cycle_t eb = run_unit(b, ops, N_RAND, i2);
    TAP_OK(ea == eb && memcmp(i1, i2, sizeof i1) == 0 && memcmp(a->wb, b->wb, sizeof a->wb) == 0,
           "two runs give identical issue and writeback cycles (end %llu)", (unsigned long long)ea);
    opcoll_stats_sync(&a->oc, ea);
    opcoll_stats_sync(&b->oc, eb);
    TAP_OK(a->oc.rf.st.reads == b->oc.rf.st.reads && a->oc.conflict_cycles == b->oc.conflict_cycles &&
               memcmp(a->oc.busy_unit_cycles, b->oc.busy_unit_cycles, sizeof a->oc.busy_unit_cycles) == 0 &&
               memcmp(&a->p.st, &b->p.st, sizeof a->p.st) == 0,
           "identical statistics");
    uint64_t v = 0;
    TAP_OK(stats_get_u64(st, "sm.rf.reads", &v) && v == a->oc.rf.st.reads && v > 0, "sm.rf.reads registered (%llu)",
           (unsigned long long)v);
    TAP_OK(stats_get_u64(st, "sm.pipes.wb", &v) && v + a->p.st.wb_ldst == N_RAND, "sm.pipes.wb = %d", N_RAND);
    stats_destroy(st);
    rig_fini(a);
    rig_fini(b);
    free(a);
    free(b);
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"single fp32 add", t_single_add},
        {"GPGPU-Sim latches", t_latches},
        {"bank conflict", t_bank_conflict},
        {"three sources", t_three_sources},
        {"SP throughput", t_sp_throughput},
        {"fp64 II 8", t_fp64_ii},
        {"SFU only", t_sfu},
        {"SP or SFU, writeback width", t_sp_or_sfu},
        {"result-bus reservation", t_wb_reserve},
        {"collector exhaustion", t_exhaustion},
        {"MEM hand-off and LD/ST writeback", t_mem_and_ldst},
        {"MEM collectors keep one warp's order", t_mem_warp_order},
        {"write priority", t_write_priority},
        {"classes", t_classes},
        {"config", t_cfg},
        {"random vs reference, injected fault", t_random_vs_ref},
        {"determinism and stats", t_determinism},
    };
    return tap_run(tests, ARRAY_LEN(tests));
}
