/* tests/test_sched.c: warp schedulers (LRR, GTO, two-level) and the
 * scoreboard (sim/sm/sched/sched.h, sim/sm/sched/scoreboard.h; docs/sched.md).
 *
 * Two fake SMs drive the schedulers cycle by cycle:
 *  - a scripted SM: the test sets each warp's check() answer and issue flags
 *    directly (policy order, pool movement, stall classification);
 *  - a small pipeline SM with the real scoreboard: per-warp instruction
 *    streams, one pipe with an initiation interval, fixed latencies and
 *    writeback (RAW/WAW blocking and release through the scheduler).
 * A naive reference model of each policy is compared with the optimised one
 * over thousands of cycles of random readiness, and an injected fault
 * (a deliberately wrong reference) must be reported as a mismatch.
 * All times are simulated cycles.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/common.h"
#include "sim/cfg/config.h"
#include "sim/base/diag.h"
#include "sim/ptx/ir.h"
#include "sim/ptx/ptx.h"
#include "sim/sm/sched/scoreboard.h"
#include "sim/sm/sched/sched.h"
#include "sim/base/stats.h"
#include "tap.h"

#define NW 48 /* warp slots (sm.max_warps) */

/* ------------------------------------------------------ scripted fake SM */

struct script_sm {
    enum wsched_why why[NW];  /* answer of check() for each warp */
    uint32_t flags[NW];       /* issue flags returned for each warp */
    uint32_t log[64];         /* issued warps, in order */
    uint32_t n_log;           /* entries of log */
    uint32_t n_check;         /* check() calls */
};

static enum wsched_why script_check(void *ctx, uint32_t w)
{
    struct script_sm *m = ctx;
    m->n_check++;
    return m->why[w];
}

static uint32_t script_issue(void *ctx, uint32_t w)
{
    struct script_sm *m = ctx;
    if (m->n_log < ARRAY_LEN(m->log))
        m->log[m->n_log++] = w;
    return m->flags[w];
}

static void script_all(struct script_sm *m, enum wsched_why r)
{
    for (int i = 0; i < NW; i++)
        m->why[i] = r;
}

static void mk_sched(struct wsched *s, int policy, uint64_t n_sched, uint64_t n_active)
{
    struct wsched_cfg c;
    wsched_cfg_defaults(&c);
    c.policy = policy;
    c.n_sched = n_sched;
    c.n_active = n_active;
    wsched_init(s, &c, NW);
}

/* ------------------------------------------------------ config */

/* NOTE(sched-of): the owner of a warp slot by mask (1, 2, 4 schedulers)
 * and by division (3) is w mod n_sched. */
static void test_sched_of(void)
{
    for (uint64_t n = 1; n <= 4; n++) {
        struct wsched s;
        mk_sched(&s, WSCHED_LRR, n, n);
        unsigned bad = 0;
        for (uint32_t w = 0; w < NW; w++)
            bad += wsched_of(&s, w) != w % n;
        TAP_EQ_U64(bad, 0, "%llu schedulers: warp w belongs to w mod %llu (%s)", (unsigned long long)n,
                   (unsigned long long)n, s.sched_mask || n == 1 ? "mask" : "division");
        wsched_fini(&s);
    }
}

static void test_cfg(void)
{
    struct wsched_cfg c;
    wsched_cfg_defaults(&c);
    /* gtx480 defaults, spec 4.2: sm.n_sched 2, sched.policy gto, two_level.n_active 8, unlimited */
    TAP_EQ_U64(c.n_sched, 2, "default n_sched = 2 (spec 4.2, [GPGPU-Sim])");
    TAP_EQ_U64(c.policy, WSCHED_GTO, "default policy = gto");
    TAP_EQ_U64(c.n_active, 8, "default two_level.n_active = 8 (004)");
    TAP_EQ_U64(c.max_outstanding_mem_per_warp, 0, "default outstanding limit = 0 (unlimited)");
    TAP_EQ_U64(wsched_cfg_validate(&c, NULL, NULL), 0, "defaults validate");
    c.policy = WSCHED_TWO_LEVEL;
    c.n_active = 7; /* 7 mod 2 != 0 */
    TAP_EQ_U64(wsched_cfg_validate(&c, NULL, NULL), 1, "n_active 7 with 2 schedulers is rejected");
    c.n_active = 1; /* < n_sched */
    TAP_EQ_U64(wsched_cfg_validate(&c, NULL, NULL), 1, "n_active 1 < n_sched 2 is rejected");

    /* The key table parses with the cfg machinery and its defaults equal wsched_cfg_defaults. */
    struct wsched_cfg t;
    memset(&t, 0, sizeof t);
    char why[128];
    bool ok = true;
    for (size_t i = 0; i < wsched_cfg_n_keys; i++) {
        const struct cfg_key *k = &wsched_cfg_keys[i];
        ok &= cfg_parse_value(k, k->def, (char *)&t + k->offset, why, sizeof why);
    }
    wsched_cfg_defaults(&c);
    TAP_OK(ok && memcmp(&t, &c, sizeof t) == 0, "key-table defaults parse and match wsched_cfg_defaults");
    int pol = -1;
    TAP_OK(cfg_parse_value(&wsched_cfg_keys[1], "two_level", &pol, why, sizeof why) && pol == WSCHED_TWO_LEVEL,
           "sched.policy = two_level parses to %d", pol);
    uint64_t v = 0;
    TAP_OK(!cfg_parse_value(&wsched_cfg_keys[0], "17", &v, why, sizeof why), "sched.n_sched = 17 is out of range (%s)",
           why);
}

/* ------------------------------------------------------ LRR */

static void test_lrr(void)
{
    struct wsched s;
    struct script_sm m;
    memset(&m, 0, sizeof m);
    struct wsched_port port = {&m, script_check, script_issue, NULL, NULL, NULL, NULL, false, NULL};
    mk_sched(&s, WSCHED_LRR, 1, 8);
    for (uint32_t w = 0; w < 4; w++)
        wsched_warp_launch(&s, w, 0);
    /* cycle 0: all ready, no previous issue -> start at slot 0: warp 0
     * cycle 1: all ready -> slot after 0: warp 1
     * cycle 2: warp 2 scoreboard-blocked -> after 1 the first ready is 3
     * cycle 3: all ready -> after 3 wraps to 0
     * cycle 4: only warp 2 ready -> 2
     * cycle 5: none ready (0 ibuf, 1 pipe, 2 barrier, 3 scoreboard) -> none, stall = pipe busy (highest rank) */
    uint32_t want[6] = {0, 1, 3, 0, 2, WSCHED_NONE};
    uint32_t got[6];
    for (cycle_t t = 0; t < 6; t++) {
        script_all(&m, WSCHED_READY);
        if (t == 2)
            m.why[2] = WSCHED_SCOREBOARD;
        if (t == 4)
            m.why[0] = m.why[1] = m.why[3] = WSCHED_PIPE_BUSY;
        if (t == 5) {
            m.why[0] = WSCHED_IBUF_EMPTY;
            m.why[1] = WSCHED_PIPE_BUSY;
            m.why[2] = WSCHED_BARRIER;
            m.why[3] = WSCHED_SCOREBOARD;
        }
        cycle_t nx = wsched_tick(&s, t, &port);
        got[t] = wsched_issued(&s, 0);
        if (t == 5)
            TAP_EQ_U64(nx, CYCLE_NEVER, "LRR: no issue -> tick returns CYCLE_NEVER");
    }
    TAP_OK(memcmp(got, want, sizeof want) == 0, "LRR order 0,1,3,0,2,- (got %u,%u,%u,%u,%u,%u)", got[0], got[1],
           got[2], got[3], got[4], got[5]);
    TAP_EQ_U64(s.units[0].st.issued, 5, "LRR: 5 issues in 6 cycles");
    TAP_EQ_U64(s.units[0].st.stall[WSCHED_PIPE_BUSY], 1, "LRR: the empty cycle counts as pipe busy");
    wsched_check(&s);
    wsched_fini(&s);

    /* Two schedulers: warps 0..5 -> scheduler 0 owns 0,2,4 and scheduler 1 owns 1,3,5 (w mod 2).
     * cycle 0: all ready -> (0, 1); cycle 1 -> (2, 3); cycle 2: warp 4 not ready -> scheduler 0
     * wraps to 0, scheduler 1 takes 5. */
    memset(&m, 0, sizeof m);
    mk_sched(&s, WSCHED_LRR, 2, 8);
    for (uint32_t w = 0; w < 6; w++)
        wsched_warp_launch(&s, w, 0);
    uint32_t g2[6];
    for (cycle_t t = 0; t < 3; t++) {
        script_all(&m, WSCHED_READY);
        if (t == 2)
            m.why[4] = WSCHED_IBUF_EMPTY;
        wsched_tick(&s, t, &port);
        g2[2 * t] = wsched_issued(&s, 0);
        g2[2 * t + 1] = wsched_issued(&s, 1);
    }
    uint32_t w2[6] = {0, 1, 2, 3, 0, 5};
    TAP_OK(memcmp(g2, w2, sizeof w2) == 0, "LRR, 2 schedulers split by warp mod 2: (0,1),(2,3),(0,5)");
    TAP_EQ_U64(m.log[0], 0, "scheduler 0 is evaluated before scheduler 1 in a cycle");
    TAP_EQ_U64(m.log[1], 1, "... then scheduler 1");
    wsched_fini(&s);
}

