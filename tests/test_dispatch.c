/* tests/test_dispatch.c: the CTA dispatcher (sim/dispatch/dispatch.c) and its
 * round-robin policy (sim/dispatch/dispatch_rr.c) against hand-worked examples from
 * spec baseline-gpu.md 2.1 / 2.10 on the gtx480 SM budgets (8 CTA slots,
 * 1536 threads, 48 warps, 32768 registers, 48 KB shared memory, 15 SMs),
 * plus a naive reference model driven with random completion orders, and
 * injected faults that the checker must catch. All times are simulated
 * core cycles passed in by the test.
 */
#include "sim/dispatch/dispatch.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

/* ------------------------------------------------------------- harness */

#define LOG_CAP 8192
#define KDONE UINT32_MAX /* log marker: kernel completed (sm field) */

/* One observable event: a CTA start (sm, cta, xyz) or a kernel completion
 * (sm == KDONE), with the kernel's sequence number and the step's cycle. */
struct rec {
    uint64_t kseq;
    uint32_t sm, cta, x, y, z;
    cycle_t t;
};

struct harness {
    struct dispatcher d;
    cycle_t now;            /* cycle of the step in progress */
    bool drained;           /* answer of memory_drained */
    uint32_t drained_calls; /* memory_drained queries */
    struct rec log[LOG_CAP];
    uint32_t n;
    uint64_t kstart[32], kdone[32]; /* kernel seqs in callback order */
    uint32_t n_kstart, n_kdone;
    uint32_t order[64];     /* callback order: 1 = start, 2 = done */
    uint32_t n_order;
    struct dispatch_kernel rec_done[32];     /* kernel records handed to kernel_done */
    uint64_t sm_ctas_done[32][24];           /* per-SM counts of that kernel at kernel_done */
};

static void h_start_cta(void *ctx, uint32_t sm, uint32_t cta, struct dispatch_dim3 xyz)
{
    struct harness *h = ctx;
    if (h->n < LOG_CAP)
        h->log[h->n++] = (struct rec){dispatch_running(&h->d)->seq, sm, cta, xyz.x, xyz.y, xyz.z, h->now};
}

static bool h_drained(void *ctx)
{
    struct harness *h = ctx;
    h->drained_calls++;
    return h->drained;
}

static void h_kstart(void *ctx, const struct dispatch_kernel *k)
{
    struct harness *h = ctx;
    if (h->n_kstart < 32)
        h->kstart[h->n_kstart++] = k->seq;
    if (h->n_order < 64)
        h->order[h->n_order++] = 1;
}

static void h_kdone(void *ctx, const struct dispatch_kernel *k)
{
    struct harness *h = ctx;
    if (h->n_kdone < 32) {
        h->rec_done[h->n_kdone] = *k;
        for (uint32_t i = 0; i < h->d.n_sm && i < 24; i++)
            h->sm_ctas_done[h->n_kdone][i] = h->d.st.sm_ctas_kernel[i];
        h->kdone[h->n_kdone++] = k->seq;
    }
    if (h->n_order < 64)
        h->order[h->n_order++] = 2;
    if (h->n < LOG_CAP)
        h->log[h->n++] = (struct rec){k->seq, KDONE, 0, 0, 0, 0, h->now};
}

/* gtx480 SM budgets (spec 4.2; configs/gtx480.cfg). */
static void gtx480_sm(struct sm_cfg *sm, struct smem_cfg *smem)
{
    sm->max_cta = 8;
    sm->max_threads = 1536;
    sm->max_warps = 48;
    sm->n_regs = 32768;
    sm->max_block_threads = 1024;
    smem->size = 48 * 1024;
}

static struct harness *h_new(uint32_t n_sm)
{
    struct harness *h = calloc(1, sizeof *h);
    struct dispatch_cfg c;
    struct sm_cfg sm;
    struct smem_cfg smem;
    dispatch_cfg_defaults(&c);
    gtx480_sm(&sm, &smem);
    struct dispatch_port p = {h, h_start_cta, h_drained, h_kstart, h_kdone};
    h->drained = true;
    dispatch_init(&h->d, &c, &sm, &smem, n_sm, &p);
    return h;
}

static void h_free(struct harness *h)
{
    dispatch_fini(&h->d);
    free(h);
}

static bool h_step(struct harness *h, cycle_t now)
{
    h->now = now;
    return dispatch_step(&h->d, now);
}

static struct dispatch_launch kl(const char *name, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t threads,
                                 uint32_t regs, uint64_t smem)
{
    struct dispatch_launch l = {name, 0, {gx, gy, gz}, {threads, 1, 1}, regs, smem};
    return l;
}

/* Finish every resident CTA, SM by SM. */
static void h_finish_all(struct harness *h)
{
    for (uint32_t s = 0; s < h->d.n_sm; s++)
        while (h->d.sm[s].n_cta)
            dispatch_cta_done(&h->d, s, h->d.sm[s].resident[0]);
}

