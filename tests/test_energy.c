/* tests/test_energy.c: the event-based energy model (sim/energy/energy.c,
 * docs/energy.md).
 *
 * (1) Hand-computed energies on a registry of known counts: every built-in
 *     event (count x pJ), every static term (mW x instances x time), the
 *     DRAM background per DRAM cycle, the whole run and one kernel record,
 *     with keys chosen so that each term is a distinct, exactly
 *     representable number (arithmetic next to each check).
 * (2) The unit-event hook: a counter a unit registers (a racetrack shift
 *     count on two SMs) is charged at its key, in the run and per kernel;
 *     misuse panics are not exercised (they abort), the registry lookups
 *     they rely on are.
 * (3) Keys: all energy keys at 0 give 0 energy; negative, non-numeric,
 *     too large and misspelt keys are rejected with the key named; the gtx480
 *     preset sets every energy key.
 * (4) A real timing run (grid-stride axpy, 1024 elements, 8 CTAs x 128
 *     threads on gtx480): the L1D terms equal 32 loads x 300.075 pJ + 32
 *     stores x 287.815 pJ + 32 fills x 287.815 pJ + 40.856524 mW x 15 SMs x
 *     cycles x 1429 ps; the whole total equals the sum the test recomputes
 *     from the run's own counters; with every key 0 the total is 0; the
 *     statistics file carries the "energy" object.
 * (5) The run summary (sim/app/summary.c) with more kernel names than rows:
 *     5 rows, then "(2 more, 3 runs)", then the total.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpusim.h"
#include "sim/api/runtime_internal.h"
#include "sim/app/summary.h"
#include "sim/base/diag.h"
#include "sim/base/json.h"
#include "sim/base/stats.h"
#include "sim/cfg/config.h"
#include "sim/cfg/sim_cfg.h"
#include "sim/energy/energy.h"
#include "tap.h"

#define REL 1e-12 /* relative tolerance of exact-by-construction sums */

static bool near(double got, double want) { return fabs(got - want) <= REL * fmax(1.0, fabs(want)); }

/* A config with the given overrides (NULL-terminated); false on any error. */
static bool mkcfg(struct cfg *c, const char *const *ov)
{
    struct diag d;
    diag_init(&d);
    cfg_init(c);
    for (size_t i = 0; ov && ov[i]; i++)
        cfg_set(c, ov[i], "-o", &d);
    cfg_finish(c, &d);
    bool ok = diag_count(&d) == 0;
    if (!ok)
        diag_print(&d, stdout);
    diag_fini(&d);
    return ok;
}

/* 1 GHz core (1000 ps), 500 MHz DRAM (2000 ps), 2 SMs, 1 partition x 2 slices. */
static const char *const hand_keys[] = {
    "clock.core=1000MHz", "clock.icnt=1000MHz", "clock.l2=1000MHz", "clock.dram=500MHz", "gpu.n_sm=2",
    "mem.n_partitions=1", "mem.sub_per_partition=2",
    "energy.rf.read_pj=2", "energy.rf.write_pj=3", "energy.rf.shift_pj=4", "energy.rf.static_mw=5",
    "energy.l1d.read_pj=7", "energy.l1d.write_pj=11", "energy.l1d.fill_pj=13", "energy.l1d.static_mw=17",
    "energy.smem.access_pj=19", "energy.smem.static_mw=0",
    "energy.l2.read_pj=23", "energy.l2.write_pj=29", "energy.l2.atomic_pj=31", "energy.l2.static_mw=37",
    "energy.icnt.flit_pj=41", "energy.icnt.static_mw=43",
    "energy.dram.activate_pj=47", "energy.dram.precharge_pj=53", "energy.dram.read_pj=59",
    "energy.dram.write_pj=61", "energy.dram.refresh_pj=67", "energy.dram.background_mw=71",
    "energy.core.inst_pj=73", "energy.core.lane_pj=79", "energy.core.static_mw=83", NULL};