/* ------------------------------------------------------ issue order */

/* One shared resource per cycle (a pipe both schedulers feed): the first
 * scheduler evaluated in a cycle takes it, the other sees it busy. */
struct shared_sm {
    struct script_sm s;
    bool taken; /* the resource was taken in the current cycle */
};

static enum wsched_why shared_check(void *ctx, uint32_t w)
{
    (void)w;
    return ((struct shared_sm *)ctx)->taken ? WSCHED_PIPE_BUSY : WSCHED_READY;
}

static uint32_t shared_issue(void *ctx, uint32_t w)
{
    struct shared_sm *m = ctx;
    m->taken = true;
    return script_issue(&m->s, w);
}

static void test_issue_order(void)
{
    /* Warps 0..3 on 2 schedulers (0, 2 on scheduler 0; 1, 3 on scheduler 1), every warp
     * ready, one shared place per cycle. Ticks at cycles 0, 1, 2, 3, then 10 and 13 (an idle
     * gap after a quiet cycle 4 and 11: the order follows the cycle number, not the number of
     * ticks).
     *   fixed:  scheduler 0 wins every cycle -> LRR warps 0, 2, 0, 2, 0, 2; scheduler 1 never issues.
     *   rotate: scheduler (cycle mod 2) goes first -> 0 (c0), 1 (c1), 2 (c2), 3 (c3), 0 (c10), 1 (c13). */
    static const cycle_t at[6] = {0, 1, 2, 3, 10, 13};
    static const uint32_t want[2][6] = {{0, 2, 0, 2, 0, 2}, {0, 1, 2, 3, 0, 1}};
    for (int order = WSCHED_ORDER_FIXED; order <= WSCHED_ORDER_ROTATE; order++) {
        struct shared_sm m;
        memset(&m, 0, sizeof m);
        struct wsched_port port = {&m, shared_check, shared_issue, NULL, NULL, NULL, NULL, false, NULL};
        struct wsched_cfg c;
        wsched_cfg_defaults(&c);
        c.policy = WSCHED_LRR;
        c.issue_order = order;
        struct wsched s;
        wsched_init(&s, &c, NW);
        for (uint32_t w = 0; w < 4; w++)
            wsched_warp_launch(&s, w, 0);
        uint32_t got[6];
        for (int i = 0; i < 6; i++) {
            if (i > 0 && at[i] > at[i - 1] + 1) { /* a quiet cycle (nothing free) before the gap */
                m.taken = true;
                wsched_tick(&s, at[i - 1] + 1, &port);
            }
            m.taken = false;
            wsched_tick(&s, at[i], &port);
            uint32_t a = wsched_issued(&s, 0), b = wsched_issued(&s, 1);
            got[i] = a != WSCHED_NONE ? a : b;
            TAP_OK((a == WSCHED_NONE) != (b == WSCHED_NONE), "%s, cycle %llu: exactly one scheduler issues",
                   order ? "rotate" : "fixed", (unsigned long long)at[i]);
        }
        TAP_OK(memcmp(got, want[order], sizeof got) == 0, "%s: issued %u,%u,%u,%u,%u,%u",
               order ? "rotate" : "fixed", got[0], got[1], got[2], got[3], got[4], got[5]);
        TAP_EQ_U64(s.units[1].st.issued, order ? 3 : 0, "%s: scheduler 1 issues %d times", order ? "rotate" : "fixed",
                   order ? 3 : 0);
        wsched_fini(&s);
    }
    struct wsched_cfg c;
    wsched_cfg_defaults(&c);
    TAP_EQ_U64(c.issue_order, WSCHED_ORDER_FIXED, "default issue_order = fixed (GPGPU-Sim 3.2.2)");
}

/* ------------------------------------------------------ GTO */

static void test_gto(void)
{
    struct wsched s;
    struct script_sm m;
    memset(&m, 0, sizeof m);
    struct wsched_port port = {&m, script_check, script_issue, NULL, NULL, NULL, NULL, false, NULL};
    mk_sched(&s, WSCHED_GTO, 1, 8);
    /* CTA launch order: warps 4,5 belong to CTA seq 0, warps 0,1 to CTA seq 1, warp 2 to CTA seq 2.
     * Age order (CTA seq, warp id): 4, 5, 0, 1, 2. */
    wsched_warp_launch(&s, 0, 1);
    wsched_warp_launch(&s, 1, 1);
    wsched_warp_launch(&s, 4, 0);
    wsched_warp_launch(&s, 5, 0);
    wsched_warp_launch(&s, 2, 2);
    TAP_OK(s.units[0].age[0] == 4 && s.units[0].age[1] == 5 && s.units[0].age[2] == 0 && s.units[0].age[3] == 1 &&
               s.units[0].age[4] == 2,
           "GTO age list = 4,5,0,1,2 (CTA launch order, then warp id)");
    /* cycle 0: all ready -> oldest 4
     * cycle 1: all ready -> greedy 4
     * cycle 2: 4 stalls (scoreboard) -> oldest ready 5
     * cycle 3: 4 ready again, 5 ready -> greedy 5 (not the older 4)
     * cycle 4: 4 and 5 stall -> oldest ready 0; then warp 0 exits
     * cycle 5: all ready, greedy warp gone -> oldest 4 */
    uint32_t want[6] = {4, 4, 5, 5, 0, 4}, got[6];
    for (cycle_t t = 0; t < 6; t++) {
        script_all(&m, WSCHED_READY);
        if (t == 2)
            m.why[4] = WSCHED_SCOREBOARD;
        if (t == 4)
            m.why[4] = m.why[5] = WSCHED_PIPE_BUSY;
        wsched_tick(&s, t, &port);
        got[t] = wsched_issued(&s, 0);
        if (t == 4)
            wsched_warp_exit(&s, 0);
    }
    TAP_OK(memcmp(got, want, sizeof want) == 0, "GTO order 4,4,5,5,0,4 (got %u,%u,%u,%u,%u,%u)", got[0], got[1],
           got[2], got[3], got[4], got[5]);
    wsched_check(&s);
    wsched_fini(&s);
}

/* ------------------------------------------------------ two-level */

static uint32_t pool_at(const struct wsched *s, uint32_t k, uint32_t pos)
{
    /* struct lev2 is private to sched_2lev.c; its layout starts {cap, pool*}. */
    const struct {
        uint32_t cap;
        uint32_t *pool;
    } *p = s->units[k].pstate;
    return p->pool[pos];
}