/* The checker: number of positions where got and want differ (plus the
 * length difference). Used for every sequence comparison, and fed wrong
 * expectations in the fault tests to show it reports them. */
static uint32_t count_mismatches(const struct rec *got, uint32_t n_got, const struct rec *want, uint32_t n_want,
                                 bool verbose)
{
    uint32_t bad = n_got > n_want ? n_got - n_want : n_want - n_got;
    uint32_t n = MIN(n_got, n_want);
    for (uint32_t i = 0; i < n; i++) {
        const struct rec *a = &got[i], *b = &want[i];
        if (a->kseq != b->kseq || a->sm != b->sm || a->cta != b->cta || a->x != b->x || a->y != b->y ||
            a->z != b->z || a->t != b->t) {
            if (verbose && bad < 3)
                tap_diag("event %u: got k%llu sm %u cta %u (%u,%u,%u) t %llu; want k%llu sm %u cta %u (%u,%u,%u) t %llu",
                         i, (unsigned long long)a->kseq, a->sm, a->cta, a->x, a->y, a->z, (unsigned long long)a->t,
                         (unsigned long long)b->kseq, b->sm, b->cta, b->x, b->y, b->z, (unsigned long long)b->t);
            bad++;
        }
    }
    return bad;
}

/* ------------------------------------------------------------- tests */

static void test_cfg(void)
{
    struct dispatch_cfg c;
    dispatch_cfg_defaults(&c);
    TAP_EQ_U64(c.policy, DISPATCH_POLICY_RR, "default dispatch.policy is rr (spec 4.2 cta.policy = rr)");
    TAP_EQ_U64(dispatch_cfg_n_keys, 1, "one key in the dispatch section");
    TAP_STREQ(dispatch_cfg_keys[0].name, "policy", "key name policy");
    TAP_STREQ(dispatch_cfg_keys[0].def, "rr", "key table default matches dispatch_cfg_defaults");
    int v = 7;
    char why[128] = "";
    TAP_OK(cfg_parse_value(&dispatch_cfg_keys[0], "rr", &v, why, sizeof why) && v == 0,
           "cfg machinery parses dispatch.policy = rr to index 0");
    TAP_OK(!cfg_parse_value(&dispatch_cfg_keys[0], "bcs", &v, why, sizeof why) && v == 0,
           "dispatch.policy = bcs is refused until that policy exists (%s)", why);
}

static void test_occupancy(void)
{
    struct sm_cfg sm;
    struct smem_cfg smem;
    gtx480_sm(&sm, &smem);
    /* 256 threads x 20 regs: slots 8; threads 1536/256 = 6; warps 48/8 = 6;
     * regs 32768/(20*256 = 5120) = 6.4 -> 6; no smem. min = 6. */
    TAP_EQ_U64(sm_ctas_per_sm(&sm, &smem, 256, 20, 0), 6, "256 thr x 20 regs -> 6 CTAs per SM");
    /* hotspot (spec 2.1, 002 Table 1): 256 x 60: regs 32768/15360 = 2.13 -> 2. */
    TAP_EQ_U64(sm_ctas_per_sm(&sm, &smem, 256, 60, 0), 2, "hotspot 256 thr x 60 regs -> 2 CTAs per SM");
    /* 128 x 16 with 12 KB smem: slots 8; threads 1536/128 = 12; warps 48/4 = 12;
     * regs 32768/(16*128 = 2048) = 16; smem 49152/12288 = 4. min = 4. */
    TAP_EQ_U64(sm_ctas_per_sm(&sm, &smem, 128, 16, 12288), 4, "128 thr x 16 regs x 12 KB smem -> 4 (smem-bound)");
    /* 100 threads x 21 regs: T' = 128, R' = 24: regs 32768/3072 = 10.7 -> 10;
     * threads 12, warps 12, slots 8 -> 8 (slot-bound, rounding visible). */
    TAP_EQ_U64(sm_ctas_per_sm(&sm, &smem, 100, 21, 0), 8, "100 thr x 21 regs -> 8 (CTA-slot bound)");
    /* 1024 x 64: regs 32768/(64*1024 = 65536) = 0 -> does not fit. */
    TAP_EQ_U64(sm_ctas_per_sm(&sm, &smem, 1024, 64, 0), 0, "1024 thr x 64 regs does not fit");
}

