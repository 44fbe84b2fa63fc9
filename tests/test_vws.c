/* tests/test_vws.c: the cache-aware warp schedulers of issue 14 (ccws, iwl,
 * iwl_intracl, vws; sim/sm/sched/sched_ccws.c, sched_iwl*.c, sched_vws.c,
 * iwl_est.c) and serial CTA dispatch (sim/dispatch/dispatch_serial.c).
 *
 *  - the IWL estimator on hand-built access traces: counters, AMT
 *    deduplication and clears, Eq. 4.2 (N_pred), 4.1/4.4/4.5 (WS, RRDegr),
 *    4.6 and 4.3 (N_act), saturation, the sampling -> post stage;
 *  - CCWS on a scripted SM: a VTA hit's LLDS, the decay, the cutoff gate
 *    (hand-computed values);
 *  - the eligible set of iwl (CTA-interleaved) and iwl_intracl (CTA-major),
 *    the barrier rule and its counter; vws's level 1 and promotion class;
 *  - a microbenchmark kernel whose per-warp working set fits the L1D only
 *    when few warps run: ccws, iwl_intracl and vws must throttle and beat
 *    lrr by a margin derived from the configuration, with identical
 *    statistics for 1 and 2 host threads and with sim.tick_every_cycle;
 *  - serial dispatch: SM i runs [i*N/n_sm, (i+1)*N/n_sm).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpusim.h"
#include "sim/base/common.h"
#include "sim/dispatch/dispatch.h"
#include "sim/sm/lsu/l1d.h"
#include "sim/sm/sched/iwl_est.h"
#include "sim/sm/sched/sched.h"
#include "sim/sm/sched/sched_iwl.h"
#include "tap.h"

#define L(i) ((uint64_t)(i) * 128u) /* line address of line i */

/* ------------------------------------------------------ IWL estimator */