static void test_two_level(void)
{
    struct wsched s;
    struct script_sm m;
    memset(&m, 0, sizeof m);
    struct wsched_port port = {&m, script_check, script_issue, NULL, NULL, NULL, NULL, false, NULL};
    /* Spec defaults: n_active 8 per SM, 2 schedulers -> pool of 8 / 2 = 4 per scheduler. */
    mk_sched(&s, WSCHED_TWO_LEVEL, 2, 8);
    TAP_EQ_U64(s.n_active_per_sched, 4, "two_level pool = 8 / 2 = 4 warps per scheduler");
    /* Scheduler 0 gets warps 0,2,4,6,8,10 (all CTA seq 0: age = warp id). Scheduler 1 gets none. */
    for (uint32_t w = 0; w <= 10; w += 2)
        wsched_warp_launch(&s, w, 0);
    script_all(&m, WSCHED_READY);
    m.flags[0] = m.flags[4] = WSCHED_ISSUE_LONG; /* warps 0 and 4 issue global loads */
    /* cycle 0: refill positions 0..3 with the oldest ready: [0,2,4,6]; RR from pos 0 -> 0 (long -> pending)
     * cycle 1: pos 0 refilled with oldest ready pending 8 -> [8,2,4,6]; RR after pos 0 -> 2
     * cycle 2: RR after pos 1 -> 4 (long -> pending)
     * cycle 3: pos 2 refilled with 10 -> [8,2,10,6]; RR after pos 2 -> 6
     * cycle 4: RR after pos 3 wraps -> pos 0: 8 */
    uint32_t want[5] = {0, 2, 4, 6, 8}, got[5];
    for (cycle_t t = 0; t < 5; t++) {
        wsched_tick(&s, t, &port);
        got[t] = wsched_issued(&s, 0);
    }
    TAP_OK(memcmp(got, want, sizeof want) == 0, "two_level issue order 0,2,4,6,8 (got %u,%u,%u,%u,%u)", got[0],
           got[1], got[2], got[3], got[4]);
    TAP_OK(pool_at(&s, 0, 0) == 8 && pool_at(&s, 0, 1) == 2 && pool_at(&s, 0, 2) == 10 && pool_at(&s, 0, 3) == 6,
           "active pool after 5 cycles = [8,2,10,6]");
    TAP_EQ_U64(s.units[0].st.demotions, 2, "two_level demotions = 2 (warps 0 and 4 issued long ops)");
    TAP_EQ_U64(s.units[0].st.promotions, 6, "two_level promotions = 4 (initial fill) + 2 (refills 8, 10)");
    TAP_EQ_U64(s.units[1].st.stall[WSCHED_NO_WARP], 5, "scheduler 1 (no warps) counts 5 no-warp cycles");

    /* Warp 0's load returns; the pool is full so 0 stays pending. Then pool warps all stall
     * on the scoreboard while the pending warp 0 is ready: that cycle is a policy stall. */
    wsched_notify(&s, 0, WSCHED_EV_LONG_DONE);
    script_all(&m, WSCHED_SCOREBOARD);
    m.why[0] = WSCHED_READY;
    m.why[4] = WSCHED_READY; /* 4 is ready by check() but still waiting for its long result */
    wsched_tick(&s, 5, &port);
    TAP_EQ_U64(wsched_issued(&s, 0), WSCHED_NONE, "pool full of blocked warps -> no issue");
    TAP_EQ_U64(s.units[0].st.stall[WSCHED_POLICY], 1, "ready pending warp held back -> stall_policy = 1");
    /* Warp 2 exits: position 1 is refilled with the oldest ready pending warp. 0 is ready
     * (load done), 4 still waits for its long result -> 0, and it issues at cycle 6. */
    wsched_warp_exit(&s, 2);
    memset(m.flags, 0, sizeof m.flags); /* no more long ops */
    wsched_tick(&s, 6, &port);
    TAP_EQ_U64(pool_at(&s, 0, 1), 0, "freed position refilled oldest-first from ready pending: warp 0");
    TAP_EQ_U64(wsched_issued(&s, 0), 0, "refilled warp 0 issues in the same cycle");
    /* A pool warp at a barrier is demoted (deadlock guard): warp 8 at barrier, 4's load returns. */
    wsched_notify(&s, 4, WSCHED_EV_LONG_DONE);
    script_all(&m, WSCHED_SCOREBOARD);
    m.why[8] = WSCHED_BARRIER;
    m.why[4] = WSCHED_READY;
    wsched_tick(&s, 7, &port);
    TAP_EQ_U64(pool_at(&s, 0, 0), 4, "barrier waiter 8 demoted, its position refilled with ready warp 4");
    TAP_EQ_U64(wsched_issued(&s, 0), 4, "warp 4 issues");
    TAP_EQ_U64(s.units[0].st.demotions, 3, "demotions = 3 (0, 4 long; 8 barrier)");
    TAP_EQ_U64(s.units[0].st.promotions, 8, "promotions = 6 + 1 (warp 0, cycle 6) + 1 (warp 4, cycle 7) = 8");
    wsched_check(&s);
    wsched_fini(&s);
}

/* ------------------------------------------------------ scoreboard */

static struct sb_regs mk_regs(int n_src, const uint16_t *src, int n_dst, const uint16_t *dst)
{
    struct sb_regs r;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < n_dst; i++)
        sb_regs_add(&r, dst[i], true);
    for (int i = 0; i < n_src; i++)
        sb_regs_add(&r, src[i], false); /* sources added after destinations: still kept first */
    return r;
}

static void test_scoreboard(void)
{
    struct scoreboard sb;
    scoreboard_init(&sb, NW);
    uint16_t r1 = SB_GPR(1), r2 = SB_GPR(2), r3 = SB_GPR(3), p0 = SB_PRED(0);
    struct sb_regs ld = mk_regs(1, &r2, 1, &r1);                     /* ld r1, [r2]   (long) */
    struct sb_regs use = mk_regs(2, (uint16_t[]){r1, r2}, 1, &r3);  /* add r3, r1, r2 */
    struct sb_regs waw = mk_regs(1, &r3, 1, &r1);                    /* mov r1, r3 */
    struct sb_regs ind = mk_regs(1, &r2, 1, (uint16_t[]){SB_GPR(4)}); /* mov r4, r2 */
    struct sb_regs setp = mk_regs(1, &r2, 1, &p0);                   /* setp p0, r2 (short) */
    struct sb_regs guarded = mk_regs(2, (uint16_t[]){p0, r2}, 1, (uint16_t[]){SB_GPR(5)}); /* @p0 mov r5, r2 */
    TAP_OK(use.n_src == 2 && use.reg[0] == r1 && use.reg[1] == r2 && use.reg[2] == r3, "sb_regs keeps sources first");
    bool lng = false;
    TAP_EQ_U64(scoreboard_check(&sb, 3, &ld, &lng), SB_CLEAR, "empty scoreboard: clear");
    scoreboard_reserve(&sb, 3, &ld, true);
    TAP_EQ_U64(scoreboard_check(&sb, 3, &use, &lng), SB_RAW, "read of pending r1 is RAW");
    TAP_OK(lng, "... on a long-latency write");
    TAP_EQ_U64(scoreboard_check(&sb, 3, &waw, &lng), SB_WAW, "write of pending r1 is WAW");
    TAP_EQ_U64(scoreboard_check(&sb, 3, &ind, &lng), SB_CLEAR, "independent instruction is clear");
    TAP_EQ_U64(scoreboard_check(&sb, 4, &use, &lng), SB_CLEAR, "other warp unaffected");
    scoreboard_reserve(&sb, 3, &setp, false);
    TAP_EQ_U64(scoreboard_check(&sb, 3, &guarded, &lng), SB_RAW, "guard predicate p0 pending: RAW");
    TAP_OK(!lng, "... on a short-latency write");
    TAP_EQ_U64(scoreboard_n_pending(&sb, 3), 2, "2 pending writes (r1, p0)");
    TAP_EQ_U64(scoreboard_n_long(&sb, 3), 1, "1 pending long write (r1)");
    TAP_OK(!scoreboard_release(&sb, 3, p0), "releasing short p0 does not end long waits");
    TAP_EQ_U64(scoreboard_check(&sb, 3, &guarded, &lng), SB_CLEAR, "p0 released: guarded instruction clear");
    TAP_OK(scoreboard_release(&sb, 3, r1), "releasing r1 ends the last long wait (-> LONG_DONE event)");
    TAP_EQ_U64(scoreboard_check(&sb, 3, &use, &lng), SB_CLEAR, "r1 released: RAW cleared");
    TAP_EQ_U64(scoreboard_check(&sb, 3, &waw, &lng), SB_CLEAR, "r1 released: WAW cleared");
    TAP_EQ_U64(sb.n_reserved, 2, "2 reservations");
    TAP_EQ_U64(sb.n_released, 2, "2 releases");
    scoreboard_warp_reset(&sb, 3);
    scoreboard_fini(&sb);

    /* Pre-decoding from the IR: a 64-bit register occupies two physical ids. */
    static const char *src = ".version 8.0\n.target sm_80\n.address_size 64\n"
                             ".visible .entry k(.param .u64 a)\n{\n"
                             "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n"
                             "  ld.param.u64 %rd1, [a];\n"
                             "  ld.global.u32 %r1, [%rd1];\n"
                             "  setp.eq.s32 %p1, %r1, 0;\n"
                             "  @%p1 add.s32 %r2, %r1, %r1;\n"
                             "  st.global.u32 [%rd1], %r2;\n"
                             "  ret;\n}\n";
    struct diag d;
    diag_init(&d);
    struct ptx_module *mod = NULL;
    int rc = ptx_parse(src, strlen(src), "sb.ptx", &mod, &d);
    diag_fini(&d);
    if (rc != 0 || !mod) {
        tap_skip(4, "PTX parse failed");
        return;
    }
    const struct ptx_func *fn = ptx_module_find(mod, "k");
    struct sb_regs a, b, c;
    bool ok = fn && scoreboard_regs_from_insn(fn, &fn->insns[1], &a) &&
              scoreboard_regs_from_insn(fn, &fn->insns[3], &b) && scoreboard_regs_from_insn(fn, &fn->insns[4], &c);
    TAP_OK(ok, "regs_from_insn succeeds");
    /* ld.global.u32 %r1, [%rd1]: reads the 64-bit %rd1 (2 physical ids), writes %r1 (1) */
    TAP_OK(ok && a.n_src == 2 && a.n_dst == 1 && a.reg[1] == a.reg[0] + 1, "ld: 2 source ids (64-bit pair), 1 dest");
    /* @%p1 add %r2, %r1, %r1: %r1 read twice counts once, plus guard -> 2 sources */
    TAP_OK(ok && b.n_src == 2 && b.n_dst == 1 && (b.reg[0] >= SB_MAX_GPR || b.reg[1] >= SB_MAX_GPR),
           "guarded add: sources = {p1, r1} (dedup), 1 dest");
    /* st.global [%rd1], %r2: 3 sources, no destination */
    TAP_OK(ok && c.n_src == 3 && c.n_dst == 0, "st: 3 source ids, no destination");
    ptx_module_free(mod);
}