/* The 100-CTA example of the brief: 15 SMs, grid 10 x 10, 256 thr x 20 regs. */
static void test_rr_fill_and_completions(void)
{
    struct harness *h = h_new(15);
    struct dispatcher *d = &h->d;
    struct dispatch_launch l = kl("k100", 10, 10, 1, 256, 20, 0);
    TAP_EQ_I64(dispatch_launch(d, &l, 0), DISPATCH_OK, "launch 100 CTAs");
    TAP_EQ_U64(h->n, 0, "launch alone starts nothing (the serial step does)");
    TAP_OK(h_step(h, 0), "first step changes state");
    TAP_EQ_U64(dispatch_running(d)->ctas_per_sm, 6, "limit 6 per SM (see test_occupancy)");
    /* Initial fill: 15 SMs x 6 = 90 CTAs, one per SM per turn: CTA i -> SM
     * i mod 15, coordinates (i mod 10, i div 10, 0). */
    TAP_EQ_U64(h->n, 90, "90 CTAs placed = 15 SMs x 6");
    struct rec want[128];
    uint32_t nw = 0;
    for (uint32_t i = 0; i < 90; i++)
        want[nw++] = (struct rec){0, i % 15, i, i % 10, i / 10, 0, 0};
    TAP_EQ_U64(count_mismatches(h->log, h->n, want, nw, true), 0, "fill order CTA i -> SM i mod 15");
    TAP_OK(h->log[0].sm == 0 && h->log[0].cta == 0, "CTA 0 -> SM 0");
    TAP_OK(h->log[1].sm == 1 && h->log[1].cta == 1, "CTA 1 -> SM 1");
    TAP_OK(h->log[15].sm == 0 && h->log[15].cta == 15, "CTA 15 -> SM 0 (second turn)");
    TAP_OK(h->log[89].sm == 14 && h->log[89].x == 9 && h->log[89].y == 8, "CTA 89 -> SM 14 at (9,8,0)");
    /* SM 0 charges: 6 CTAs; threads 6*256 = 1536; warps 6*8 = 48;
     * regs 6*20*256 = 30720; smem 0. */
    TAP_OK(d->sm[0].n_cta == 6 && d->sm[0].threads == 1536 && d->sm[0].warps == 48 && d->sm[0].regs == 30720 &&
               d->sm[0].smem == 0,
           "SM 0 resources: 6 CTAs, 1536 thr, 48 warps, 30720 regs, 0 B");
    uint32_t room = 0;
    for (uint32_t s = 0; s < 15; s++)
        room += dispatch_sm_room(d, s);
    TAP_EQ_U64(room, 0, "every SM at its limit");
    TAP_OK(!h_step(h, 8), "step with nothing reported changes nothing");
    TAP_EQ_U64(h->n, 90, "no CTA placed without a freed slot");

    /* Completions (CTA c < 90 sits on SM c mod 15). last SM served = 14. */
    dispatch_cta_done(d, 3, 33); /* 33 mod 15 = 3 */
    h_step(h, 16);
    /* RR from SM 0: SM 3 gets CTA 90 = (0,9,0). */
    want[nw++] = (struct rec){0, 3, 90, 0, 9, 0, 16};
    dispatch_cta_done(d, 1, 46); /* reported first */
    dispatch_cta_done(d, 7, 22);
    h_step(h, 24);
    /* RR from SM 4: SM 7 -> 91, then 8..14,0,1: SM 1 -> 92 (report order irrelevant). */
    want[nw++] = (struct rec){0, 7, 91, 1, 9, 0, 24};
    want[nw++] = (struct rec){0, 1, 92, 2, 9, 0, 24};
    dispatch_cta_done(d, 14, 89);
    dispatch_cta_done(d, 0, 0);
    dispatch_cta_done(d, 2, 2);
    h_step(h, 32);
    /* RR from SM 2: SM 2 -> 93, SM 14 -> 94, SM 0 -> 95. */
    want[nw++] = (struct rec){0, 2, 93, 3, 9, 0, 32};
    want[nw++] = (struct rec){0, 14, 94, 4, 9, 0, 32};
    want[nw++] = (struct rec){0, 0, 95, 5, 9, 0, 32};
    dispatch_cta_done(d, 5, 5);
    dispatch_cta_done(d, 5, 20);
    h_step(h, 40);
    /* RR from SM 1: SM 5 -> 96; then from 6 all the way round to SM 5 -> 97. */
    want[nw++] = (struct rec){0, 5, 96, 6, 9, 0, 40};
    want[nw++] = (struct rec){0, 5, 97, 7, 9, 0, 40};
    dispatch_cta_done(d, 9, 9);
    dispatch_cta_done(d, 10, 10);
    dispatch_cta_done(d, 11, 11);
    h_step(h, 48);
    /* RR from SM 6: SM 9 -> 98, SM 10 -> 99; SM 11 gets nothing (all issued). */
    want[nw++] = (struct rec){0, 9, 98, 8, 9, 0, 48};
    want[nw++] = (struct rec){0, 10, 99, 9, 9, 0, 48};
    TAP_EQ_U64(count_mismatches(h->log, h->n, want, nw, true), 0,
               "freed slots get CTAs 90..99 on SMs 3,7,1,2,14,0,5,5,9,10");
    TAP_EQ_U64(dispatch_running(d)->n_issued, 100, "all 100 issued");
    TAP_EQ_U64(dispatch_running(d)->n_done, 11, "11 done = 1+2+3+2+3");

    /* Finish the other 89 at cycle 100 with memory not drained. */
    h_finish_all(h);
    h->drained = false;
    TAP_OK(!h_step(h, 100), "all CTAs done but memory busy: kernel not complete");
    TAP_EQ_U64(h->n_kdone, 0, "no kernel_done yet");
    TAP_OK(dispatch_busy(d), "dispatcher still busy");
    h->drained = true;
    TAP_OK(h_step(h, 130), "memory drained: kernel completes");
    TAP_EQ_U64(h->n_kdone, 1, "kernel_done called once");
    const struct dispatch_kernel *r = &h->rec_done[0];
    TAP_OK(r->t_launch == 0 && r->t_start == 0 && r->t_ctas_done == 100 && r->t_end == 130,
           "record: launch 0, start 0, CTAs done 100, end 130");
    TAP_OK(!dispatch_busy(d) && dispatch_running(d) == NULL, "idle after completion");
    /* Per-SM CTAs: 6 from the fill plus the refills above: SM0 +1, SM1 +1,
     * SM2 +1, SM3 +1, SM5 +2, SM7 +1, SM9 +1, SM10 +1, SM14 +1. */
    static const uint64_t per_sm[15] = {7, 7, 7, 7, 6, 8, 6, 7, 6, 7, 7, 6, 6, 6, 7};
    uint32_t bad = 0;
    for (uint32_t s = 0; s < 15; s++)
        bad += h->sm_ctas_done[0][s] != per_sm[s] || d->st.sm_ctas[s] != per_sm[s];
    TAP_EQ_U64(bad, 0, "per-SM CTA counts {7,7,7,7,6,8,6,7,6,7,7,6,6,6,7} (sum 100)");

    /* Injected fault: the same checker fed a wrong expectation (CTA 92 on
     * SM 7 instead of SM 1, i.e. report-order placement) must complain. */
    want[92].sm = 7;
    TAP_OK(count_mismatches(h->log, h->n - 1, want, nw, false) == 1,
           "fault: checker reports the wrong expected placement of CTA 92");
    h_free(h);
}