/* The counters of a fake timing run. */
struct fake {
    uint64_t cycles, reads[2], writes, loads, bypass, stores, l1fills, smem;
    uint64_t l2rd, l2wr, l2wb, l2at, l2fill, l2evict, reqf, repf, act, pre, rd, wr, dcyc, wi, ti;
    uint64_t shifts[2];
};

static void fake_register(struct stats *s, struct fake *f)
{
    stats_counter(s, "gpu", -1, "cycles", &f->cycles, "");
    stats_counter(s, "sm.oc", 0, "reads", &f->reads[0], "");
    stats_counter(s, "sm.oc", 1, "reads", &f->reads[1], "");
    stats_counter(s, "sm.oc", 0, "writes", &f->writes, "");
    stats_counter(s, "l1d", 0, "loads", &f->loads, "");
    stats_counter(s, "l1d", 0, "bypass_loads", &f->bypass, "");
    stats_counter(s, "l1d", 0, "stores", &f->stores, "");
    stats_counter(s, "l1d", 0, "fills", &f->l1fills, "");
    stats_counter(s, "ldst", 0, "smem_cycles", &f->smem, "");
    stats_counter(s, "l2", 0, "acc_read", &f->l2rd, "");
    stats_counter(s, "l2", 0, "acc_write", &f->l2wr, "");
    stats_counter(s, "l2", 0, "acc_writeback", &f->l2wb, "");
    stats_counter(s, "l2", 0, "acc_atomic", &f->l2at, "");
    stats_counter(s, "l2", 0, "fills", &f->l2fill, "");
    stats_counter(s, "l2", 0, "writebacks", &f->l2evict, "");
    stats_counter(s, "icnt.req", 0, "tx_flits", &f->reqf, "");
    stats_counter(s, "icnt.reply", 0, "tx_flits", &f->repf, "");
    stats_counter(s, "dram", 0, "activates", &f->act, "");
    stats_counter(s, "dram", 0, "precharges", &f->pre, "");
    stats_counter(s, "dram", 0, "rd_cmds", &f->rd, "");
    stats_counter(s, "dram", 0, "wr_cmds", &f->wr, "");
    stats_counter(s, "dram", 0, "cycles", &f->dcyc, "");
    stats_counter(s, "func", -1, "warp_insts", &f->wi, "");
    stats_counter(s, "func", -1, "thread_insts", &f->ti, "");
}

static const struct energy_event_val *find_ev(const struct energy_report *r, const char *st, const char *ev)
{
    for (size_t i = 0; i < r->n_events; i++)
        if (!strcmp(energy_structure_name(r->ev[i].structure), st) && !strcmp(r->ev[i].event, ev))
            return &r->ev[i];
    return NULL;
}