/* ------------------------------------------------------ pipeline fake SM */

/* One instruction of a fake warp program. */
struct finsn {
    struct sb_regs regs;
    uint32_t lat;   /* cycles from issue to writeback */
    bool is_long;   /* long-latency (load) */
    bool barrier;   /* bar.sync: waits until every warp arrived */
    bool membar;    /* waits until the warp has nothing long pending */
};

struct pipe_sm {
    struct scoreboard sb;
    struct wsched *ws;
    const struct finsn *prog[NW]; /* per warp program */
    uint32_t len[NW];             /* instructions */
    uint32_t pc[NW];              /* next instruction */
    bool ibuf[NW];                /* I-buffer head valid */
    bool at_bar[NW];              /* arrived at the barrier */
    uint32_t n_warps;             /* resident warps 0..n_warps-1 */
    cycle_t pipe_free;            /* first cycle the single pipe accepts an instruction */
    uint32_t pipe_ii;             /* pipe initiation interval (cycles) */
    cycle_t now;                  /* current cycle */
    struct { cycle_t t; uint32_t w; uint16_t reg; } wb[256]; /* pending writebacks */
    uint32_t n_wb;
};

static enum wsched_why pipe_check(void *ctx, uint32_t w)
{
    struct pipe_sm *m = ctx;
    if (!m->ibuf[w] || m->pc[w] >= m->len[w])
        return WSCHED_IBUF_EMPTY;
    const struct finsn *in = &m->prog[w][m->pc[w]];
    if (m->at_bar[w])
        return WSCHED_BARRIER;
    if (in->membar && scoreboard_n_long(&m->sb, w) > 0)
        return WSCHED_MEM_ORDER;
    if (scoreboard_check(&m->sb, w, &in->regs, NULL) != SB_CLEAR)
        return WSCHED_SCOREBOARD;
    if (m->now < m->pipe_free)
        return WSCHED_PIPE_BUSY;
    return WSCHED_READY;
}

static uint32_t pipe_issue(void *ctx, uint32_t w)
{
    struct pipe_sm *m = ctx;
    const struct finsn *in = &m->prog[w][m->pc[w]];
    if (in->barrier) {
        m->at_bar[w] = true;
        m->pc[w]++;
        bool all = true;
        for (uint32_t i = 0; i < m->n_warps; i++)
            all &= m->at_bar[i];
        if (all)
            for (uint32_t i = 0; i < m->n_warps; i++)
                m->at_bar[i] = false;
        return 0;
    }
    scoreboard_reserve(&m->sb, w, &in->regs, in->is_long);
    for (unsigned i = in->regs.n_src; i < (unsigned)in->regs.n_src + in->regs.n_dst; i++) {
        m->wb[m->n_wb].t = m->now + in->lat;
        m->wb[m->n_wb].w = w;
        m->wb[m->n_wb].reg = in->regs.reg[i];
        m->n_wb++;
    }
    m->pipe_free = m->now + m->pipe_ii;
    m->pc[w]++;
    return in->is_long ? WSCHED_ISSUE_LONG : 0;
}

/* One SM cycle, back to front: writeback, then issue. */
static void pipe_cycle(struct pipe_sm *m, const struct wsched_port *port)
{
    for (uint32_t i = 0; i < m->n_wb;) {
        if (m->wb[i].t == m->now) {
            if (scoreboard_release(&m->sb, m->wb[i].w, m->wb[i].reg))
                wsched_notify(m->ws, m->wb[i].w, WSCHED_EV_LONG_DONE);
            m->wb[i] = m->wb[--m->n_wb];
        } else {
            i++;
        }
    }
    wsched_tick(m->ws, m->now, port);
    m->now++;
}

static struct finsn fi(int n_src, const uint16_t *src, int n_dst, const uint16_t *dst, uint32_t lat, bool lng)
{
    struct finsn f;
    memset(&f, 0, sizeof f);
    f.regs = mk_regs(n_src, src, n_dst, dst);
    f.lat = lat;
    f.is_long = lng;
    return f;
}

static void test_pipeline_scoreboard(void)
{
    /* One warp, LRR, 1 scheduler, pipe ii 1:
     *   i0: ld r1 <- [r2]   long, latency 10: issue at 0, writeback (release) at cycle 10
     *   i1: add r3 <- r1    RAW on r1: eligible at 10 (release happens before issue in cycle 10)
     *   i2: mov r3 <- r2    WAW on r3 (i1's write, latency 4): issue at 10 + 4 = 14
     * Cycles 1..9 are scoreboard stalls (9), 11..13 are scoreboard stalls (3). */
    uint16_t r1 = SB_GPR(1), r2 = SB_GPR(2), r3 = SB_GPR(3);
    struct finsn prog[3] = {fi(1, &r2, 1, &r1, 10, true), fi(1, &r1, 1, &r3, 4, false),
                            fi(1, &r2, 1, &r3, 4, false)};
    struct wsched s;
    mk_sched(&s, WSCHED_LRR, 1, 8);
    struct pipe_sm *m = calloc(1, sizeof *m);
    scoreboard_init(&m->sb, NW);
    m->ws = &s;
    m->prog[0] = prog;
    m->len[0] = 3;
    m->ibuf[0] = true;
    m->n_warps = 1;
    m->pipe_ii = 1;
    wsched_warp_launch(&s, 0, 0);
    struct wsched_port port = {m, pipe_check, pipe_issue, NULL, NULL, NULL, NULL, false, NULL};
    cycle_t issue_t[3] = {0, 0, 0};
    uint32_t k = 0;
    while (m->now < 20) {
        cycle_t t = m->now;
        pipe_cycle(m, &port);
        if (wsched_issued(&s, 0) != WSCHED_NONE && k < 3)
            issue_t[k++] = t;
    }
    TAP_OK(k == 3 && issue_t[0] == 0 && issue_t[1] == 10 && issue_t[2] == 14,
           "RAW releases at writeback 10, WAW at 14 (issue cycles %lu,%lu,%lu)", (unsigned long)issue_t[0],
           (unsigned long)issue_t[1], (unsigned long)issue_t[2]);
    /* 20 cycles: 3 issued, scoreboard 9 + 3 = 12, then cycles 15..19 the I-buffer is empty (program done): 5 */
    TAP_EQ_U64(s.units[0].st.issued, 3, "3 issued");
    TAP_EQ_U64(s.units[0].st.stall[WSCHED_SCOREBOARD], 12, "scoreboard stalls = 9 + 3 = 12");
    TAP_EQ_U64(s.units[0].st.stall[WSCHED_IBUF_EMPTY], 5, "I-buffer empty after the program: 20 - 15 = 5");
    wsched_check(&s);
    scoreboard_fini(&m->sb);
    free(m);
    wsched_fini(&s);
}