static void test_smem_limit(void)
{
    struct harness *h = h_new(15);
    struct dispatch_launch l = kl("smem", 70, 1, 1, 128, 16, 12288);
    TAP_EQ_I64(dispatch_launch(&h->d, &l, 0), DISPATCH_OK, "launch 70 CTAs x 12 KB smem");
    h_step(h, 0);
    /* limit 4 (smem 49152/12288): 15 x 4 = 60 placed, CTA i -> SM i mod 15. */
    TAP_EQ_U64(h->d.queue[h->d.head].ctas_per_sm, 4, "limit 4 from shared memory");
    struct rec want[60];
    for (uint32_t i = 0; i < 60; i++)
        want[i] = (struct rec){0, i % 15, i, i, 0, 0, 0};
    TAP_EQ_U64(count_mismatches(h->log, h->n, want, 60, true), 0, "60 placed round-robin");
    /* SM 0: smem 4*12288 = 49152 (full 48 KB); regs 4*16*128 = 8192;
     * threads 4*128 = 512; warps 16. */
    TAP_OK(h->d.sm[0].smem == 49152 && h->d.sm[0].regs == 8192 && h->d.sm[0].threads == 512 &&
               h->d.sm[0].warps == 16,
           "SM 0: 48 KB smem, 8192 regs, 512 threads, 16 warps");
    dispatch_cta_done(&h->d, 6, 21);
    h_step(h, 8);
    TAP_OK(h->n == 61 && h->log[60].sm == 6 && h->log[60].cta == 60, "freed smem slot on SM 6 gets CTA 60");
    TAP_EQ_U64(h->d.sm[6].smem, 49152, "SM 6 back at 48 KB");
    h_free(h);
}

static void test_hotspot(void)
{
    struct harness *h = h_new(15);
    struct dispatch_launch l = kl("hotspot", 40, 1, 1, 256, 60, 0);
    dispatch_launch(&h->d, &l, 0);
    h_step(h, 0);
    /* limit 2 (regs 32768/15360): 30 placed, CTA i -> SM i mod 15. */
    struct rec want[32];
    for (uint32_t i = 0; i < 30; i++)
        want[i] = (struct rec){0, i % 15, i, i, 0, 0, 0};
    TAP_EQ_U64(count_mismatches(h->log, h->n, want, 30, true), 0, "hotspot: 30 = 15 x 2 placed round-robin");
    TAP_EQ_U64(h->d.sm[0].regs, 30720, "SM 0 regs 2*60*256 = 30720 of 32768");
    dispatch_cta_done(&h->d, 4, 19);
    dispatch_cta_done(&h->d, 4, 4);
    h_step(h, 8);
    /* last SM 14 -> scan from 0: SM 4 -> 30; then from 5 round to SM 4 -> 31. */
    want[30] = (struct rec){0, 4, 30, 30, 0, 0, 8};
    want[31] = (struct rec){0, 4, 31, 31, 0, 0, 8};
    TAP_EQ_U64(count_mismatches(h->log, h->n, want, 32, true), 0, "SM 4 freed twice gets CTAs 30 and 31");
    h_free(h);
}