static void test_iwl_est(void)
{
    struct iwl_est e;
    struct iwl_est_cfg c = {0.5, 4.0, 64, 10, false, 0};
    iwl_est_init(&e, &c, 8);
    /* Eq. 4.2: N_pred = ceil(0.5 x 4 CTAs x 2 warps / 2 SMs) = 2 */
    iwl_est_kernel_start(&e, 4, 2, 2, 8, 4, 128);
    TAP_EQ_U64(e.n_pred, 2, "N_pred = ceil(alpha x CTAs x warps/CTA / SMs) = 2 (Eq. 4.2)");
    TAP_EQ_U64(e.n_act, 8, "sampling: N_act = resident warps");
    /* warp 0: misses on lines 0, 1, 2, then hits on 0, 1 */
    iwl_est_access(&e, 0, L(0), true);
    iwl_est_access(&e, 0, L(1), true);
    iwl_est_access(&e, 0, L(2), true);
    iwl_est_access(&e, 0, L(0), false);
    iwl_est_access(&e, 0, L(1), false);
    TAP_EQ_U64(e.acc_cnt[0], 5, "warp 0: 5 accesses");
    TAP_EQ_U64(e.miss_cnt[0], 3, "warp 0: 3 counted misses");
    /* warp 1: line 0 again (marked by warp 0), line 3 (new), line 64 (same AMT bit as line 0) */
    iwl_est_access(&e, 1, L(0), true);
    iwl_est_access(&e, 1, L(3), true);
    iwl_est_access(&e, 1, L(64), true);
    TAP_EQ_U64(e.miss_cnt[1], 1, "warp 1: only line 3 counted (AMT dedup, line 64 aliases line 0 in 64 entries)");
    TAP_EQ_U64(e.st.amt_hits, 2, "2 misses found their AMT bit set");
    /* warp 0 completes: first estimate WS = 3, RRDegr = 5/3; still sampling */
    TAP_OK(!iwl_est_warp_done(&e, 0, 100), "first completion: still sampling, N_act unchanged");
    TAP_NEAR(e.ws, 3.0, 1e-12, "WS = 3 after the first warp");
    TAP_NEAR(e.rr, 5.0 / 3.0, 1e-12, "RRDegr = 5/3 (Eq. 4.5)");
    TAP_EQ_U64(e.stage, IWL_SAMPLING, "stage SAMPLING after 1 of N_pred = 2");
    TAP_EQ_U64(e.acc_cnt[0] + e.miss_cnt[0], 0, "warp 0's counters cleared");
    /* warp 1 completes: WS = 3/2 + 1/2 = 2, RRDegr = 5/6 + 3/2 = 7/3; post; N_act = ceil(4*4/(2*7/3)) = 4 */
    TAP_OK(iwl_est_warp_done(&e, 1, 250), "second completion changes N_act");
    TAP_NEAR(e.ws, 2.0, 1e-12, "WS = 2 (Eq. 4.1, weight 1/2)");
    TAP_NEAR(e.rr, 7.0 / 3.0, 1e-12, "RRDegr = 7/3 (Eq. 4.4)");
    TAP_EQ_U64(e.stage, IWL_POST, "stage POST after N_pred completions");
    TAP_EQ_U64(e.st.stage_cycle, 250, "stage change cycle recorded");
    TAP_EQ_U64(e.n_act, 4, "N_act = ceil(beta x 4 lines / (WS x RRDegr)) = ceil(3.43) = 4 (Eq. 4.6)");
    TAP_EQ_U64(e.st.amt_clears, 1, "AMT cleared after N_pred completions");
    iwl_est_access(&e, 2, L(0), true);
    TAP_EQ_U64(e.miss_cnt[2], 1, "after the clear, line 0 counts again");
    /* warp 2: 1 counted miss, 1 access: WS = 1 + 1/2 = 1.5, RR = 7/6 + 1/2 = 5/3: N_act = ceil(16/2.5) = 7 */
    TAP_OK(iwl_est_warp_done(&e, 2, 300), "third completion changes N_act");
    TAP_EQ_U64(e.n_act, 7, "post-sampling updates continue: N_act = ceil(16 / 2.5) = 7");
    /* Q5: a warp without counted misses: WS_new = 1 (no division by zero) */
    iwl_est_access(&e, 3, L(3), false);
    iwl_est_access(&e, 3, L(3), false);
    iwl_est_warp_done(&e, 3, 310);
    TAP_NEAR(e.ws, 1.25, 1e-12, "WS_new = max(1, 0) = 1: WS = 0.75 + 0.5");
    TAP_NEAR(e.rr, 5.0 / 6.0 + 1.0, 1e-12, "RR_new = 2 / 1: RRDegr = 5/6 + 1");
    TAP_EQ_U64(e.n_act, 7, "N_act = ceil(16 / (1.25 x 11/6)) = ceil(6.98) = 7");
    TAP_EQ_U64(iwl_est_nact(&e, 100.0, 100.0), 1, "N_act clamps at 1");
    TAP_EQ_U64(iwl_est_nact(&e, 0.1, 1.0), 8, "N_act clamps at the resident warps");
    iwl_est_fini(&e);

    /* Eq. 4.3 and saturation */
    struct iwl_est_cfg b = {0.1, 4.0, 8192, 2, true, 0};
    iwl_est_init(&e, &b, 4);
    iwl_est_kernel_start(&e, 1, 1, 15, 4, 8, 128);
    TAP_EQ_U64(e.n_pred, 1, "N_pred >= 1");
    for (int i = 0; i < 5; i++)
        iwl_est_access(&e, 0, L(10 + i), true);
    TAP_EQ_U64(e.acc_cnt[0], 3, "2-bit access counter saturates at 3");
    TAP_EQ_U64(e.miss_cnt[0], 3, "2-bit miss counter saturates at 3");
    iwl_est_warp_done(&e, 0, 5);
    TAP_EQ_U64(e.n_act, 3, "basic: N_act = ceil(8 lines / WS 3) = 3 (Eq. 4.3)");
    iwl_est_kernel_start(&e, 1, 1, 15, 4, 8, 128);
    TAP_OK(e.stage == IWL_SAMPLING && e.n_act == 4 && !e.have_est, "kernel start resets stage, N_act, estimate");
    iwl_est_fini(&e);

    /* NOTE(vws-swl): static N_act from kernel start, capped at the resident warps; the estimate runs on */
    struct iwl_est_cfg sw = {0.5, 4.0, 64, 10, false, 3};
    iwl_est_init(&e, &sw, 8);
    iwl_est_kernel_start(&e, 4, 2, 2, 8, 4, 128);
    TAP_EQ_U64(e.n_act, 3, "static_nact 3: N_act = 3 from kernel start (no sampling stage)");
    iwl_est_access(&e, 0, L(0), true);
    iwl_est_warp_done(&e, 0, 10);
    iwl_est_access(&e, 1, L(1), true);
    TAP_OK(!iwl_est_warp_done(&e, 1, 20), "static: a post-sampling completion does not change N_act");
    TAP_OK(e.stage == IWL_POST && e.n_act == 3 && e.ws == 1.0, "static: stage and WS still follow Eq. 4.1, N_act stays 3");
    iwl_est_kernel_start(&e, 4, 2, 2, 2, 4, 128);
    TAP_EQ_U64(e.n_act, 2, "static_nact 3 with 2 resident warps: N_act = 2");
    iwl_est_fini(&e);
}

/* ------------------------------------------------------ scripted SM */

#define NW 8
struct fake {
    enum wsched_why why[NW]; /* check() answer per warp */
    bool load[NW];           /* next instruction is an L1D load */
    uint32_t log[256];
    uint32_t n_log;
};

static enum wsched_why f_check(void *ctx, uint32_t w) { return ((struct fake *)ctx)->why[w]; }
static uint32_t f_issue(void *ctx, uint32_t w)
{
    struct fake *f = ctx;
    if (f->n_log < 256)
        f->log[f->n_log++] = w;
    return 0;
}
static bool f_load(void *ctx, uint32_t w) { return ((struct fake *)ctx)->load[w]; }

static void mk(struct wsched *s, int policy, void (*tweak)(struct wsched_cfg *))
{
    struct wsched_cfg c;
    wsched_cfg_defaults(&c);
    c.policy = policy;
    c.n_sched = 1;
    if (tweak)
        tweak(&c);
    wsched_init(s, &c, NW);
}

/* A cycle in which no warp is ready (the framework requires the cycle
 * after an issue to be ticked). */