/* Stall classification, each reason counted exactly as constructed. */
static void test_stall_reasons(void)
{
    struct wsched s;
    struct script_sm m;
    memset(&m, 0, sizeof m);
    struct wsched_port port = {&m, script_check, script_issue, NULL, NULL, NULL, NULL, false, NULL};
    mk_sched(&s, WSCHED_GTO, 1, 8);
    cycle_t t = 0;
    /* 1 cycle with no warp */
    wsched_tick(&s, t++, &port);
    for (uint32_t w = 0; w < 4; w++)
        wsched_warp_launch(&s, w, 0);
    /* then n cycles for reason r where the best warp's reason is r and the others are lower:
     * ibuf 2, barrier 3, mem_order 4, scoreboard 5, pipe busy 6 cycles */
    static const struct {
        enum wsched_why r;
        int n;
    } seq[] = {{WSCHED_IBUF_EMPTY, 2}, {WSCHED_BARRIER, 3}, {WSCHED_MEM_ORDER, 4}, {WSCHED_SCOREBOARD, 5},
               {WSCHED_PIPE_BUSY, 6}};
    for (size_t i = 0; i < ARRAY_LEN(seq); i++) {
        script_all(&m, WSCHED_IBUF_EMPTY);
        m.why[i % 4] = seq[i].r; /* a different warp carries the top reason each time */
        for (int c = 0; c < seq[i].n; c++)
            wsched_tick(&s, t++, &port);
    }
    /* 3 issue cycles */
    script_all(&m, WSCHED_READY);
    for (int c = 0; c < 3; c++)
        wsched_tick(&s, t++, &port);
    /* skipped cycles: tick at t (scoreboard stall), the SM sleeps until t + 5: cycles t+1..t+4 (4) are
     * charged to the scoreboard as well -> scoreboard total 5 + 1 + 4 + 1 = 11 */
    script_all(&m, WSCHED_SCOREBOARD);
    wsched_tick(&s, t, &port);
    wsched_tick(&s, t + 5, &port);
    const struct wsched_stats *st = &s.units[0].st;
    TAP_EQ_U64(st->stall[WSCHED_NO_WARP], 1, "no warp: 1");
    TAP_EQ_U64(st->stall[WSCHED_IBUF_EMPTY], 2, "I-buffer empty: 2");
    TAP_EQ_U64(st->stall[WSCHED_BARRIER], 3, "barrier: 3");
    TAP_EQ_U64(st->stall[WSCHED_MEM_ORDER], 4, "memory ordering: 4");
    TAP_EQ_U64(st->stall[WSCHED_SCOREBOARD], 11, "scoreboard: 5 + 1 + 4 skipped + 1 = 11");
    TAP_EQ_U64(st->stall[WSCHED_PIPE_BUSY], 6, "pipe busy: 6");
    TAP_EQ_U64(st->stall[WSCHED_POLICY], 0, "policy: 0 (GTO offers every warp)");
    TAP_EQ_U64(st->issued, 3, "issued: 3");
    /* cycles = 1 + 20 + 3 + 1 + 4 + 1 = 30 = last tick t + 5 + 1 */
    TAP_EQ_U64(st->cycles, 30, "cycles = 30 = issued + every stall");
    wsched_check(&s);

    /* Through the statistics registry. */
    struct stats *reg = stats_create();
    wsched_stats_register(&s, reg, "sm.sched", 0);
    uint64_t v = 0;
    TAP_OK(stats_get_u64(reg, "sm.sched.stall_barrier", &v) && v == 3, "stats registry: sm.sched.stall_barrier = 3");
    TAP_OK(stats_get_u64(reg, "sm.sched.issue_by_warp", &v) && v == 3, "issue_by_warp histogram holds 3 issues");
    stats_destroy(reg);
    wsched_fini(&s);

    /* The barrier, membar and pipe reasons produced by the pipeline SM: 2 warps, barrier
     * then membar after a long load; pipe ii 3. */
    uint16_t r1 = SB_GPR(1), r2 = SB_GPR(2);
    struct finsn p0[3], p1[2];
    p0[0] = fi(1, &r2, 1, &r1, 8, true); /* w0: ld r1 (long, 8 cycles) */
    p0[1] = fi(0, NULL, 0, NULL, 1, false);
    p0[1].membar = true;                 /* w0: membar: waits for r1 */
    p0[2] = fi(0, NULL, 0, NULL, 1, false);
    p0[2].barrier = true;                /* w0: bar.sync */
    p1[0] = fi(0, NULL, 0, NULL, 1, false);
    p1[0].barrier = true;                /* w1: bar.sync first */
    p1[1] = fi(1, &r2, 1, &r1, 1, false); /* w1: mov r1 <- r2 after the barrier */
    mk_sched(&s, WSCHED_LRR, 1, 8);
    struct pipe_sm *pm = calloc(1, sizeof *pm);
    scoreboard_init(&pm->sb, NW);
    pm->ws = &s;
    pm->prog[0] = p0;
    pm->len[0] = 3;
    pm->prog[1] = p1;
    pm->len[1] = 2;
    pm->ibuf[0] = pm->ibuf[1] = true;
    pm->n_warps = 2;
    pm->pipe_ii = 3;
    wsched_warp_launch(&s, 0, 0);
    wsched_warp_launch(&s, 1, 0);
    struct wsched_port pp = {pm, pipe_check, pipe_issue, NULL, NULL, NULL, NULL, false, NULL};
    /* The fake's check() tests the pipe for every instruction (a barrier too), but only
     * ALU/memory instructions occupy it (ii 3):
     * cycle 0: w0 ld issues, pipe busy until 3
     * cycles 1, 2: w1 bar.sync waits for the pipe (PIPE_BUSY), w0 membar waits for r1 (MEM_ORDER)
     *   -> PIPE_BUSY ranks higher: 2 cycles
     * cycle 3: w1 bar.sync issues (arrives, waits)
     * cycles 4..7: w1 BARRIER, w0 MEM_ORDER -> MEM_ORDER: 4 cycles
     * cycle 8: r1 written back (0 + 8) before issue, w0 membar issues, pipe busy until 11
     * cycles 9, 10: w0 bar.sync PIPE_BUSY, w1 BARRIER -> PIPE_BUSY: 2 more (total 4)
     * cycle 11: w0 bar.sync issues, every warp arrived -> released
     * cycle 12: w1 mov issues (the barrier did not occupy the pipe)
     * cycle 13: both programs done -> IBUF_EMPTY: 1
     * issued at 0, 3, 8, 11, 12 = 5 */
    while (pm->now < 14)
        pipe_cycle(pm, &pp);
    st = &s.units[0].st;
    TAP_EQ_U64(st->issued, 5, "pipeline SM: 5 instructions issued");
    TAP_EQ_U64(st->stall[WSCHED_MEM_ORDER], 4, "pipeline SM: membar is the best reason 4 cycles (4..7)");
    TAP_EQ_U64(st->stall[WSCHED_PIPE_BUSY], 4, "pipeline SM: pipe busy 4 cycles (1, 2, 9, 10)");
    TAP_EQ_U64(st->stall[WSCHED_IBUF_EMPTY], 1, "pipeline SM: programs done, 1 cycle (13)");
    TAP_EQ_U64(st->stall[WSCHED_BARRIER], 0, "pipeline SM: barrier never the best reason");
    scoreboard_fini(&pm->sb);
    free(pm);
    wsched_fini(&s);
}

/* ------------------------------------------------------ reference models */

static uint64_t rng_next(uint64_t *x)
{
    /* xorshift64*: deterministic test input */
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 2685821657736338717ull;
}

enum fault { FAULT_NONE, FAULT_GTO_YOUNGEST, FAULT_LRR_NO_SKIP, FAULT_2LEV_NEWEST };