static void test_errors_and_backpressure(void)
{
    struct harness *h = h_new(15);
    struct dispatcher *d = &h->d;
    struct dispatch_launch big = kl("big", 4, 1, 1, 1024, 64, 0);
    TAP_EQ_I64(dispatch_launch(d, &big, 0), DISPATCH_ERR_NO_FIT, "1024 thr x 64 regs refused: NO_FIT");
    struct dispatch_launch sbig = kl("sbig", 4, 1, 1, 32, 0, 49153);
    TAP_EQ_I64(dispatch_launch(d, &sbig, 0), DISPATCH_ERR_NO_FIT, "48 KB + 1 B smem refused: NO_FIT");
    struct dispatch_launch z = kl("zero", 4, 0, 1, 32, 0, 0);
    TAP_EQ_I64(dispatch_launch(d, &z, 0), DISPATCH_ERR_DIMS, "grid y = 0 refused: DIMS");
    struct dispatch_launch huge = kl("huge", 65536, 65536, 1, 32, 0, 0);
    TAP_EQ_I64(dispatch_launch(d, &huge, 0), DISPATCH_ERR_DIMS, "2^32 CTAs refused: DIMS");
    TAP_OK(dispatch_queued(d) == 0 && !h_step(h, 0) && h->n == 0, "refused launches leave nothing behind");
    TAP_STREQ(dispatch_err_name(DISPATCH_ERR_NO_FIT), "DISPATCH_ERR_NO_FIT", "error name");

    /* Backpressure: the queue holds DISPATCH_MAX_QUEUED kernels. */
    uint32_t ok = 0;
    for (uint32_t i = 0; i < DISPATCH_MAX_QUEUED; i++) {
        struct dispatch_launch l = kl("one", 1, 1, 1, 32, 8, 0);
        l.tag = 1000 + i;
        ok += dispatch_launch(d, &l, i) == DISPATCH_OK;
    }
    TAP_EQ_U64(ok, DISPATCH_MAX_QUEUED, "16 launches accepted");
    struct dispatch_launch extra = kl("extra", 1, 1, 1, 32, 8, 0);
    TAP_EQ_I64(dispatch_launch(d, &extra, 16), DISPATCH_ERR_QUEUE_FULL, "17th launch refused: QUEUE_FULL");
    TAP_EQ_U64(dispatch_queued(d), DISPATCH_MAX_QUEUED, "queue still 16");
    /* Drain: each step completes kernel i (its one CTA finished) and starts
     * kernel i+1, whose CTA 0 goes to SM 0 (pointer reset per kernel). */
    cycle_t t = 100;
    h_step(h, t);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < DISPATCH_MAX_QUEUED; i++) {
        const struct dispatch_kernel *k = dispatch_running(d);
        bad += !k || k->seq != i || k->l.tag != 1000 + i || d->sm[0].n_cta != 1;
        dispatch_cta_done(d, 0, 0);
        t += 8;
        h_step(h, t);
    }
    TAP_EQ_U64(bad, 0, "16 kernels ran one at a time, in launch order, tags intact");
    TAP_OK(h->n_kdone == 16 && h->kdone[15] == 15 && !dispatch_busy(d), "all 16 completed, nothing lost");
    /* kernel 1 waited from its launch at 1 to its start at 108: 107 cycles. */
    TAP_OK(h->rec_done[1].t_launch == 1 && h->rec_done[1].t_start == 108, "kernel 1: launched 1, started 108");
    TAP_EQ_I64(dispatch_launch(d, &extra, t), DISPATCH_OK, "queue accepts again after draining");
    h_free(h);
}