static void quiet(struct wsched *s, struct fake *f, const struct wsched_port *port, cycle_t t)
{
    enum wsched_why keep[NW];
    memcpy(keep, f->why, sizeof keep);
    for (uint32_t w = 0; w < NW; w++)
        f->why[w] = WSCHED_SCOREBOARD;
    wsched_tick(s, t, port);
    memcpy(f->why, keep, sizeof keep);
}

static void test_ccws(void)
{
    struct wsched s;
    struct fake f;
    memset(&f, 0, sizeof f);
    struct wsched_port port = {&f, f_check, f_issue, NULL, f_load, NULL, NULL, false, NULL};
    mk(&s, WSCHED_CCWS, NULL);
    struct wsched_kernel_info ki = {4, 1, 1, 1, 0, 256, 128};
    wsched_kernel_start(&s, &ki);
    for (uint32_t w = 0; w < 4; w++) {
        wsched_warp_cta(&s, w, 0);
        wsched_warp_launch(&s, w, 0);
        f.why[w] = WSCHED_READY;
    }
    /* 10 non-load instructions at cycles 1..10 */
    for (cycle_t t = 1; t <= 10; t++)
        wsched_tick(&s, t, &port);
    TAP_EQ_U64(f.n_log, 10, "10 instructions issued");
    quiet(&s, &f, &port, 11);
    /* warp 0's line 5 is evicted, then warp 0 misses on it at cycle 20: a VTA hit */
    wsched_set_now(&s, 15);
    wsched_on_l1(&s, 0, L1D_EV_EVICT, L(5));
    wsched_set_now(&s, 20);
    wsched_on_l1(&s, 1, L1D_EV_MISS, L(5)); /* another warp's VTA does not hold it */
    TAP_NEAR(wsched_ccws_score(&s, 1), 100.0, 1e-9, "warp 1 misses line 5: no VTA hit, score stays BASE");
    wsched_on_l1(&s, 0, L1D_EV_MISS, L(5));
    /* LLDS = (1 VTA hit / 10 instructions) x K 8 x cutoff (4 warps x 100) = 320 */
    TAP_NEAR(wsched_ccws_score(&s, 0), 420.0, 1e-9, "VTA hit: LLS = 100 + 1/10 x 8 x 400 = 420");
    wsched_set_now(&s, 50);
    TAP_NEAR(wsched_ccws_score(&s, 0), 390.0, 1e-9, "decay 1 per cycle: 390 at cycle 50");
    /* at cycle 50 every warp wants a load: stacked 390, 490 > 400: only warp 0 may load */
    for (uint32_t w = 0; w < 4; w++)
        f.load[w] = true;
    f.n_log = 0;
    wsched_tick(&s, 50, &port);
    TAP_OK(f.n_log == 1 && f.log[0] == 0, "cycle 50: only warp 0 (highest score) issues a load (issued %u)",
           f.n_log ? f.log[0] : 99);
    TAP_OK(!s.no_load[0] && s.no_load[1] && s.no_load[2] && s.no_load[3], "warps 1-3 gated (stacked past 400)");
    quiet(&s, &f, &port, 51);
    /* cycle 339: 101 + 100 + 100 = 301, + 100 = 401 > 400: only the youngest of the ties (warp 3) gated */
    wsched_tick(&s, 339, &port);
    TAP_OK(!s.no_load[0] && !s.no_load[1] && !s.no_load[2] && s.no_load[3], "cycle 339: only warp 3 gated");
    quiet(&s, &f, &port, 340);
    TAP_OK(!s.no_load[3], "cycle 340: all scores at BASE, nothing gated");
    TAP_NEAR(wsched_ccws_score(&s, 0), 100.0, 1e-9, "score decays to BASE and stays");
    quiet(&s, &f, &port, 341);
    /* a gated warp still issues non-load instructions */
    wsched_set_now(&s, 400);
    wsched_on_l1(&s, 2, L1D_EV_EVICT, L(9));
    wsched_on_l1(&s, 2, L1D_EV_MISS, L(9));
    f.load[0] = f.load[1] = f.load[2] = false;
    f.why[0] = f.why[1] = f.why[2] = WSCHED_SCOREBOARD;
    f.n_log = 0;
    wsched_tick(&s, 401, &port);
    TAP_OK(f.n_log == 0 && s.no_load[3], "warp 3's load is gated and nothing else is ready");
    cycle_t nxt = wsched_tick(&s, 402, &port);
    TAP_EQ_U64(nxt, 403, "a held ready warp keeps the scheduler ticking (decay may release it)");
    TAP_OK(s.units[0].st.throttled >= 2 && s.units[0].st.stall[WSCHED_POLICY] >= 2,
           "gated cycles are charged as stall_policy and counted as throttled");
    f.load[3] = false;
    wsched_tick(&s, 403, &port);
    TAP_OK(f.n_log == 1 && f.log[0] == 3, "warp 3's non-load instruction issues while its loads are gated");
    wsched_check(&s);
    wsched_fini(&s);
}

static void set_post(struct wsched *s, uint32_t n_act)
{
    struct iwl_sm *p = s->spstate;
    p->est.stage = IWL_POST;
    p->est.n_act = n_act;
    p->upd_cycle = CYCLE_NEVER;
}