/* Naive reference of one SM's schedulers: plain scans, no memo, no sorted lists. */
struct ref {
    int policy;
    uint32_t n_sched, cap;
    bool res[NW];
    uint64_t seq[NW];
    uint32_t last[WSCHED_MAX_SCHED];        /* last issued warp */
    uint32_t pool[WSCHED_MAX_SCHED][NW];    /* two-level pool positions */
    uint32_t rr[WSCHED_MAX_SCHED];          /* two-level position of the last issue */
    bool waiting[NW];                       /* two-level long wait */
    uint64_t stall[WSCHED_MAX_SCHED][WSCHED_N_WHY];
    enum fault fault;
};

static bool ref_older(const struct ref *r, uint32_t a, uint32_t b)
{
    return r->seq[a] < r->seq[b] || (r->seq[a] == r->seq[b] && a < b);
}

static void ref_init(struct ref *r, int policy, uint32_t n_sched, uint32_t n_active, enum fault f)
{
    memset(r, 0, sizeof *r);
    r->policy = policy;
    r->n_sched = n_sched;
    r->cap = n_active / n_sched;
    r->fault = f;
    for (uint32_t k = 0; k < n_sched; k++) {
        r->last[k] = WSCHED_NONE;
        r->rr[k] = r->cap - 1;
        for (uint32_t i = 0; i < NW; i++)
            r->pool[k][i] = WSCHED_NONE;
    }
}

static void ref_exit(struct ref *r, uint32_t w)
{
    uint32_t k = w % r->n_sched;
    r->res[w] = false;
    r->waiting[w] = false;
    if (r->policy == WSCHED_GTO && r->last[k] == w)
        r->last[k] = WSCHED_NONE;
    for (uint32_t i = 0; i < r->cap; i++)
        if (r->pool[k][i] == w)
            r->pool[k][i] = WSCHED_NONE;
}

/* Returns the warp scheduler k issues given per-warp reasons why[]; also the classification. */
static uint32_t ref_pick(struct ref *r, uint32_t k, const enum wsched_why *why, const uint32_t *flags)
{
    uint32_t n = r->n_sched, pick = WSCHED_NONE;
    uint32_t slots = (NW - k + n - 1) / n;
    bool any = false;
    for (uint32_t w = k; w < NW; w += n)
        any |= r->res[w];
    if (!any) {
        r->stall[k][WSCHED_NO_WARP]++;
        return WSCHED_NONE;
    }
    if (r->policy == WSCHED_LRR) {
        uint32_t start = r->last[k] == WSCHED_NONE ? 0 : r->last[k] / n + 1;
        if (r->fault == FAULT_LRR_NO_SKIP && r->last[k] != WSCHED_NONE)
            start = r->last[k] / n; /* wrong: starts at the last issued warp */
        for (uint32_t i = 0; i < slots && pick == WSCHED_NONE; i++) {
            uint32_t w = k + ((start + i) % slots) * n;
            if (r->res[w]) {
                if (why[w] == WSCHED_READY)
                    pick = w;
            }
        }
    } else if (r->policy == WSCHED_GTO) {
        uint32_t g = r->last[k];
        if (g != WSCHED_NONE && r->res[g]) {
            if (why[g] == WSCHED_READY)
                pick = g;
        }
        if (pick == WSCHED_NONE) {
            for (uint32_t w = k; w < NW; w += n) {
                if (!r->res[w])
                    continue;
                if (why[w] != WSCHED_READY)
                    continue;
                bool better = pick == WSCHED_NONE ||
                              (r->fault == FAULT_GTO_YOUNGEST ? ref_older(r, pick, w) : ref_older(r, w, pick));
                if (better)
                    pick = w;
            }
        }
    } else {
        uint32_t *pool = r->pool[k];
        for (uint32_t i = 0; i < r->cap; i++)
            if (pool[i] != WSCHED_NONE && (why[pool[i]] == WSCHED_BARRIER || why[pool[i]] == WSCHED_MEM_ORDER))
                pool[i] = WSCHED_NONE;
        for (uint32_t i = 0; i < r->cap; i++) {
            if (pool[i] != WSCHED_NONE)
                continue;
            uint32_t best = WSCHED_NONE;
            for (uint32_t w = k; w < NW; w += n) {
                bool in_pool = false;
                for (uint32_t j = 0; j < r->cap; j++)
                    in_pool |= pool[j] == w;
                if (!r->res[w] || in_pool || r->waiting[w] || why[w] == WSCHED_BARRIER ||
                    why[w] == WSCHED_MEM_ORDER)
                    continue;
                bool better = best == WSCHED_NONE ||
                              (r->fault == FAULT_2LEV_NEWEST ? ref_older(r, best, w) : ref_older(r, w, best));
                if (better)
                    best = w;
            }
            pool[i] = best;
        }
        for (uint32_t i = 1; i <= r->cap && pick == WSCHED_NONE; i++) {
            uint32_t pos = (r->rr[k] + i) % r->cap;
            uint32_t w = pool[pos];
            if (w == WSCHED_NONE)
                continue;
            if (why[w] == WSCHED_READY) {
                pick = w;
                r->rr[k] = pos;
                if (flags[w] & WSCHED_ISSUE_LONG) {
                    r->waiting[w] = true;
                    pool[pos] = WSCHED_NONE;
                }
            }
        }
    }
    if (pick != WSCHED_NONE) {
        r->last[k] = pick;
        r->stall[k][WSCHED_READY]++;
        return pick;
    }
    enum wsched_why worst = WSCHED_NO_WARP;
    for (uint32_t w = k; w < NW; w += n) {
        if (!r->res[w])
            continue;
        enum wsched_why x = why[w] == WSCHED_READY ? WSCHED_POLICY : why[w];
        if (x > worst)
            worst = x;
    }
    r->stall[k][worst]++;
    return WSCHED_NONE;
}

/* Random run: returns the number of (cycle, scheduler) decisions where the
 * optimised scheduler and the reference disagree; *hash gets a trace hash. */
static uint64_t random_compare(int policy, uint32_t n_sched, uint32_t n_active, uint64_t seed, uint32_t cycles,
                               enum fault f, uint64_t *hash)
{
    struct wsched s;
    struct ref r;
    struct script_sm m;
    memset(&m, 0, sizeof m);
    struct wsched_port port = {&m, script_check, script_issue, NULL, NULL, NULL, NULL, false, NULL};
    mk_sched(&s, policy, n_sched, n_active);
    ref_init(&r, policy, n_sched, n_active, f);
    uint64_t x = seed, bad = 0, h = 1469598103934665603ull, cta = 0;
    for (uint32_t t = 0; t < cycles; t++) {
        /* random launches (CTA of 1..4 warps into free slots) and exits */
        if (rng_next(&x) % 8 == 0) {
            uint32_t nw = 1 + (uint32_t)(rng_next(&x) % 4);
            for (uint32_t i = 0; i < nw; i++) {
                uint32_t w = (uint32_t)(rng_next(&x) % NW);
                if (!r.res[w]) {
                    wsched_warp_launch(&s, w, cta);
                    r.res[w] = true;
                    r.seq[w] = cta;
                    r.waiting[w] = false;
                }
            }
            cta++;
        }
        if (rng_next(&x) % 6 == 0) {
            uint32_t w = (uint32_t)(rng_next(&x) % NW);
            if (r.res[w]) {
                wsched_warp_exit(&s, w);
                ref_exit(&r, w);
            }
        }
        if (rng_next(&x) % 3 == 0) {
            uint32_t w = (uint32_t)(rng_next(&x) % NW);
            if (r.res[w] && r.waiting[w]) {
                wsched_notify(&s, w, WSCHED_EV_LONG_DONE);
                r.waiting[w] = false;
            }
        }
        for (uint32_t w = 0; w < NW; w++) {
            uint64_t v = rng_next(&x) % 100;
            m.why[w] = v < 35 ? WSCHED_READY
                       : v < 50 ? WSCHED_IBUF_EMPTY
                       : v < 58 ? WSCHED_BARRIER
                       : v < 64 ? WSCHED_MEM_ORDER
                       : v < 88 ? WSCHED_SCOREBOARD
                                : WSCHED_PIPE_BUSY;
            m.flags[w] = rng_next(&x) % 4 == 0 ? WSCHED_ISSUE_LONG : 0;
        }
        wsched_tick(&s, t, &port);
        for (uint32_t k = 0; k < n_sched; k++) {
            uint32_t want = ref_pick(&r, k, m.why, m.flags);
            uint32_t got = wsched_issued(&s, k);
            if (want != got)
                bad++;
            h = (h ^ got) * 1099511628211ull;
        }
        wsched_check(&s);
    }
    for (uint32_t k = 0; k < n_sched; k++) {
        for (int y = 0; y < WSCHED_READY; y++) {
            if (s.units[k].st.stall[y] != r.stall[k][y])
                bad++;
            h = (h ^ s.units[k].st.stall[y]) * 1099511628211ull;
        }
        if (s.units[k].st.issued != r.stall[k][WSCHED_READY])
            bad++;
    }
    wsched_fini(&s);
    if (hash)
        *hash = h;
    return bad;
}