static void test_two_kernels(void)
{
    struct harness *h = h_new(15);
    struct dispatcher *d = &h->d;
    struct dispatch_launch k1 = kl("hotspot", 20, 1, 1, 256, 60, 0);
    struct dispatch_launch k2 = kl("k2", 30, 1, 1, 256, 20, 0);
    dispatch_launch(d, &k1, 0);
    dispatch_launch(d, &k2, 5);
    h_step(h, 0);
    /* K1 limit 2: CTA i -> SM i mod 15; CTAs 15..19 on SMs 0..4. K2 waits. */
    TAP_OK(h->n == 20 && h->log[19].sm == 4 && h->log[19].cta == 19 && h->log[19].kseq == 0,
           "K1: 20 CTAs placed, CTA 19 on SM 4");
    TAP_OK(dispatch_running(d)->seq == 0 && dispatch_queued(d) == 2, "K2 queued behind K1");
    h_finish_all(h);
    h->drained = false;
    TAP_OK(!h_step(h, 56) && !h_step(h, 64), "K1 CTAs done, memory busy: nothing changes at 56, 64");
    TAP_OK(h->n == 20 && dispatch_running(d)->seq == 0, "K2 not started before the memory drained");
    h->drained = true;
    TAP_OK(h_step(h, 72), "drained at 72");
    TAP_OK(h->n_kdone == 1 && h->rec_done[0].t_end == 72 && h->rec_done[0].t_ctas_done == 56,
           "K1 complete at 72 (CTAs done seen at 56)");
    TAP_OK(h->n_order == 3 && h->order[0] == 1 && h->order[1] == 2 && h->order[2] == 1,
           "callbacks: K1 start, K1 done, K2 start");
    TAP_OK(dispatch_running(d) && dispatch_running(d)->seq == 1 && dispatch_running(d)->t_start == 72,
           "K2 started at 72 in the same step");
    /* K2 limit 6: 30 CTAs, CTA i -> SM i mod 15 at cycle 72. */
    struct rec want[30];
    for (uint32_t i = 0; i < 30; i++)
        want[i] = (struct rec){1, i % 15, i, i, 0, 0, 72};
    TAP_EQ_U64(count_mismatches(h->log + 21, h->n - 21, want, 30, true), 0, "K2 CTA i -> SM i mod 15 at 72");
    h_finish_all(h);
    h_step(h, 80);
    /* kernel_cycles = (72-0) + (80-72) = 80; queue_cycles = 0 + (72-5) = 67;
     * drain_cycles = (72-56) + (80-80) = 16. */
    TAP_OK(d->st.kernels == 2 && d->st.kernel_cycles == 80 && d->st.queue_cycles == 67 && d->st.drain_cycles == 16,
           "stats: 2 kernels, kernel 80, queue 67, drain 16 cycles");
    h_free(h);
}

static void test_stats_registry(void)
{
    struct harness *h = h_new(3);
    struct stats *s = stats_create();
    dispatch_stats_register(&h->d, s);
    /* 3 SMs, 7 CTAs of 512 thr x 16 regs: threads 1536/512 = 3, warps 48/16 = 3,
     * regs 32768/8192 = 4 -> limit 3; 7 CTAs fit at once (9 slots): SM 0 gets
     * CTAs 0,3,6, SM 1 1,4, SM 2 2,5. */
    struct dispatch_launch l = kl("s", 7, 1, 1, 512, 16, 0);
    stats_kernel_begin(s, "s");
    dispatch_launch(&h->d, &l, 10);
    h_step(h, 20);
    h_finish_all(h);
    h_step(h, 50);
    stats_kernel_end(s);
    uint64_t v = 0, a = 0, b = 0, c = 0;
    TAP_OK(stats_get_u64(s, "dispatch.ctas", &v) && v == 7, "dispatch.ctas = 7");
    TAP_OK(stats_get_u64(s, "dispatch.kernels", &v) && v == 1, "dispatch.kernels = 1");
    TAP_OK(stats_get_u64(s, "dispatch.kernel_cycles", &v) && v == 30, "kernel_cycles = 50 - 20 = 30");
    TAP_OK(stats_get_u64(s, "dispatch.queue_cycles", &v) && v == 10, "queue_cycles = 20 - 10 = 10");
    TAP_OK(stats_get_instance_u64(s, "dispatch.sm.ctas", 0, &a) && stats_get_instance_u64(s, "dispatch.sm.ctas", 1, &b) &&
               stats_get_instance_u64(s, "dispatch.sm.ctas", 2, &c) && a == 3 && b == 2 && c == 2,
           "dispatch.sm.ctas = 3, 2, 2");
    TAP_OK(stats_get_u64(s, "dispatch.sm.ctas", &v) && v == 7, "dispatch.sm.ctas total 7");
    TAP_EQ_U64(stats_n_kernels(s), 1, "one per-kernel record");
    stats_destroy(s);
    h_free(h);
}

/* ------------------------------------------------------------- reference */

/* A naive reference written from the spec text: resources recomputed from
 * raw budgets each time (never sm_ctas_per_sm), an SM "fits" another CTA if
 * every budget holds with it added; placement visits SMs round-robin from
 * the one after the last served, one CTA per visit, lowest id first; a
 * kernel completes when all its CTAs are done and memory has drained, and
 * the next starts in the same step. fault = 1 injects a plausible bug (scan
 * always from SM 0). */
struct ref_kernel {
    struct dispatch_launch l;
    uint64_t seq;
};