/* 3 CTAs x 2 warps in slots 0..5 (CTA c in slots 2c, 2c+1, linear id 10 + c). */
static void launch6(struct wsched *s, struct fake *f)
{
    struct wsched_kernel_info ki = {2, 3, 3, 1, 0, 256, 128};
    wsched_kernel_start(s, &ki);
    for (uint32_t w = 0; w < 6; w++) {
        wsched_warp_cta(s, w, 10 + w / 2);
        wsched_warp_launch(s, w, w / 2);
        f->why[w] = WSCHED_READY;
    }
}

static uint32_t emask(const struct wsched *s)
{
    const struct iwl_sm *p = s->spstate;
    uint32_t m = 0;
    for (uint32_t w = 0; w < NW; w++)
        m |= (uint32_t)p->in_e[w] << w;
    return m;
}

static void tweak_loads(struct wsched_cfg *c) { c->throttle_mode = WSCHED_BLOCK_LOADS; }
static void tweak_cap2(struct wsched_cfg *c) { c->vws_l1_cap = 2; }
static void tweak_spin4(struct wsched_cfg *c) { c->vws_spin_guard = 4; }

static void test_eligible(void)
{
    struct fake f;
    struct wsched s;
    memset(&f, 0, sizeof f);
    struct wsched_port port = {&f, f_check, f_issue, NULL, f_load, NULL, NULL, false, NULL};
    /* iwl: CTA-interleaved (warp index, CTA age): slots 0, 2, 4 first */
    mk(&s, WSCHED_IWL, NULL);
    launch6(&s, &f);
    set_post(&s, 3);
    wsched_tick(&s, 1, &port);
    TAP_EQ_U64(emask(&s), 0x15, "iwl: E = warp 0 of CTAs 0, 1, 2 (slots 0, 2, 4)");
    for (cycle_t t = 2; t < 20; t++)
        wsched_tick(&s, t, &port);
    bool only_e = true;
    for (uint32_t i = 0; i < f.n_log; i++)
        only_e &= (0x15u >> f.log[i]) & 1u;
    TAP_OK(only_e && f.n_log == 19, "block_all: only E's warps issue");
    /* barrier rule: slot 0 waits at a barrier: it stays in E, slot 1 joins */
    f.why[0] = WSCHED_BARRIER;
    wsched_tick(&s, 20, &port);
    TAP_EQ_U64(emask(&s), 0x17, "barrier waiter does not count: E = 0 (barrier), 2, 4, 1");
    TAP_EQ_U64(((struct iwl_sm *)s.spstate)->barrier_guard, 1, "one barrier-guard activation");
    wsched_tick(&s, 21, &port);
    TAP_EQ_U64(((struct iwl_sm *)s.spstate)->barrier_guard, 1, "counted on the rising edge only");
    wsched_fini(&s);

    /* iwl_intracl: CTA-major: slots 0, 1, 2 */
    mk(&s, WSCHED_IWL_INTRACL, NULL);
    launch6(&s, &f);
    set_post(&s, 3);
    f.why[0] = WSCHED_READY;
    wsched_tick(&s, 1, &port);
    TAP_EQ_U64(emask(&s), 0x07, "iwl_intracl: E = contiguous slots 0, 1, 2 (CTA 0, then CTA 1)");
    wsched_warp_exit(&s, 1);
    set_post(&s, 3); /* the exit updated the estimate; pin N_act again */
    wsched_tick(&s, 2, &port);
    TAP_EQ_U64(emask(&s), 0x0d, "exit of slot 1: E = 0, 2, 3");
    wsched_fini(&s);

    /* NOTE(vws-spin) with a window of 4 instructions: E = {0}; the 5th instruction without an L1D access
     * opens E to every warp for 4 instructions; an L1D access restarts the count */
    mk(&s, WSCHED_IWL_INTRACL, tweak_spin4);
    launch6(&s, &f);
    set_post(&s, 1);
    for (cycle_t t = 1; t <= 5; t++)
        wsched_tick(&s, t, &port);
    TAP_EQ_U64(((struct iwl_sm *)s.spstate)->spin_guard, 1, "spin guard: opened at the 5th instruction without an L1D access");
    wsched_tick(&s, 6, &port);
    TAP_EQ_U64(emask(&s), 0x3f, "spin guard: E = every warp");
    for (cycle_t t = 7; t <= 9; t++)
        wsched_tick(&s, t, &port);
    wsched_tick(&s, 10, &port);
    TAP_EQ_U64(emask(&s), 0x01, "spin guard: after 4 instructions the throttle resumes (E = slot 0)");
    for (cycle_t t = 11; t <= 13; t++)
        wsched_tick(&s, t, &port);
    wsched_on_l1(&s, 0, L1D_EV_HIT, L(1));
    for (cycle_t t = 14; t <= 17; t++)
        wsched_tick(&s, t, &port);
    TAP_OK(emask(&s) == 0x01 && ((struct iwl_sm *)s.spstate)->spin_guard == 1,
           "an L1D access restarts the count: no second opening after 4 + 4 instructions");
    wsched_on_l1(&s, 0, L1D_EV_OTHER, L(1));
    wsched_tick(&s, 18, &port);
    TAP_EQ_U64(((struct iwl_sm *)s.spstate)->spin_guard, 2, "a bypassing load or atomic (L1D_EV_OTHER) does not");
    wsched_fini(&s);

    /* block_loads: warps outside E issue non-loads but not loads */
    mk(&s, WSCHED_IWL_INTRACL, tweak_loads);
    launch6(&s, &f);
    set_post(&s, 1);
    for (uint32_t w = 0; w < 6; w++)
        f.why[w] = w == 0 ? WSCHED_SCOREBOARD : WSCHED_READY;
    f.load[4] = true;
    f.n_log = 0;
    wsched_tick(&s, 1, &port);
    TAP_OK(f.n_log == 1 && f.log[0] != 4 && f.log[0] != 0, "block_loads: a non-E warp's non-load issues (warp %u)",
           f.n_log ? f.log[0] : 99);
    for (uint32_t w = 1; w < 6; w++)
        f.load[w] = true;
    f.n_log = 0;
    wsched_tick(&s, 2, &port);
    TAP_OK(f.n_log == 0 && s.no_load[4] && !s.no_load[0], "block_loads: loads outside E are gated");
    wsched_fini(&s);

    /* vws: level 1 of capacity 2 over E = 4 CTA-major warps */
    mk(&s, WSCHED_VWS, tweak_cap2);
    launch6(&s, &f);
    set_post(&s, 4);
    f.n_log = 0;
    wsched_tick(&s, 1, &port);
    struct iwl_sm *p = s.spstate;
    TAP_OK(p->in_l1[0] && p->in_l1[1] && p->n_l1 == 2, "vws: level 1 = slots 0, 1 (oldest CTA)");
    TAP_EQ_U64(p->promo_class[3] + p->promo_class[0], 2, "first promotion P4 (empty level 1), then P1 (same CTA)");
    TAP_EQ_U64(p->promo_class[0], 1, "one P1 promotion");
    /* slot 1 stalls on a long-latency load: demoted; successor CTA 11 (slot 2) promoted before slot 4 */
    struct wsched_unit *u = &s.units[0];
    s.pol->on_issue(&s, u, 1, WSCHED_ISSUE_LONG);
    f.why[1] = WSCHED_SCOREBOARD;
    wsched_touch(&s, 1);
    wsched_tick(&s, 2, &port);
    TAP_OK(!p->in_l1[1] && p->in_l1[0] && p->n_l1 == 2, "long-latency stall demotes slot 1");
    TAP_OK(p->in_l1[2] || p->in_l1[3], "replacement from the successor CTA (P3), slot %s",
           p->in_l1[2] ? "2" : "3");
    TAP_EQ_U64(p->promo_class[2], 1, "one P3 promotion");
    TAP_EQ_U64(p->demotions, 1, "one demotion");
    bool l1only = true;
    for (uint32_t i = 0; i < f.n_log; i++)
        l1only &= f.log[i] == 0 || f.log[i] == 1 || f.log[i] == 2;
    TAP_OK(l1only, "only level-1 warps issued");
    /* slot 0 waits at a barrier: demoted (NOTE(vws-l1-barrier)), its place goes to slot 3 (P1, CTA 11) */
    f.why[0] = WSCHED_BARRIER;
    wsched_tick(&s, 3, &port);
    TAP_OK(!p->in_l1[0] && p->in_l1[2] && p->in_l1[3] && p->n_l1 == 2, "barrier waiter demoted, sibling of CTA 11 promoted");
    TAP_EQ_U64(p->demotions, 2, "two demotions");
    wsched_check(&s);
    wsched_fini(&s);
}