static void test_random_vs_reference(void)
{
    static const char *const names[] = {"lrr", "gto", "two_level"};
    for (int p = WSCHED_LRR; p <= WSCHED_TWO_LEVEL; p++) {
        for (uint32_t ns = 1; ns <= 4; ns *= 2) {
            uint64_t bad = random_compare(p, ns, 8, 0x9E3779B97F4A7C15ull + (uint64_t)p * 7 + ns, 5000, FAULT_NONE, NULL);
            TAP_EQ_U64(bad, 0, "%s, %u scheduler(s): 5000 random cycles match the reference (picks and stalls)",
                       names[p], ns);
        }
    }
    /* the spec's pool with one scheduler and 6 active (GPGPU-Sim example) */
    TAP_EQ_U64(random_compare(WSCHED_TWO_LEVEL, 1, 6, 42, 5000, FAULT_NONE, NULL), 0,
               "two_level, pool 6: 5000 random cycles match the reference");
}

static void test_determinism(void)
{
    uint64_t h1 = 0, h2 = 0, h3 = 0;
    random_compare(WSCHED_GTO, 2, 8, 777, 3000, FAULT_NONE, &h1);
    random_compare(WSCHED_GTO, 2, 8, 777, 3000, FAULT_NONE, &h2);
    random_compare(WSCHED_GTO, 2, 8, 778, 3000, FAULT_NONE, &h3);
    TAP_OK(h1 == h2, "same input -> identical issue trace and stall counters (hash %016llx)", (unsigned long long)h1);
    TAP_OK(h1 != h3, "different input -> different trace (the hash is sensitive)");
}

static void test_fault_injection(void)
{
    /* A deliberately wrong reference must be caught by the same checker. */
    TAP_OK(random_compare(WSCHED_GTO, 2, 8, 5, 2000, FAULT_GTO_YOUNGEST, NULL) > 0,
           "sched_fault: GTO reference picking the youngest warp is reported");
    TAP_OK(random_compare(WSCHED_LRR, 2, 8, 5, 2000, FAULT_LRR_NO_SKIP, NULL) > 0,
           "sched_fault: LRR reference restarting at the last warp is reported");
    TAP_OK(random_compare(WSCHED_TWO_LEVEL, 2, 8, 5, 2000, FAULT_2LEV_NEWEST, NULL) > 0,
           "sched_fault: two-level reference refilling newest-first is reported");
}

/* ------------------------------------------------------ skipped evaluations */

struct skip_sm {
    struct script_sm m;
    uint64_t sig; /* res_sig answer */
};

static uint64_t skip_sig(void *ctx) { return ((struct skip_sm *)ctx)->sig; }

/* NOTE(sched-skip): a port with res_sig is evaluated again only after a
 * touch, a launch/exit, an issue, or (for a pipe-busy stall) a changed
 * signature; the cycles in between are charged to the same reason. */
static void test_skip(void)
{
    struct wsched s;
    struct skip_sm k;
    memset(&k, 0, sizeof k);
    struct wsched_port port = {&k, script_check, script_issue, skip_sig, NULL, NULL, NULL, false, NULL};
    mk_sched(&s, WSCHED_GTO, 1, 8);
    for (uint32_t w = 0; w < 4; w++)
        wsched_warp_launch(&s, w, 0);
    script_all(&k.m, WSCHED_SCOREBOARD);
    cycle_t t = 0;
    TAP_EQ_U64(wsched_tick(&s, t++, &port), CYCLE_NEVER, "all on the scoreboard: nothing issues");
    uint32_t checks = k.m.n_check;
    TAP_EQ_U64(checks, 4, "first evaluation probes the 4 warps once each (one pass)");
#ifndef GPUSIM_PARANOID
    /* The SM would report the change; without a touch the scheduler keeps
     * its outcome (this is the contract, shown with a port that lies; a
     * GPUSIM_PARANOID build panics on exactly this, so it skips it). */
    k.m.why[2] = WSCHED_READY;
    TAP_EQ_U64(wsched_tick(&s, t++, &port), CYCLE_NEVER, "no touch: evaluation skipped, nothing issues");
    TAP_EQ_U64(k.m.n_check, checks, "skipped evaluation probes nothing");
#else
    TAP_EQ_U64(wsched_tick(&s, t++, &port), CYCLE_NEVER, "no touch: evaluation skipped, nothing issues");
    TAP_OK(k.m.n_check > checks, "paranoid build: the skipped evaluation is re-derived");
    k.m.why[2] = WSCHED_READY;
#endif
    TAP_EQ_U64(s.units[0].skipped, 1, "one skipped evaluation counted");
    wsched_touch(&s, 2);
    TAP_EQ_U64(wsched_tick(&s, t++, &port), t, "after the touch warp 2 issues");
    TAP_EQ_U64(k.m.log[0], 2, "issued warp is 2");
    /* Pipe busy: the signature decides. */
    script_all(&k.m, WSCHED_PIPE_BUSY);
    k.sig = 7;
    wsched_touch(&s, 2);
    TAP_EQ_U64(wsched_tick(&s, t++, &port), CYCLE_NEVER, "pipe busy: nothing issues");
    uint64_t skipped = s.units[0].skipped;
    wsched_tick(&s, t++, &port);
    TAP_EQ_U64(s.units[0].skipped, skipped + 1, "pipe busy, same signature: skipped");
    script_all(&k.m, WSCHED_READY);
    k.sig = 8;
    TAP_EQ_U64(wsched_tick(&s, t++, &port), t, "pipe busy, signature changed: evaluated, warp issues");
    k.sig = UINT64_MAX;
    script_all(&k.m, WSCHED_PIPE_BUSY);
    wsched_tick(&s, t++, &port);
    skipped = s.units[0].skipped;
    wsched_tick(&s, t++, &port);
    TAP_EQ_U64(s.units[0].skipped, skipped, "signature UINT64_MAX (cycle-dependent): never skipped");
    wsched_check(&s);
    uint64_t sum = s.units[0].st.issued;
    for (int r = 0; r < WSCHED_READY; r++)
        sum += s.units[0].st.stall[r];
    TAP_EQ_U64(sum, t, "every cycle accounted once, skipped ones included");
    TAP_EQ_U64(s.units[0].st.stall[WSCHED_SCOREBOARD], 2, "skipped cycle charged to the scoreboard");
    wsched_fini(&s);

    /* A port without res_sig is always evaluated. */
    mk_sched(&s, WSCHED_GTO, 1, 8);
    memset(&k, 0, sizeof k);
    struct wsched_port plain = {&k, script_check, script_issue, NULL, NULL, NULL, NULL, false, NULL};
    wsched_warp_launch(&s, 0, 0);
    script_all(&k.m, WSCHED_SCOREBOARD);
    wsched_tick(&s, 0, &plain);
    k.m.why[0] = WSCHED_READY;
    TAP_EQ_U64(wsched_tick(&s, 1, &plain), 2, "no res_sig: a change is seen without a touch");
    wsched_fini(&s);
}

/* ------------------------------------------------------ keyed answers */

/* NOTE(pass-key): with pw_memo and pw_keyed, the gto walk asks check()
 * once per distinct unblocked memo byte in an evaluation; blocked bytes
 * are answered from the memo. The issued warp and the stall reason are
 * those of the unkeyed walk, which asks for every warp. */