static void test_hand(void)
{
    struct cfg c;
    TAP_OK(mkcfg(&c, hand_keys), "hand config loads");
    struct stats *s = stats_create();
    struct fake f = {.cycles = 1000, .reads = {10, 20}, .writes = 5, .loads = 100, .bypass = 40, .stores = 8,
                     .l1fills = 6, .smem = 9, .l2rd = 4, .l2wr = 3, .l2wb = 2, .l2at = 1, .l2fill = 5, .l2evict = 6,
                     .reqf = 12, .repf = 13, .act = 2, .pre = 3, .rd = 4, .wr = 5, .dcyc = 500, .wi = 50, .ti = 1600,
                     .shifts = {7, 8}};
    fake_register(s, &f);
    struct energy_report r;
    energy_compute(s, &c, ENERGY_WHOLE_RUN, &r);
    TAP_OK(r.valid, "report valid with gpu.cycles registered");
    /* time = 1000 cycles x 1000 ps = 1e6 ps = 1000 ns */
    TAP_OK(near(r.time_ns, 1000), "time 1000 cycles x 1 ns = 1000 ns (got %g)", r.time_ns);
    /* rf: (10 + 20) x 2 + 5 x 3 = 75 pJ; static 5 mW x 2 SMs x 1 us = 10 nJ */
    TAP_OK(near(r.dynamic_nj[ENERGY_RF], 0.075) && near(r.static_nj[ENERGY_RF], 10), "rf 0.075 + 10 nJ (got %g + %g)",
           r.dynamic_nj[ENERGY_RF], r.static_nj[ENERGY_RF]);
    /* l1d: (100 - 40) x 7 + 8 x 11 + 6 x 13 = 420 + 88 + 78 = 586 pJ; 17 x 2 = 34 nJ */
    TAP_OK(near(r.dynamic_nj[ENERGY_L1D], 0.586) && near(r.static_nj[ENERGY_L1D], 34), "l1d 0.586 + 34 nJ (got %g + %g)",
           r.dynamic_nj[ENERGY_L1D], r.static_nj[ENERGY_L1D]);
    const struct energy_event_val *e = find_ev(&r, "l1d", "read");
    TAP_OK(e && e->count == 60, "l1d reads = loads - bypass loads = 60");
    /* smem: 9 x 19 = 171 pJ, static 0 */
    TAP_OK(near(r.dynamic_nj[ENERGY_SMEM], 0.171) && r.static_nj[ENERGY_SMEM] == 0, "smem 0.171 + 0 nJ");
    /* l2: 4x23 + 3x29 + 2x29 + 1x31 + 5x29 + 6x23 = 92+87+58+31+145+138 = 551 pJ; 37 x 2 slices = 74 nJ */
    TAP_OK(near(r.dynamic_nj[ENERGY_L2], 0.551) && near(r.static_nj[ENERGY_L2], 74), "l2 0.551 + 74 nJ (got %g + %g)",
           r.dynamic_nj[ENERGY_L2], r.static_nj[ENERGY_L2]);
    /* icnt: (12 + 13) x 41 = 1025 pJ; 43 x 2 networks x (2 SMs + 2 slices) = 344 nJ */
    TAP_OK(near(r.dynamic_nj[ENERGY_ICNT], 1.025) && near(r.static_nj[ENERGY_ICNT], 344),
           "icnt 1.025 + 344 nJ (got %g + %g)", r.dynamic_nj[ENERGY_ICNT], r.static_nj[ENERGY_ICNT]);
    /* dram: 2x47 + 3x53 + 4x59 + 5x61 + 0 refreshes = 94+159+236+305 = 794 pJ;
     * background 71 mW x 500 DRAM cycles x 2000 ps = 71 nJ */
    TAP_OK(near(r.dynamic_nj[ENERGY_DRAM], 0.794) && near(r.static_nj[ENERGY_DRAM], 71),
           "dram 0.794 + 71 nJ (got %g + %g)", r.dynamic_nj[ENERGY_DRAM], r.static_nj[ENERGY_DRAM]);
    e = find_ev(&r, "dram", "refresh");
    TAP_OK(e && e->count == 0 && e->nj == 0, "dram refresh: no statistic, 0 events");
    /* core: 50 x 73 + 1600 x 79 = 3650 + 126400 = 130050 pJ; 83 x 2 = 166 nJ */
    TAP_OK(near(r.dynamic_nj[ENERGY_CORE], 130.05) && near(r.static_nj[ENERGY_CORE], 166),
           "core 130.05 + 166 nJ (got %g + %g)", r.dynamic_nj[ENERGY_CORE], r.static_nj[ENERGY_CORE]);
    /* total: dynamic 133.252 nJ + static 10+34+0+74+344+71+166 = 699 nJ */
    TAP_OK(near(r.total_nj, 832.252), "total 832.252 nJ (got %.9g)", r.total_nj);

    /* The hook: a unit's shift counters on two SMs, at energy.rf.shift_pj = 4. */
    stats_counter(s, "sm.oc", 0, "shifts", &f.shifts[0], "");
    stats_counter(s, "sm.oc", 1, "shifts", &f.shifts[1], "");
    energy_event_register(s, "rf", "shift", &f.shifts[0], "energy.rf.shift_pj");
    energy_event_register(s, "rf", "shift", &f.shifts[1], "energy.rf.shift_pj");
    energy_compute(s, &c, ENERGY_WHOLE_RUN, &r);
    e = find_ev(&r, "rf", "shift");
    TAP_OK(e && e->count == 15 && near(e->nj, 0.060), "unit event rf.shift: 7 + 8 = 15 x 4 pJ = 0.060 nJ");
    TAP_OK(near(r.dynamic_nj[ENERGY_RF], 0.135), "rf dynamic 0.075 + 0.060 = 0.135 nJ (got %g)",
           r.dynamic_nj[ENERGY_RF]);

    /* One kernel: its record holds the differences only. */
    stats_kernel_begin(s, "k");
    f.cycles += 100;  /* 100 ns */
    f.reads[1] += 4;  /* 4 x 2 = 8 pJ */
    f.shifts[0] += 3; /* 3 x 4 = 12 pJ */
    f.act += 1;       /* 47 pJ */
    f.dcyc += 50;     /* 71 mW x 50 x 2000 ps = 7.1 nJ */
    f.ti += 10;       /* 790 pJ */
    stats_kernel_end(s);
    energy_compute(s, &c, 0, &r);
    TAP_OK(r.valid && near(r.time_ns, 100), "kernel 0: 100 cycles = 100 ns");
    TAP_OK(near(r.dynamic_nj[ENERGY_RF], 0.020) && near(r.static_nj[ENERGY_RF], 1.0),
           "kernel rf: 8 + 12 pJ = 0.020 nJ, 5 mW x 2 x 100 ns = 1 nJ (got %g + %g)", r.dynamic_nj[ENERGY_RF],
           r.static_nj[ENERGY_RF]);
    TAP_OK(near(r.dynamic_nj[ENERGY_DRAM], 0.047) && near(r.static_nj[ENERGY_DRAM], 7.1),
           "kernel dram: 47 pJ + 7.1 nJ background");
    TAP_OK(near(r.dynamic_nj[ENERGY_CORE], 0.79) && near(r.static_nj[ENERGY_CORE], 16.6), "kernel core: 0.79 + 16.6 nJ");
    /* statics of the kernel: (10 + 34 + 74 + 344 + 166) / 10 + 7.1 = 62.8 + 7.1 = 69.9 nJ;
     * dynamic 8 + 12 + 47 + 790 = 857 pJ */
    TAP_OK(near(r.total_nj, 70.757), "kernel total 70.757 nJ (got %.9g)", r.total_nj);
    energy_compute(s, &c, 1, &r);
    TAP_OK(!r.valid, "no kernel 1: report not valid");

    /* The JSON object. */
    char *buf = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&buf, &len);
    struct json_writer w;
    jw_init(&w, mf);
    jw_obj_begin(&w, NULL);
    energy_write_json(s, &c, &w);
    jw_obj_end(&w);
    jw_finish(&w);
    fclose(mf);
    TAP_CONTAINS(buf, "\"energy\": {", "JSON: energy object");
    TAP_CONTAINS(buf, "\"shift\": {", "JSON: the unit event is listed");
    TAP_CONTAINS(buf, "\"kernels\": [", "JSON: per-kernel records");
    TAP_CONTAINS(buf, "\"name\": \"k\"", "JSON: kernel name");
    free(buf);
    stats_destroy(s);
    cfg_fini(&c);

    /* Without gpu.cycles (functional mode) there is no report and no JSON member. */
    struct stats *fs = stats_create();
    mkcfg(&c, NULL);
    energy_compute(fs, &c, ENERGY_WHOLE_RUN, &r);
    TAP_OK(!r.valid && r.total_nj == 0, "no gpu.cycles: no report");
    stats_destroy(fs);
    cfg_fini(&c);
}