/* ------------------------------------------------------ serial dispatch */

struct dh {
    struct dispatcher d;
    uint32_t sm_of[64]; /* SM each CTA started on */
    uint32_t n;
};
static void dh_start(void *ctx, uint32_t sm, uint32_t cta, struct dispatch_dim3 xyz)
{
    (void)xyz;
    struct dh *h = ctx;
    h->sm_of[cta] = sm;
    h->n++;
}
static bool dh_drained(void *ctx) { (void)ctx; return true; }

static void test_serial_dispatch(void)
{
    struct dh *h = calloc(1, sizeof *h);
    struct dispatch_cfg c;
    dispatch_cfg_defaults(&c);
    c.policy = DISPATCH_POLICY_SERIAL;
    struct sm_cfg sm = {0};
    struct smem_cfg smem = {0};
    sm.max_cta = 2; /* 2 CTAs per SM at a time */
    sm.max_threads = 1536;
    sm.max_warps = 48;
    sm.n_regs = 32768;
    sm.max_block_threads = 1024;
    smem.size = 48 * 1024;
    struct dispatch_port p = {h, dh_start, dh_drained, NULL, NULL};
    dispatch_init(&h->d, &c, &sm, &smem, 3, &p);
    struct dispatch_launch l = {"k", 0, {10, 1, 1}, {64, 1, 1}, 8, 0};
    TAP_EQ_I64(dispatch_launch(&h->d, &l, 0), DISPATCH_OK, "launch 10 CTAs on 3 SMs");
    dispatch_step(&h->d, 1);
    /* ranges [0,3) [3,6) [6,10); two slots each: 0 1 | 3 4 | 6 7 */
    TAP_EQ_U64(h->n, 6, "first step fills 2 slots on each SM");
    TAP_OK(h->sm_of[0] == 0 && h->sm_of[1] == 0 && h->sm_of[3] == 1 && h->sm_of[4] == 1 && h->sm_of[6] == 2 &&
               h->sm_of[7] == 2, "SM i starts at floor(i*N/n_sm)");
    dispatch_cta_done(&h->d, 2, 6); /* SM 2 frees a slot first */
    dispatch_cta_done(&h->d, 1, 3);
    dispatch_step(&h->d, 2);
    TAP_OK(h->n == 8 && h->sm_of[8] == 2 && h->sm_of[5] == 1, "freed slots take the SM's own next CTA");
    dispatch_cta_done(&h->d, 0, 0);
    dispatch_step(&h->d, 3);
    TAP_OK(h->n == 9 && h->sm_of[2] == 0, "SM 0 takes CTA 2, the end of its range");
    dispatch_cta_done(&h->d, 0, 1);
    dispatch_cta_done(&h->d, 0, 2);
    dispatch_step(&h->d, 4);
    TAP_EQ_U64(h->n, 9, "no stealing: SM 0 idles while CTA 9 waits for SM 2");
    dispatch_cta_done(&h->d, 2, 7);
    dispatch_step(&h->d, 5);
    TAP_OK(h->n == 10 && h->sm_of[9] == 2, "CTA 9 runs on SM 2");
    dispatch_fini(&h->d);
    free(h);
}