static void test_pass_key(void)
{
    const uint8_t CLS_A = 0x40 | 1, CLS_B = 0x40 | 0x20 | 2, SB = 0x80 | WSCHED_SCOREBOARD;
    /* memo bytes of warps 0..5 (age order): A, SB, A, B, A, B */
    const uint8_t bytes[6] = {CLS_A, SB, CLS_A, CLS_B, CLS_A, CLS_B};
    uint32_t issued[2], checks[2];
    uint64_t busy[2], sb[2];
    for (int keyed = 0; keyed < 2; keyed++) {
        struct wsched s;
        struct script_sm m;
        memset(&m, 0, sizeof m);
        uint8_t memo[NW] = {0};
        for (uint32_t w = 0; w < 6; w++) {
            memo[w] = bytes[w];
            m.why[w] = bytes[w] == SB ? WSCHED_SCOREBOARD : bytes[w] == CLS_A ? WSCHED_PIPE_BUSY : WSCHED_READY;
        }
        struct wsched_port port = {&m, script_check, script_issue, NULL, NULL, NULL, memo, keyed != 0, NULL};
        mk_sched(&s, WSCHED_GTO, 1, 8);
        for (uint32_t w = 0; w < 6; w++)
            wsched_warp_launch(&s, w, 0);
        /* cycle 0: class B is ready, so warp 3 (the oldest B) issues */
        wsched_tick(&s, 0, &port);
        issued[keyed] = m.n_log ? m.log[0] : 99;
        /* cycle 1: the pipes of both classes busy, warp 3 again on the
         * scoreboard: nothing issues, the stall is pipe_busy */
        for (uint32_t w = 0; w < 6; w++)
            if (m.why[w] == WSCHED_READY)
                m.why[w] = WSCHED_PIPE_BUSY;
        memo[3] = SB;
        m.why[3] = WSCHED_SCOREBOARD;
        m.n_check = 0;
        wsched_tick(&s, 1, &port);
        checks[keyed] = m.n_check;
        busy[keyed] = s.units[0].st.stall[WSCHED_PIPE_BUSY];
        sb[keyed] = s.units[0].st.stall[WSCHED_SCOREBOARD];
        wsched_check(&s);
        wsched_fini(&s);
    }
    TAP_EQ_U64(issued[1], 3, "keyed: the oldest warp of the ready class issues");
    TAP_EQ_U64(issued[1], issued[0], "keyed and unkeyed walks issue the same warp");
    TAP_EQ_U64(busy[1], busy[0], "the same pipe_busy count");
    TAP_EQ_U64(sb[1], sb[0], "the same scoreboard count");
#ifndef GPUSIM_PARANOID
    TAP_EQ_U64(checks[0], 4, "unkeyed: check() for each of the 4 unblocked warps");
    TAP_EQ_U64(checks[1], 2, "keyed: check() once per distinct byte (A, B)");
#else
    TAP_EQ_U64(checks[0], 6, "paranoid build, unkeyed: check() for every warp");
    TAP_EQ_U64(checks[1], 6, "paranoid build, keyed: check() for every warp, kept answers compared");
#endif
}

/* NOTE(blocked-masks): the gto walk with the port's blocked masks visits
 * only the unblocked warps; it must issue the same warps, classify the same
 * stalls and ask check() as often as the walk over every warp. Random
 * memo bytes (blocked with a reason, a pass byte whose class answers READY
 * or PIPE_BUSY, or not filled), with the blocked share varied so that both
 * walks are taken, and warps exiting and relaunching out of slot order so
 * that age order differs from slot order. */
static void test_blocked_masks(void)
{
    uint64_t rng = 0x5eed0fb10cull;
    for (int keyed = 0; keyed < 2; keyed++) {
        struct wsched s[2];
        struct script_sm m[2];
        uint8_t memo[NW] = {0};
        uint64_t blk[WSCHED_N_WHY] = {0};
        memset(m, 0, sizeof m);
        struct wsched_port port[2] = {
            {&m[0], script_check, script_issue, NULL, NULL, NULL, memo, keyed != 0, NULL},
            {&m[1], script_check, script_issue, NULL, NULL, NULL, memo, keyed != 0, blk},
        };
        uint64_t seq = 0;
        for (int i = 0; i < 2; i++) {
            mk_sched(&s[i], WSCHED_GTO, 2, 8);
            for (uint32_t w = 0; w < NW; w++)
                wsched_warp_launch(&s[i], (w * 7) % NW, seq + w / 8);
        }
        seq = NW;
        bool same = true;
        uint64_t checks_differ = 0;
        for (uint64_t c = 0; c < 4000; c++) {
            if (c % 50 == 49) { /* a warp leaves; a younger one takes its slot */
                uint32_t w = (uint32_t)(rng_next(&rng) % NW);
                for (int i = 0; i < 2; i++) {
                    wsched_warp_exit(&s[i], w);
                    wsched_warp_launch(&s[i], w, seq);
                }
                seq++;
            }
            uint32_t pct = 20 + (uint32_t)((c / 100) % 5) * 20; /* blocked share: 20 .. 100 % */
            enum wsched_why cls_why[4];
            for (int k = 0; k < 4; k++)
                cls_why[k] = rng_next(&rng) % 3 ? WSCHED_PIPE_BUSY : WSCHED_READY;
            memset(blk, 0, sizeof blk);
            enum wsched_why why[NW];
            for (uint32_t w = 0; w < NW; w++) {
                uint64_t x = rng_next(&rng);
                if (x % 100 < pct) {
                    enum wsched_why r = (enum wsched_why)(WSCHED_IBUF_EMPTY + (x >> 8) % 4);
                    memo[w] = (uint8_t)(WSCHED_PW_BLOCK | r);
                    blk[r] |= 1ull << w;
                    why[w] = r;
                } else if ((x >> 16) % 4) {
                    uint32_t k = (uint32_t)((x >> 20) % 4);
                    memo[w] = (uint8_t)(0x40 | k);
                    why[w] = cls_why[k];
                } else {
                    memo[w] = 0;
                    why[w] = (x >> 24) % 2 ? WSCHED_READY : WSCHED_SCOREBOARD;
                }
            }
            for (int i = 0; i < 2; i++) {
                memcpy(m[i].why, why, sizeof why);
                m[i].n_log = 0;
                m[i].n_check = 0;
                wsched_tick(&s[i], c, &port[i]);
            }
            same &= m[0].n_log == m[1].n_log && memcmp(m[0].log, m[1].log, m[0].n_log * sizeof *m[0].log) == 0;
            checks_differ += m[0].n_check != m[1].n_check;
        }
        for (uint32_t k = 0; k < 2; k++) {
            same &= s[0].units[k].st.issued == s[1].units[k].st.issued &&
                    memcmp(s[0].units[k].st.stall, s[1].units[k].st.stall, sizeof s[0].units[k].st.stall) == 0;
        }
        uint64_t masked = s[1].units[0].masked + s[1].units[1].masked;
        uint64_t evals = 2 * 4000;
        TAP_OK(same, "%s: the masked walk issues and classifies as the full walk over 4000 cycles",
               keyed ? "keyed" : "unkeyed");
        TAP_OK(masked > evals / 4 && masked < evals, "%s: %llu of %llu evaluations took the masked walk",
               keyed ? "keyed" : "unkeyed", (unsigned long long)masked, (unsigned long long)evals);
        TAP_EQ_U64(s[0].units[0].masked + s[0].units[1].masked, 0, "a port without masks never takes it");
#ifndef GPUSIM_PARANOID
        TAP_EQ_U64(checks_differ, 0, "check() is asked as often by both walks");
#else
        (void)checks_differ; /* the paranoid masked walk also asks every blocked warp */
#endif
        for (int i = 0; i < 2; i++) {
            wsched_check(&s[i]);
            wsched_fini(&s[i]);
        }
    }
}

static const struct tap_test tests[] = {
    {"config", test_cfg},
    {"lrr", test_lrr},
    {"issue_order", test_issue_order},
    {"gto", test_gto},
    {"two_level", test_two_level},
    {"scoreboard", test_scoreboard},
    {"pipeline_scoreboard", test_pipeline_scoreboard},
    {"stall_reasons", test_stall_reasons},
    {"random_vs_reference", test_random_vs_reference},
    {"determinism", test_determinism},
    {"sched_fault", test_fault_injection},
    {"skip", test_skip},
    {"sched_of", test_sched_of},
    {"pass_key", test_pass_key},
    {"blocked_masks", test_blocked_masks},
};

int main(void)
{
    return tap_run(tests, ARRAY_LEN(tests));
}