static void test_keys(void)
{
    struct cfg c;
    struct diag d;
    static const struct {
        const char *ov;
        const char *why;
    } bad[] = {
        {"energy.rf.read_pj=-1", "out of range"},
        {"energy.rf.read_pj=fast", "is not a number"},
        {"energy.dram.background_mw=2e9", "out of range"},
        {"energy.rf.reed_pj=1", "did you mean 'energy.rf.read_pj'"},
        {"energy.l3.read_pj=1", "unknown key"},
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        cfg_init(&c);
        diag_init(&d);
        int n = cfg_set(&c, bad[i].ov, "-o", &d);
        char *msg = diag_join(&d);
        TAP_OK(n == 1 && msg && strstr(msg, bad[i].why), "'%s' rejected: %s", bad[i].ov, msg ? msg : "(none)");
        free(msg);
        diag_fini(&d);
        cfg_fini(&c);
    }
    /* Every energy key declared, double, in the gtx480 preset. */
    cfg_init(&c);
    diag_init(&d);
    cfg_load(&c, "gtx480", &d);
    cfg_finish(&c, &d);
    TAP_EQ_U64(diag_count(&d), 0, "gtx480 loads");
    static const char *const keys[] = {"energy.rf.read_pj", "energy.l1d.static_mw", "energy.smem.access_pj",
                                       "energy.l2.atomic_pj", "energy.icnt.flit_pj", "energy.dram.background_mw",
                                       "energy.core.lane_pj"};
    bool all = true;
    for (size_t i = 0; i < ARRAY_LEN(keys); i++) {
        const char *o = cfg_value_origin(&c, keys[i]);
        all = all && o && strncmp(o, "default", 7) != 0;
    }
    TAP_OK(all, "gtx480 sets the energy keys itself");
    TAP_OK(c.values->energy.rf_read_pj == 103.88 && c.values->energy.dram_activate_pj == 12006,
           "gtx480 RF read 103.88 pJ (000 Table 3), DRAM ACT 12006 pJ (DRAMsim3 GDDR5)");
    diag_fini(&d);
    cfg_fini(&c);
}