/* ------------------------------------------------------ microbenchmark */

/* Each warp reads its own 8 consecutive 128 B lines (one coalesced line
 * per load, the 8 loads independent), `reps` times; out[thread] = sum.
 * Per-warp working set: 8 lines = 1 KB. */
static const char *ub_ptx =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 buf, .param .u32 reps, .param .u64 out)\n{\n"
    " .reg .b32 %r<32>; .reg .b64 %rd<16>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [buf];\n ld.param.u32 %r2, [reps];\n ld.param.u64 %rd2, [out];\n"
    " mov.u32 %r3, %ctaid.x;\n mov.u32 %r4, %ntid.x;\n mov.u32 %r5, %tid.x;\n"
    " mad.lo.u32 %r6, %r3, %r4, %r5;\n shr.u32 %r7, %r6, 5;\n and.b32 %r8, %r6, 31;\n"
    " mul.wide.u32 %rd3, %r7, 1024;\n add.s64 %rd4, %rd1, %rd3;\n"
    " mul.wide.u32 %rd5, %r8, 4;\n add.s64 %rd4, %rd4, %rd5;\n"
    " mov.u32 %r10, 0;\n mov.u32 %r11, 0;\n"
    "REP:\n"
    " ld.global.u32 %r20, [%rd4];\n ld.global.u32 %r21, [%rd4+128];\n"
    " ld.global.u32 %r22, [%rd4+256];\n ld.global.u32 %r23, [%rd4+384];\n"
    " ld.global.u32 %r24, [%rd4+512];\n ld.global.u32 %r25, [%rd4+640];\n"
    " ld.global.u32 %r26, [%rd4+768];\n ld.global.u32 %r27, [%rd4+896];\n"
    " add.u32 %r10, %r10, %r20;\n add.u32 %r10, %r10, %r21;\n add.u32 %r10, %r10, %r22;\n"
    " add.u32 %r10, %r10, %r23;\n add.u32 %r10, %r10, %r24;\n add.u32 %r10, %r10, %r25;\n"
    " add.u32 %r10, %r10, %r26;\n add.u32 %r10, %r10, %r27;\n"
    " add.u32 %r11, %r11, 1;\n setp.lt.u32 %p2, %r11, %r2;\n @%p2 bra REP;\n"
    " mul.wide.u32 %rd7, %r6, 4;\n add.s64 %rd8, %rd2, %rd7;\n st.global.u32 [%rd8], %r10;\n ret;\n}\n";

#define UB_SMS 2      /* gpu.n_sm for the microbenchmark */
#define UB_THREADS 256 /* threads per CTA (8 warps; 6 CTAs = 48 warps per SM) */
#define UB_WAVES 4    /* grid = UB_WAVES full waves of CTAs */
#define UB_LINES 8    /* lines per warp */
#define UB_REPS 8     /* passes over them */

struct ub_result {
    bool ok;            /* ran and verified */
    uint64_t cycles;    /* timing.cycles */
    uint64_t hits, misses; /* l1d load hits / allocating misses, all SMs */
    char *stats;        /* the "stats" JSON text (caller frees) */
    uint64_t loc[12];   /* locality counters (ub_run_x with locality_stats) */
};

static char *json_member(const char *path, const char *key)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *t = malloc((size_t)n + 1);
    size_t got = fread(t, 1, (size_t)n, fp);
    fclose(fp);
    t[got] = 0;
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    char *a = strstr(t, pat);
    char *r = a ? strdup(a) : NULL;
    if (r) { /* cut at the "host" object, which holds host timings */
        char *h = strstr(r, "\"host\"");
        if (h)
            *h = 0;
    }
    free(t);
    return r;
}