struct ref {
    uint32_t n_sm;
    struct sm_cfg sm;
    struct smem_cfg smem;
    struct ref_kernel q[64];
    uint32_t qh, qn;
    bool running, seen_done;
    uint32_t next, last, done;
    uint32_t res[24][64];
    uint32_t nres[24];
    int fault;
    struct rec log[LOG_CAP];
    uint32_t n;
};

static bool ref_fits(const struct ref *r, const struct dispatch_launch *l, uint32_t sm)
{
    uint64_t n = r->nres[sm] + 1;
    uint64_t thr = (uint64_t)l->block.x * l->block.y * l->block.z;
    uint64_t warps = (thr + 31) / 32, t = warps * 32, regs = (l->regs_per_thread + 3) / 4 * 4;
    return n <= r->sm.max_cta && n * t <= r->sm.max_threads && n * warps <= r->sm.max_warps &&
           n * regs * t <= r->sm.n_regs && n * l->smem_per_cta <= r->smem.size;
}

static void ref_step(struct ref *r, cycle_t now, bool drained)
{
    for (;;) {
        if (!r->running) {
            if (!r->qn)
                return;
            r->running = true;
            r->seen_done = false;
            r->next = r->done = 0;
            r->last = r->n_sm - 1;
        }
        struct ref_kernel *k = &r->q[r->qh];
        uint32_t total = k->l.grid.x * k->l.grid.y * k->l.grid.z;
        while (r->next < total) {
            uint32_t pick = UINT32_MAX;
            for (uint32_t i = 1; i <= r->n_sm; i++) {
                uint32_t s = r->fault ? i - 1 : (r->last + i) % r->n_sm;
                if (ref_fits(r, &k->l, s)) {
                    pick = s;
                    break;
                }
            }
            if (pick == UINT32_MAX)
                break;
            uint32_t c = r->next++;
            r->res[pick][r->nres[pick]++] = c;
            r->last = pick;
            uint32_t gx = k->l.grid.x, gy = k->l.grid.y;
            r->log[r->n++] = (struct rec){k->seq, pick, c, c % gx, (c / gx) % gy, c / (gx * gy), now};
        }
        if (r->done < total || !drained)
            return;
        r->log[r->n++] = (struct rec){k->seq, KDONE, 0, 0, 0, 0, now};
        r->running = false;
        r->qh = (r->qh + 1) % 64;
        r->qn--;
    }
}