/* ------------------------------------------------------------ a real run */

#define HDR ".version 7.0\n.target sm_70\n.address_size 64\n"
/* out[i] = in[i] * 3 + i, grid-stride over n elements (tests/test_timing.c). */
static const char *axpy_ptx = HDR
    ".visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<8>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [in];\n ld.param.u64 %rd2, [out];\n ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n"
    " mad.lo.s32 %r5, %r2, %r3, %r4;\n mov.u32 %r6, %nctaid.x;\n mul.lo.s32 %r7, %r6, %r3;\n"
    "LOOP:\n setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra DONE;\n"
    " mul.wide.u32 %rd3, %r5, 4;\n add.s64 %rd4, %rd1, %rd3;\n ld.global.u32 %r8, [%rd4];\n"
    " mad.lo.s32 %r9, %r8, 3, %r5;\n add.s64 %rd5, %rd2, %rd3;\n st.global.u32 [%rd5], %r9;\n"
    " add.s32 %r5, %r5, %r7;\n bra LOOP;\nDONE:\n ret;\n}\n";

/* Run axpy (1024 elements, 8 x 128 threads) in timing mode; NULL on failure. */
static gs_ctx *run_axpy(const char *const *extra)
{
    const char *ov[48] = {"sim.mode=timing"};
    size_t n = 1;
    for (size_t i = 0; extra && extra[i]; i++)
        ov[n++] = extra[i];
    ov[n] = NULL;
    gs_ctx *c = gs_ctx_create("gtx480", ov);
    if (!c) {
        tap_diag("gs_ctx_create: %s", gs_last_error(NULL));
        return NULL;
    }
    gs_module *m;
    gs_function *f;
    unsigned cnt = 1024;
    uint32_t in[1024], out[1024];
    for (unsigned i = 0; i < cnt; i++)
        in[i] = i * 5u + 2u;
    uint64_t din, dout;
    bool ok = gs_module_load_data(c, axpy_ptx, &m) == 0 && gs_module_get_function(m, "k", &f) == 0 &&
              gs_mem_alloc(c, &din, sizeof in) == 0 && gs_mem_alloc(c, &dout, sizeof out) == 0 &&
              gs_memcpy_htod(c, din, in, sizeof in) == 0;
    void *args[] = {&din, &dout, &cnt};
    ok = ok && gs_launch_kernel(f, 8, 1, 1, 128, 1, 1, 0, args) == 0 && gs_memcpy_dtoh(c, out, dout, sizeof out) == 0;
    for (unsigned i = 0; ok && i < cnt; i++)
        ok = out[i] == in[i] * 3u + i;
    if (!ok) {
        tap_diag("axpy: %s", gs_last_error(c));
        gs_ctx_destroy(c);
        return NULL;
    }
    return c;
}