static struct ub_result ub_run_x(const char *policy, const char *cta, unsigned threads, bool every,
                                 const char *extra1, const char *extra2)
{
    struct ub_result r = {0};
    char pol[64], cp[64], nsm[32];
    snprintf(pol, sizeof pol, "sched.policy=%s", policy);
    snprintf(cp, sizeof cp, "cta.policy=%s", cta);
    snprintf(nsm, sizeof nsm, "gpu.n_sm=%d", UB_SMS);
    const char *ov[8] = {"sim.mode=timing", pol, cp, nsm};
    size_t n = 4;
    if (every)
        ov[n++] = "sim.tick_every_cycle=true";
    if (extra1)
        ov[n++] = extra1;
    if (extra2)
        ov[n++] = extra2;
    ov[n] = NULL;
    gs_ctx *c = gs_ctx_create("fermi15-vws", ov);
    if (!c) {
        tap_diag("gs_ctx_create: %s", gs_last_error(NULL));
        return r;
    }
    gs_host_opts h = {threads, 0, 0, 0, 0, NULL};
    gs_ctx_set_host(c, &h);
    gs_module *m;
    gs_function *f = NULL;
    if (gs_module_load_data(c, ub_ptx, &m) || gs_module_get_function(m, "k", &f)) {
        tap_diag("load: %s", gs_last_error(c));
        gs_ctx_destroy(c);
        return r;
    }
    unsigned ctas = UB_SMS * (1536 / UB_THREADS) * UB_WAVES, nt = ctas * UB_THREADS, nw = nt / 32;
    size_t words = (size_t)nw * UB_LINES * 32;
    uint32_t *in = malloc(words * 4), *out = malloc(nt * 4);
    for (size_t i = 0; i < words; i++)
        in[i] = (uint32_t)(i * 2654435761u >> 7);
    uint64_t din, dout;
    gs_mem_alloc(c, &din, words * 4);
    gs_mem_alloc(c, &dout, nt * 4);
    gs_memcpy_htod(c, din, in, words * 4);
    uint32_t reps = UB_REPS;
    void *args[] = {&din, &reps, &dout};
    r.ok = gs_launch_kernel(f, ctas, 1, 1, UB_THREADS, 1, 1, 0, args) == 0;
    gs_memcpy_dtoh(c, out, dout, nt * 4);
    for (unsigned t = 0; r.ok && t < nt; t++) {
        uint32_t sum = 0, wp = t / 32, ln = t % 32;
        for (unsigned i = 0; i < UB_LINES; i++)
            sum += in[((size_t)wp * UB_LINES + i) * 32 + ln];
        r.ok = out[t] == sum * UB_REPS;
    }
    gs_stats_get_u64(c, "gpu.cycles", &r.cycles);
    gs_stats_get_u64(c, "l1d.load_hits", &r.hits);
    gs_stats_get_u64(c, "l1d.load_misses", &r.misses);
    if (extra1) {
        static const char *const ln[] = {"l1d.loc_intra_warp_hits", "l1d.loc_intra_warp_misses",
                                         "l1d.loc_intra_cta_hits", "l1d.loc_intra_cta_misses",
                                         "l1d.loc_inter_cta_hits", "l1d.loc_inter_cta_misses",
                                         "l1d.loc_cold_hits", "l1d.loc_cold_misses",
                                         "l2.hits_intra_core", "l2.hits_inter_core", "l2.hits_unknown",
                                         "l1d.mshr_merges"};
        for (size_t i = 0; i < ARRAY_LEN(ln); i++)
            if (gs_stats_get_u64(c, ln[i], &r.loc[i]))
                r.loc[i] = UINT64_MAX;
    }
    char path[] = "/tmp/gpusim_vws_XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) {
        close(fd);
        gs_stats_write(c, path);
        r.stats = json_member(path, "stats");
        unlink(path);
    }
    free(in);
    free(out);
    gs_ctx_destroy(c);
    return r;
}

static struct ub_result ub_run(const char *policy, const char *cta, unsigned threads, bool every)
{
    return ub_run_x(policy, cta, threads, every, NULL, NULL);
}

/* Every warp reads only its own lines: the first load of each line is cold,
 * every later one is intra-warp; no intra- or inter-CTA class. In the L2,
 * every hit is on a line the same SM requested before (a CTA stays on one
 * SM). */
static void test_locality(void)
{
    const uint64_t loads = (uint64_t)UB_SMS * 6 * UB_WAVES * 8 * UB_LINES * UB_REPS;
    const uint64_t lines = (uint64_t)UB_SMS * 6 * UB_WAVES * 8 * UB_LINES;
    struct ub_result r = ub_run_x("lrr", "rr", 1, false, "l1d.locality_stats=true", "l2.locality_stats=true");
    TAP_OK(r.ok, "lrr with locality statistics verifies");
    uint64_t sum = 0;
    for (int i = 0; i < 8; i++)
        sum += r.loc[i];
    TAP_EQ_U64(sum, loads, "every load classified once");
    TAP_EQ_U64(r.loc[0] + r.loc[2] + r.loc[4] + r.loc[6], r.hits, "class hits add up to l1d.load_hits");
    TAP_EQ_U64(r.loc[1] + r.loc[3] + r.loc[5] + r.loc[7], r.misses + r.loc[11],
               "class misses add up to load_misses + mshr_merges");
    TAP_EQ_U64(r.loc[6] + r.loc[7], lines, "cold loads = distinct lines (%" PRIu64 ")", lines);
    TAP_EQ_U64(r.loc[6], 0, "a cold load never hits");
    TAP_EQ_U64(r.loc[2] + r.loc[3] + r.loc[4] + r.loc[5], 0, "no intra-CTA or inter-CTA reuse (private lines)");
    TAP_OK(r.loc[8] > 0 && r.loc[8] != UINT64_MAX, "L2 hits on lines this SM requested before (%" PRIu64 ")",
           r.loc[8]);
    TAP_EQ_U64(r.loc[9], 0, "no inter-core L2 hits (private lines)");
    struct ub_result d = ub_run("lrr", "rr", 1, false);
    TAP_OK(d.cycles == r.cycles && d.hits == r.hits && d.misses == r.misses,
           "locality statistics do not change timing");
    free(r.stats);
    free(d.stats);
}