static void ref_done(struct ref *r, uint32_t sm, uint32_t cta)
{
    for (uint32_t i = 0; i < r->nres[sm]; i++)
        if (r->res[sm][i] == cta) {
            r->res[sm][i] = r->res[sm][--r->nres[sm]];
            r->done++;
            return;
        }
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* One random scenario run through the dispatcher and (if r) the reference
 * in lockstep; completions are chosen from the reference's resident CTAs
 * (or the dispatcher's when r is NULL) and reported to both in a random
 * order. Returns mismatching events (0 = identical), or UINT32_MAX if the
 * run did not finish. *hash gets an FNV-1a hash of the dispatcher's log. */
static uint32_t run_random(uint64_t seed, int fault, bool one_per_step, uint64_t *hash, uint32_t *n_events)
{
    uint64_t rs = seed * 0x9E3779B97F4A7C15ull + 1;
    uint32_t n_sm = 1 + (uint32_t)(rng_next(&rs) % 24);
    struct harness *h = h_new(n_sm);
    struct ref *r = calloc(1, sizeof *r);
    r->n_sm = n_sm;
    gtx480_sm(&r->sm, &r->smem);
    r->fault = fault;
    uint32_t n_k = 1 + (uint32_t)(rng_next(&rs) % 3);
    for (uint32_t i = 0; i < n_k; i++) {
        struct dispatch_launch l;
        do {
            uint32_t thr = 1 + (uint32_t)(rng_next(&rs) % 1024);
            uint32_t regs = (uint32_t)(rng_next(&rs) % 64);
            uint64_t smem = rng_next(&rs) % 3 ? 0 : (rng_next(&rs) % 49) * 1024;
            uint32_t gx = 1 + (uint32_t)(rng_next(&rs) % 40), gy = 1 + (uint32_t)(rng_next(&rs) % 6);
            l = kl("rand", gx, gy, 1 + (uint32_t)(rng_next(&rs) % 2), thr, regs, smem);
        } while (dispatch_launch(&h->d, &l, 0) != DISPATCH_OK);
        r->q[r->qn++] = (struct ref_kernel){l, i};
    }
    cycle_t t = 0;
    uint32_t mism = 0;
    for (uint32_t it = 0; it < 100000 && dispatch_busy(&h->d); it++) {
        bool drained = rng_next(&rs) % 4 != 0;
        h->drained = drained;
        h_step(h, t);
        ref_step(r, t, drained);
        mism = count_mismatches(h->log, h->n, r->log, r->n, false);
        if (mism)
            break;
        /* choose completions from the resident CTAs */
        uint32_t cand_sm[24 * 64], cand_cta[24 * 64], nc = 0;
        for (uint32_t s = 0; s < n_sm; s++)
            for (uint32_t i = 0; i < r->nres[s]; i++)
                if (rng_next(&rs) % 3 == 0) {
                    cand_sm[nc] = s;
                    cand_cta[nc++] = r->res[s][i];
                }
        for (uint32_t i = nc; i > 1; i--) { /* shuffle the report order */
            uint32_t j = (uint32_t)(rng_next(&rs) % i), ts = cand_sm[i - 1], tc = cand_cta[i - 1];
            cand_sm[i - 1] = cand_sm[j], cand_cta[i - 1] = cand_cta[j];
            cand_sm[j] = ts, cand_cta[j] = tc;
        }
        if (one_per_step && nc > 1)
            nc = 1;
        for (uint32_t i = 0; i < nc; i++) {
            dispatch_cta_done(&h->d, cand_sm[i], cand_cta[i]);
            ref_done(r, cand_sm[i], cand_cta[i]);
        }
        t += 8;
    }
    if (!mism)
        mism = count_mismatches(h->log, h->n, r->log, r->n, false);
    if (dispatch_busy(&h->d) && !mism)
        mism = UINT32_MAX;
    uint64_t x = 1469598103934665603ull;
    for (uint32_t i = 0; i < h->n; i++) {
        const struct rec *e = &h->log[i];
        uint64_t f[7] = {e->kseq, e->sm, e->cta, e->x, e->y, e->z, e->t};
        for (int j = 0; j < 7; j++)
            x = (x ^ f[j]) * 1099511628211ull;
    }
    if (hash)
        *hash = x;
    if (n_events)
        *n_events = h->n;
    free(r);
    h_free(h);
    return mism;
}

static void test_random_vs_reference(void)
{
    uint32_t bad_seeds = 0, events = 0, first_bad = UINT32_MAX;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        uint32_t n = 0;
        uint32_t m = run_random(seed, 0, seed % 4 == 0, NULL, &n);
        events += n;
        if (m) {
            bad_seeds++;
            if (first_bad == UINT32_MAX)
                first_bad = (uint32_t)seed;
        }
    }
    tap_diag("300 random scenarios, %u events compared", events);
    TAP_EQ_U64(bad_seeds, 0, "dispatcher == naive reference on 300 random scenarios (first bad seed %u)", first_bad);
    TAP_OK(events > 10000, "random scenarios compared > 10000 events (%u)", events);
}

static void test_random_fault(void)
{
    /* Injected fault: the reference scans from SM 0 every pick. Some runs
     * must disagree (any run with >= 2 SMs and >= 2 CTAs per SM does). */
    uint32_t caught = 0;
    for (uint64_t seed = 1; seed <= 50; seed++)
        caught += run_random(seed, 1, false, NULL, NULL) != 0;
    TAP_OK(caught >= 25, "fault: faulty reference detected in %u of 50 scenarios", caught);
}

static void test_determinism(void)
{
    uint64_t h1 = 0, h2 = 0, h3 = 0;
    uint32_t n1 = 0, n2 = 0;
    run_random(77, 0, false, &h1, &n1);
    run_random(77, 0, false, &h2, &n2);
    run_random(78, 0, false, &h3, NULL);
    TAP_OK(h1 == h2 && n1 == n2 && n1 > 0, "same scenario twice: identical event log (%u events)", n1);
    TAP_OK(h1 != h3, "a different scenario gives a different log (the hash is sensitive)");
}

static void test_bad_done_panics(void)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        struct harness *h = h_new(2);
        struct dispatch_launch l = kl("p", 4, 1, 1, 32, 8, 0);
        dispatch_launch(&h->d, &l, 0);
        h_step(h, 0);
        freopen("/dev/null", "w", stderr);
        dispatch_cta_done(&h->d, 1, 0); /* CTA 0 is on SM 0 */
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    TAP_OK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "cta_done for a CTA not resident on that SM panics");
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"cfg", test_cfg},
        {"occupancy", test_occupancy},
        {"rr_fill_and_completions", test_rr_fill_and_completions},
        {"smem_limit", test_smem_limit},
        {"hotspot", test_hotspot},
        {"errors_and_backpressure", test_errors_and_backpressure},
        {"two_kernels", test_two_kernels},
        {"stats_registry", test_stats_registry},
        {"random_vs_reference", test_random_vs_reference},
        {"random_fault", test_random_fault},
        {"determinism", test_determinism},
        {"bad_done_panics", test_bad_done_panics},
    };
    return tap_run(tests, ARRAY_LEN(tests));
}