static uint64_t st(const gs_ctx *c, const char *name)
{
    uint64_t v = 0;
    stats_get_u64(c->stats, name, &v);
    return v;
}

static void test_real_run(void)
{
    gs_ctx *c = run_axpy(NULL);
    TAP_OK(c != NULL, "axpy runs and verifies in timing mode");
    if (!c) {
        tap_skip(8, "no run");
        return;
    }
    struct energy_report r;
    energy_compute(c->stats, &c->cfg, ENERGY_WHOLE_RUN, &r);
    uint64_t cycles = st(c, "gpu.cycles");
    /* 1024 x 4 B coalesced per warp: 32 warps x one 128 B line each way */
    TAP_EQ_U64(st(c, "l1d.loads"), 32, "32 load transactions");
    TAP_EQ_U64(st(c, "l1d.stores"), 32, "32 store transactions");
    TAP_EQ_U64(st(c, "l1d.fills"), 32, "32 fills (every line loaded once)");
    double l1d = (32 * 300.075 + 32 * 287.815 + 32 * 287.815) * 1e-3 + 40.856524 * 15 * (double)cycles * 1429 * 1e-6;
    TAP_OK(near(energy_structure_total(&r, ENERGY_L1D), l1d), "L1D energy = hand formula %.9g nJ (got %.9g)", l1d,
           energy_structure_total(&r, ENERGY_L1D));
    /* the whole total from the run's own counters and the gtx480 keys */
    double dyn = st(c, "sm.oc.reads") * 103.88 + st(c, "sm.oc.writes") * 102.37 +
                 (st(c, "l1d.loads") - st(c, "l1d.bypass_loads")) * 300.075 + st(c, "l1d.stores") * 287.815 +
                 st(c, "l1d.fills") * 287.815 + st(c, "ldst.smem_cycles") * 38.09152 +
                 (st(c, "l2.acc_read") + st(c, "l2.writebacks")) * 955.427 +
                 (st(c, "l2.acc_write") + st(c, "l2.acc_writeback") + st(c, "l2.fills")) * 963.217 +
                 st(c, "l2.acc_atomic") * 1918.644 +
                 (st(c, "icnt.req.tx_flits") + st(c, "icnt.reply.tx_flits")) * 709.100672 +
                 st(c, "dram.activates") * 12006.0 + st(c, "dram.rd_cmds") * 2521.26 + st(c, "dram.wr_cmds") * 2841.42;
    double t_ps = (double)cycles * 1429;
    double stat = (14.41 + 40.856524 + 95.4883392) * 15 * t_ps * 1e-6 + 130.11257 * 12 * t_ps * 1e-6 +
                  36.50313 * 2 * (15 + 12) * t_ps * 1e-6 + 1350.0 * (double)st(c, "dram.cycles") * 1082 * 1e-6;
    double want = dyn * 1e-3 + stat;
    TAP_OK(fabs(r.total_nj - want) <= 1e-9 * want, "total = sum(count x pJ) + static = %.9g nJ (got %.9g)", want,
           r.total_nj);
    TAP_OK(st(c, "sm.oc.reads") > 0 && st(c, "icnt.req.tx_flits") > 0 && r.dynamic_nj[ENERGY_RF] > 0,
           "the run has register, interconnect and RF energy");
    char path[] = "/tmp/gpusim_energy_XXXXXX";
    int fd = mkstemp(path);
    bool wrote = fd >= 0 && gs_stats_write(c, path) == 0;
    char text[4096] = "";
    FILE *fp = wrote ? fopen(path, "rb") : NULL;
    if (fp) {
        /* find the energy object in the file */
        char line[512];
        size_t used = 0;
        bool in = false;
        while (fgets(line, sizeof line, fp) && used < sizeof text - 600) {
            if (strstr(line, "\"energy\": {"))
                in = true;
            if (in) {
                strcpy(text + used, line);
                used += strlen(line);
            }
        }
        fclose(fp);
    }
    if (fd >= 0) {
        close(fd);
        remove(path);
    }
    TAP_CONTAINS(text, "\"rf\": {", "stats file: energy.rf");
    TAP_CONTAINS(text, "\"dynamic\":", "stats file: energy.<structure>.dynamic");
    gs_ctx_destroy(c);

    /* every energy key at 0: no energy */
    static const char *const zero[] = {
        "energy.rf.read_pj=0", "energy.rf.write_pj=0", "energy.rf.shift_pj=0", "energy.rf.static_mw=0",
        "energy.l1d.read_pj=0", "energy.l1d.write_pj=0", "energy.l1d.fill_pj=0", "energy.l1d.static_mw=0",
        "energy.smem.access_pj=0", "energy.smem.static_mw=0", "energy.l2.read_pj=0", "energy.l2.write_pj=0",
        "energy.l2.atomic_pj=0", "energy.l2.static_mw=0", "energy.icnt.flit_pj=0", "energy.icnt.static_mw=0",
        "energy.dram.activate_pj=0", "energy.dram.precharge_pj=0", "energy.dram.read_pj=0",
        "energy.dram.write_pj=0", "energy.dram.refresh_pj=0", "energy.dram.background_mw=0",
        "energy.core.inst_pj=0", "energy.core.lane_pj=0", "energy.core.static_mw=0", NULL};
    c = run_axpy(zero);
    if (c) {
        energy_compute(c->stats, &c->cfg, ENERGY_WHOLE_RUN, &r);
        TAP_OK(r.valid && r.total_nj == 0 && st(c, "l1d.loads") == 32, "all keys 0: 0 nJ with the same events");
        gs_ctx_destroy(c);
    } else {
        TAP_OK(false, "all keys 0: run");
    }
}