static void test_ubench(void)
{
    /* The L1D of fermi15-vws: 32 KB of 128 B lines = 256 lines. 48 warps x
     * 8 lines = 384 lines do not fit, so LRR's round-robin sweep misses on
     * most reuses; 256 / 8 = 32 warps would fit. IWL's estimate converges to
     * WS = 8 lines and RRDegr = 8 accesses per line, so N_act = ceil(4 x 256 /
     * 64) = 16 warps: 128 lines, which fit. */
    const uint32_t l1_lines = 32 * 1024 / 128, warps = 48;
    const uint64_t loads = (uint64_t)UB_SMS * 6 * UB_WAVES * 8 * UB_LINES * UB_REPS;
    TAP_OK(warps * UB_LINES > l1_lines, "working set of 48 warps exceeds the L1D (%u > %u lines)", warps * UB_LINES,
           l1_lines);
    struct ub_result lrr = ub_run("lrr", "rr", 1, false);
    TAP_OK(lrr.ok, "lrr: microbenchmark verifies");
    tap_diag("lrr: %" PRIu64 " cycles, %" PRIu64 " hits, %" PRIu64 " misses of %" PRIu64 " loads", lrr.cycles,
             lrr.hits, lrr.misses, loads);
    /* compulsory misses: each warp's lines once */
    uint64_t compulsory = (uint64_t)UB_SMS * 6 * UB_WAVES * 8 * UB_LINES;
    TAP_OK(lrr.misses > loads / 2, "lrr thrashes: more than half the loads miss (%" PRIu64 ")", lrr.misses);
    /* The margin: a throttled run misses at most a quarter of the loads and
     * is faster than lrr by at least the factor (LRR misses / loads) /
     * (1/4 + the compulsory fraction), capped at 1.25. */
    double frac = (double)lrr.misses / (double)loads;
    double need = frac / (0.25 + (double)compulsory / (double)loads);
    if (need > 1.25)
        need = 1.25;
    const char *pols[] = {"ccws", "iwl_intracl", "vws"};
    for (size_t i = 0; i < ARRAY_LEN(pols); i++) {
        const char *cta = strcmp(pols[i], "vws") == 0 ? "serial" : "rr";
        struct ub_result a = ub_run(pols[i], cta, 1, false);
        tap_diag("%s: %" PRIu64 " cycles, %" PRIu64 " hits, %" PRIu64 " misses; speedup over lrr %.3f (need %.3f)",
                 pols[i], a.cycles, a.hits, a.misses, (double)lrr.cycles / (double)(a.cycles ? a.cycles : 1), need);
        TAP_OK(a.ok, "%s: microbenchmark verifies", pols[i]);
        TAP_OK(a.misses <= loads / 4, "%s throttles: at most a quarter of the loads miss (%" PRIu64 ")", pols[i],
               a.misses);
        TAP_OK((double)lrr.cycles >= need * (double)a.cycles, "%s beats lrr by the margin", pols[i]);
        free(a.stats);
    }
    free(lrr.stats);
}

static void test_determinism(void)
{
    const char *pols[] = {"lrr", "gto", "ccws", "iwl", "iwl_intracl", "vws"};
    for (size_t i = 0; i < ARRAY_LEN(pols); i++) {
        const char *cta = strcmp(pols[i], "vws") == 0 ? "serial" : "rr";
        struct ub_result a = ub_run(pols[i], cta, 1, false);
        struct ub_result b = ub_run(pols[i], cta, 2, false);
        struct ub_result e = ub_run(pols[i], cta, 1, true);
        TAP_OK(a.stats && b.stats && strcmp(a.stats, b.stats) == 0, "%s: statistics identical for 1 and 2 threads",
               pols[i]);
        TAP_OK(a.stats && e.stats && strcmp(a.stats, e.stats) == 0, "%s: statistics identical with tick_every_cycle",
               pols[i]);
        free(a.stats);
        free(b.stats);
        free(e.stats);
    }
}

static const struct tap_test tests[] = {
    {"iwl_est", test_iwl_est},       {"ccws", test_ccws},         {"eligible", test_eligible},
    {"serial_dispatch", test_serial_dispatch}, {"locality", test_locality}, {"ubench", test_ubench}, {"determinism", test_determinism},
};

int main(void)
{
    return tap_run(tests, ARRAY_LEN(tests));
}