/* ------------------------------------------------------------ the summary */

/* Seven trivial kernels k0..k6 (functional mode is enough for the rows). */
static const char *seven_ptx = HDR
    ".visible .entry k0() { ret; }\n.visible .entry k1() { ret; }\n.visible .entry k2() { ret; }\n"
    ".visible .entry k3() { ret; }\n.visible .entry k4() { ret; }\n.visible .entry k5() { ret; }\n"
    ".visible .entry k6() { ret; }\n";

static void test_summary_rows(void)
{
    gs_ctx *c = gs_ctx_create("gtx480", NULL);
    gs_module *m = NULL;
    bool ok = c && gs_module_load_data(c, seven_ptx, &m) == 0;
    for (int i = 0; ok && i < 8; i++) { /* k0 .. k6, then k6 again */
        char name[4] = {'k', (char)('0' + (i < 7 ? i : 6)), 0, 0};
        gs_function *f;
        ok = gs_module_get_function(m, name, &f) == 0 && gs_launch_kernel(f, 1, 1, 1, 32, 1, 1, 0, NULL) == 0;
    }
    TAP_OK(ok, "8 launches of 7 kernels (functional mode)");
    char *buf = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&buf, &len);
    summary_print(mf, c);
    fclose(mf);
    TAP_CONTAINS(buf, "\nk4 ", "5 kernel-name rows (k0 .. k4)");
    TAP_OK(!strstr(buf, "\nk5 "), "no row for k5");
    TAP_CONTAINS(buf, "(2 more, 3 runs)", "k5 and k6 (twice) in one row");
    TAP_CONTAINS(buf, "total (8 launches)", "total row counts every launch");
    free(buf);
    gs_ctx_destroy(c);
}

int main(void)
{
    tap_no_plan();
    test_hand();
    test_keys();
    test_real_run();
    test_summary_rows();
    return tap_exit();
}
