/* tests/test_litmus.c: litmus tests of the PTX memory model in timing mode
 * (docs/memmodel.md "Litmus harness").
 *
 * Each litmus test is one PTX kernel whose CTAs play its threads: CTA c
 * runs role c mod R of instance c div R (thread 0 only; consecutive CTAs
 * land on different SMs under round-robin dispatch). Instance i uses its
 * own locations: x at buf + 1024 i and y at x + 256, which the address map
 * puts in different memory partitions, so the two locations' requests
 * travel independently. All roles start their accesses at the same cycle
 * (they spin on %clock64, which every SM shares, until START_CYCLE), and
 * timing is perturbed two ways, both seeded: every role waits a random
 * 0 .. MAX_DELAY-1 extra cycles, and
 * every other launch runs with icnt.jitter = 64 (each packet gets up to 64
 * extra interconnect cycles, so requests to different partitions overtake
 * each other while each (source, destination) pair stays in order). A reader
 * first loads the data into its L1 when the test asks for it ("warm"), so
 * that a stale L1 line can show.
 *
 * Each test runs RUNS launches of INST instances with different seeds (sim.seed) and
 * counts every outcome. The checks:
 *  - outcomes the PTX memory model forbids never appear (fenced MP, SB,
 *    LB, IRIW, 2+2W, release/acquire MP, CoRR with strong loads);
 *  - weak outcomes that it allows do appear on the non-coherent baseline
 *    (MP and SB without fences), so the harness can see a violation.
 * Every test also runs on G-TSC and TC (coh.protocol = gtsc / tc,
 * docs/coherence.md): under RC (G-TSC, TC-Weak; fences order) the forbidden
 * outcomes never appear; under SC (G-TSC, TC-Strong, with
 * sched.max_outstanding_mem_per_warp = 1) no non-SC outcome appears in any
 * test, the unfenced ones included, although the readers' L1s hold the data.
 * The counts are printed as TAP diagnostics. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpusim.h"
#include "sim/base/common.h"
#include "tap.h"

#define INST 60  /* instances per launch */
#define RUNS 12  /* launches per test (seeds) */
#define MAXR 4   /* roles */
#define NOUT 4   /* result words per instance */
#define START_CYCLE 4000 /* every role waits for this %clock64 value (plus its delay) before its accesses */
#define MAX_DELAY 48     /* random per-role delay: 0 .. MAX_DELAY-1 cycles */

struct litmus {
    const char *name;
    int roles;
    const char *body[MAXR];  /* PTX per role: %rd5 = x, %rd6 = y, %rd8 = out row; results in %r10.. */
    bool warm[MAXR];         /* role loads x into its L1 before the delay */
    int n_res;               /* result registers stored: %r10 .. %r(10+n_res-1), in role order (see ROLE_OUT) */
    bool final_xy;           /* outcome includes the final x and y */
    /* forbidden(o) / weak(o) on the outcome words */
    bool (*forbidden)(const uint32_t *o);
    bool (*weak)(const uint32_t *o);
    bool must_see_weak;      /* the weak outcome must appear (non-coherent baseline) */
};

#define HDR ".version 7.0\n.target sm_70\n.address_size 64\n"

/* Compose the kernel. Roles store their results with st.global.u32 to the
 * out row themselves (each body ends with its own stores). */
static char *build_ptx(const struct litmus *t)
{
    size_t cap = 16384;
    char *p = malloc(cap);
    int n = snprintf(p, cap,
                     HDR ".visible .entry k(.param .u64 buf, .param .u64 out, .param .u64 dly)\n{\n"
                         " .reg .b32 %%r<40>; .reg .b64 %%rd<40>; .reg .pred %%p<8>;\n"
                         " ld.param.u64 %%rd1, [buf];\n ld.param.u64 %%rd2, [out];\n ld.param.u64 %%rd3, [dly];\n"
                         " mov.u32 %%r1, %%tid.x;\n setp.ne.u32 %%p1, %%r1, 0;\n @%%p1 bra DONE;\n"
                         " mov.u32 %%r2, %%ctaid.x;\n rem.u32 %%r3, %%r2, %d;\n div.u32 %%r4, %%r2, %d;\n"
                         " mul.wide.u32 %%rd4, %%r4, 1024;\n add.s64 %%rd5, %%rd1, %%rd4;\n add.s64 %%rd6, %%rd5, 256;\n"
                         " mul.wide.u32 %%rd7, %%r4, %d;\n add.s64 %%rd8, %%rd2, %%rd7;\n"
                         " mul.wide.u32 %%rd9, %%r2, 4;\n add.s64 %%rd10, %%rd3, %%rd9;\n ld.global.u32 %%r5, [%%rd10];\n",
                     t->roles, t->roles, NOUT * 4);
    for (int r = 0; r < t->roles; r++)
        n += snprintf(p + n, cap - (size_t)n, " setp.eq.u32 %%p2, %%r3, %d;\n @%%p2 bra ROLE%d;\n", r, r);
    n += snprintf(p + n, cap - (size_t)n, " bra DONE;\n");
    for (int r = 0; r < t->roles; r++) {
        n += snprintf(p + n, cap - (size_t)n, "ROLE%d:\n", r);
        if (t->warm[r]) /* pull x's line into this SM's L1; keep the value live */
            n += snprintf(p + n, cap - (size_t)n, " ld.global.u32 %%r30, [%%rd5];\n");
        /* wait for the common start cycle plus this role's random delay */
        n += snprintf(p + n, cap - (size_t)n,
                      " cvt.u64.u32 %%rd11, %%r5;\n add.s64 %%rd11, %%rd11, %d;\n"
                      "DLY%d:\n mov.u64 %%rd12, %%clock64;\n setp.lt.u64 %%p3, %%rd12, %%rd11;\n @%%p3 bra DLY%d;\n"
                      "%s",
                      START_CYCLE, r, r, t->body[r]);
        if (t->warm[r])
            n += snprintf(p + n, cap - (size_t)n, " st.global.u32 [%%rd8+12], %%r30;\n");
        n += snprintf(p + n, cap - (size_t)n, " bra DONE;\n");
    }
    snprintf(p + n, cap - (size_t)n, "DONE:\n ret;\n}\n");
    return p;
}

/* Run one litmus test: per outcome key (the NOUT-1 result words and final
 * x, y), counts. Returns false on a simulator error. */
struct tally {
    uint64_t n, forbidden, weak;
    uint32_t ex_forbidden[NOUT + 2]; /* one forbidden outcome, for the message */
};

/* One launch of INST instances on a fresh context with sim.seed = seed and
 * icnt.jitter = jitter; classifies each instance into *ty. */
/* Memory systems the tests run on. */
enum { MODE_BASE, MODE_GTSC_RC, MODE_GTSC_SC, MODE_TC_RC, MODE_TC_SC, N_MODES };
static const char *const mode_name[N_MODES] = {"non-coherent", "G-TSC RC", "G-TSC SC", "TC-Weak RC", "TC-Strong SC"};
static bool mode_sc(int m) { return m == MODE_GTSC_SC || m == MODE_TC_SC; }

static bool run_once(const struct litmus *t, const char *ptx, unsigned jitter, unsigned seed, int mode,
                     struct tally *ty)
{
    char o1[48], o2[48];
    snprintf(o1, sizeof o1, "icnt.jitter=%u", jitter);
    snprintf(o2, sizeof o2, "sim.seed=%u", seed);
    const char *ov[8] = {"sim.mode=timing", o1, o2, NULL, NULL, NULL, NULL, NULL};
    if (mode == MODE_GTSC_RC || mode == MODE_GTSC_SC)
        ov[3] = "coh.protocol=gtsc";
    if (mode == MODE_TC_RC)
        ov[3] = "coh.protocol=tc";
    if (mode == MODE_TC_SC) {
        ov[3] = "coh.protocol=tc";
        ov[5] = "coh.tc_variant=strong";
    }
    if (mode_sc(mode))
        ov[4] = "sched.max_outstanding_mem_per_warp=1";
    int k = 3; /* pack the set entries (the list ends at the first NULL) */
    for (int j = 3; j < 8; j++)
        if (ov[j])
            ov[k++] = ov[j];
    while (k < 8)
        ov[k++] = NULL;
    gs_ctx *c = gs_ctx_create("gtx480", ov);
    if (!c) {
        tap_diag("gs_ctx_create: %s", gs_last_error(NULL));
        return false;
    }
    gs_module *m;
    gs_function *f;
    bool ok = false;
    uint64_t buf, out, dly;
    unsigned grid = (unsigned)(t->roles * INST);
    uint32_t *dl = malloc(grid * 4), *o = malloc((size_t)INST * NOUT * 4);
    if (gs_module_load_data(c, ptx, &m) || gs_module_get_function(m, "k", &f)) {
        tap_diag("%s: %s", t->name, gs_last_error(c));
        goto done;
    }
    if (gs_mem_alloc(c, &buf, (size_t)INST * 1024) || gs_mem_alloc(c, &out, (size_t)INST * NOUT * 4) ||
        gs_mem_alloc(c, &dly, grid * 4))
        goto done;
    uint64_t s = 0x9e3779b97f4a7c15ull * (seed + 1) ^ (uint64_t)strlen(t->name);
    for (unsigned i = 0; i < grid; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        dl[i] = (uint32_t)(s % MAX_DELAY);
    }
    gs_memset_d8(c, buf, 0, (size_t)INST * 1024);
    gs_memset_d8(c, out, 0, (size_t)INST * NOUT * 4);
    gs_memcpy_htod(c, dly, dl, grid * 4);
    void *args[] = {&buf, &out, &dly};
    if (gs_launch_kernel(f, grid, 1, 1, 32, 1, 1, 0, args)) {
        tap_diag("%s: %s", t->name, gs_last_error(c));
        goto done;
    }
    gs_memcpy_dtoh(c, o, out, (size_t)INST * NOUT * 4);
    for (int i = 0; i < INST; i++) {
        uint32_t w[NOUT + 2];
        memcpy(w, o + i * NOUT, NOUT * 4);
        w[NOUT] = w[NOUT + 1] = 0;
        if (t->final_xy) {
            gs_memcpy_dtoh(c, &w[NOUT], buf + (uint64_t)i * 1024, 4);
            gs_memcpy_dtoh(c, &w[NOUT + 1], buf + (uint64_t)i * 1024 + 256, 4);
        }
        ty->n++;
        if (t->forbidden && t->forbidden(w)) {
            if (!ty->forbidden)
                memcpy(ty->ex_forbidden, w, sizeof w);
            ty->forbidden++;
        }
        if (t->weak && t->weak(w))
            ty->weak++;
    }
    ok = true;
done:
    free(dl);
    free(o);
    gs_ctx_destroy(c);
    return ok;
}

/* RUNS launches: half without network jitter, half with icnt.jitter = 64. */
static bool run_litmus(const struct litmus *t, int mode, struct tally *ty)
{
    memset(ty, 0, sizeof *ty);
    char *ptx = build_ptx(t);
    bool ok = true;
    for (unsigned run = 0; run < RUNS && ok; run++)
        ok = run_once(t, ptx, run % 2 ? 64u : 0u, run + 1, mode, ty);
    free(ptx);
    return ok;
}

/* ------------------------------------------------------------ the tests */

/* Outcome words: o[0], o[1], o[2] = results in the order the bodies store
 * them at [%rd8], [%rd8+4], [%rd8+8]; o[3] = the warm value; o[4], o[5] =
 * final x, y. */
static bool mp_bad(const uint32_t *o) { return o[0] == 1 && o[1] == 0; }       /* flag seen, data stale */
static bool sb_bad(const uint32_t *o) { return o[0] == 0 && o[1] == 0; }       /* both loads early */
static bool lb_bad(const uint32_t *o) { return o[0] == 1 && o[1] == 1; }       /* both loads late */
static bool iriw_bad(const uint32_t *o) { return o[0] == 1 && o[1] == 0 && o[2] == 1 && o[3] == 0; }
static bool corr_bad(const uint32_t *o) { return o[0] == 1 && o[1] == 0; }     /* new then old */
static bool ww_bad(const uint32_t *o) { return o[4] == 1 && o[5] == 1; }       /* 2+2W: both first writes last */

/* writer: data x = 1, [fence], flag y = 1 */
#define MP_W(F) " mov.u32 %r11, 1;\n st.global.u32 [%rd5], %r11;\n" F " st.volatile.global.u32 [%rd6], %r11;\n"
/* reader: r0 = flag y, [fence], r1 = data x (plain load: may hit the L1) */
#define MP_R(F)                                                                                       \
    " ld.volatile.global.u32 %r10, [%rd6];\n" F " ld.global.u32 %r12, [%rd5];\n"                      \
    " st.global.u32 [%rd8], %r10;\n st.global.u32 [%rd8+4], %r12;\n"

static const struct litmus tests[] = {
    {"MP (no fences)", 2, {MP_W(""), MP_R("")}, {false, true}, 2, false, NULL, mp_bad, true},
    {"MP+membar.gl", 2, {MP_W(" membar.gl;\n"), MP_R(" membar.gl;\n")}, {false, true}, 2, false, mp_bad, NULL, false},
    {"MP+fence.acq_rel.gpu", 2, {MP_W(" fence.acq_rel.gpu;\n"), MP_R(" fence.acq_rel.gpu;\n")}, {false, true}, 2,
     false, mp_bad, NULL, false},
    {"MP+fence.sc.sys", 2, {MP_W(" fence.sc.sys;\n"), MP_R(" fence.sc.sys;\n")}, {false, true}, 2, false, mp_bad,
     NULL, false},
    {"MP+release/acquire",
     2,
     {" mov.u32 %r11, 1;\n st.global.u32 [%rd5], %r11;\n st.release.gpu.global.u32 [%rd6], %r11;\n",
      " ld.acquire.gpu.global.u32 %r10, [%rd6];\n ld.global.u32 %r12, [%rd5];\n"
      " st.global.u32 [%rd8], %r10;\n st.global.u32 [%rd8+4], %r12;\n"},
     {false, true},
     2,
     false,
     mp_bad,
     NULL,
     false},
    {"MP+atom.release/atom.acquire",
     2,
     {" mov.u32 %r11, 1;\n st.global.u32 [%rd5], %r11;\n atom.release.gpu.global.exch.b32 %r13, [%rd6], %r11;\n",
      " atom.acquire.gpu.global.or.b32 %r10, [%rd6], 0;\n ld.global.u32 %r12, [%rd5];\n"
      " st.global.u32 [%rd8], %r10;\n st.global.u32 [%rd8+4], %r12;\n"},
     {false, true},
     2,
     false,
     mp_bad,
     NULL,
     false},
    {"SB (no fences)",
     2,
     {" mov.u32 %r11, 1;\n st.global.u32 [%rd5], %r11;\n ld.volatile.global.u32 %r10, [%rd6];\n"
      " st.global.u32 [%rd8], %r10;\n",
      " mov.u32 %r11, 1;\n st.global.u32 [%rd6], %r11;\n ld.volatile.global.u32 %r10, [%rd5];\n"
      " st.global.u32 [%rd8+4], %r10;\n"},
     {false, false},
     2,
     false,
     NULL,
     sb_bad,
     true},
    {"SB+fence.sc.gpu",
     2,
     {" mov.u32 %r11, 1;\n st.global.u32 [%rd5], %r11;\n fence.sc.gpu;\n ld.volatile.global.u32 %r10, [%rd6];\n"
      " st.global.u32 [%rd8], %r10;\n",
      " mov.u32 %r11, 1;\n st.global.u32 [%rd6], %r11;\n fence.sc.gpu;\n ld.volatile.global.u32 %r10, [%rd5];\n"
      " st.global.u32 [%rd8+4], %r10;\n"},
     {false, false},
     2,
     false,
     sb_bad,
     NULL,
     false},
    {"LB+membar.gl",
     2,
     {" ld.volatile.global.u32 %r10, [%rd5];\n membar.gl;\n mov.u32 %r11, 1;\n st.volatile.global.u32 [%rd6], %r11;\n"
      " st.global.u32 [%rd8], %r10;\n",
      " ld.volatile.global.u32 %r10, [%rd6];\n membar.gl;\n mov.u32 %r11, 1;\n st.volatile.global.u32 [%rd5], %r11;\n"
      " st.global.u32 [%rd8+4], %r10;\n"},
     {false, false},
     2,
     false,
     lb_bad,
     NULL,
     false},
    {"IRIW+fence.sc.gpu",
     4,
     {" mov.u32 %r11, 1;\n st.volatile.global.u32 [%rd5], %r11;\n",
      " mov.u32 %r11, 1;\n st.volatile.global.u32 [%rd6], %r11;\n",
      " ld.volatile.global.u32 %r10, [%rd5];\n fence.sc.gpu;\n ld.volatile.global.u32 %r12, [%rd6];\n"
      " st.global.u32 [%rd8], %r10;\n st.global.u32 [%rd8+4], %r12;\n",
      " ld.volatile.global.u32 %r10, [%rd6];\n fence.sc.gpu;\n ld.volatile.global.u32 %r12, [%rd5];\n"
      " st.global.u32 [%rd8+8], %r10;\n st.global.u32 [%rd8+12], %r12;\n"},
     {false, false, false, false},
     4,
     false,
     iriw_bad,
     NULL,
     false},
    {"CoRR (volatile loads)",
     2,
     {" mov.u32 %r11, 1;\n st.volatile.global.u32 [%rd5], %r11;\n",
      " ld.volatile.global.u32 %r10, [%rd5];\n ld.volatile.global.u32 %r12, [%rd5];\n"
      " st.global.u32 [%rd8], %r10;\n st.global.u32 [%rd8+4], %r12;\n"},
     {false, false},
     2,
     false,
     corr_bad,
     NULL,
     false},
    /* Without fences: allowed by the PTX model; counted, not asserted (docs/memmodel.md lists
     * which of them the non-coherent baseline shows). */
    {"LB (no fences)",
     2,
     {" ld.volatile.global.u32 %r10, [%rd5];\n mov.u32 %r11, 1;\n st.volatile.global.u32 [%rd6], %r11;\n"
      " st.global.u32 [%rd8], %r10;\n",
      " ld.volatile.global.u32 %r10, [%rd6];\n mov.u32 %r11, 1;\n st.volatile.global.u32 [%rd5], %r11;\n"
      " st.global.u32 [%rd8+4], %r10;\n"},
     {false, false},
     2,
     false,
     NULL,
     lb_bad,
     false},
    {"IRIW (no fences)",
     4,
     {" mov.u32 %r11, 1;\n st.volatile.global.u32 [%rd5], %r11;\n",
      " mov.u32 %r11, 1;\n st.volatile.global.u32 [%rd6], %r11;\n",
      " ld.volatile.global.u32 %r10, [%rd5];\n ld.volatile.global.u32 %r12, [%rd6];\n"
      " st.global.u32 [%rd8], %r10;\n st.global.u32 [%rd8+4], %r12;\n",
      " ld.volatile.global.u32 %r10, [%rd6];\n ld.volatile.global.u32 %r12, [%rd5];\n"
      " st.global.u32 [%rd8+8], %r10;\n st.global.u32 [%rd8+12], %r12;\n"},
     {false, false, false, false},
     4,
     false,
     NULL,
     iriw_bad,
     false},
    {"2+2W (no fences)",
     2,
     {" mov.u32 %r11, 1;\n mov.u32 %r12, 2;\n st.volatile.global.u32 [%rd5], %r11;\n"
      " st.volatile.global.u32 [%rd6], %r12;\n",
      " mov.u32 %r11, 1;\n mov.u32 %r12, 2;\n st.volatile.global.u32 [%rd6], %r11;\n"
      " st.volatile.global.u32 [%rd5], %r12;\n"},
     {false, false},
     0,
     true,
     NULL,
     ww_bad,
     false},
    {"MP+membar.cta (cta scope across SMs)", 2, {MP_W(" membar.cta;\n"), MP_R(" membar.cta;\n")}, {false, true}, 2,
     false, NULL, mp_bad, false},
    {"2+2W+membar.gl",
     2,
     {" mov.u32 %r11, 1;\n mov.u32 %r12, 2;\n st.volatile.global.u32 [%rd5], %r11;\n membar.gl;\n"
      " st.volatile.global.u32 [%rd6], %r12;\n",
      " mov.u32 %r11, 1;\n mov.u32 %r12, 2;\n st.volatile.global.u32 [%rd6], %r11;\n membar.gl;\n"
      " st.volatile.global.u32 [%rd5], %r12;\n"},
     {false, false},
     0,
     true,
     ww_bad,
     NULL,
     false},
};

int main(void)
{
    tap_no_plan();
    for (int mode = 0; mode < N_MODES; mode++)
        for (size_t i = 0; i < ARRAY_LEN(tests); i++) {
            const struct litmus *t = &tests[i];
            const char *mn = mode_name[mode];
            struct tally ty;
            bool ok = run_litmus(t, mode, &ty);
            TAP_OK(ok, "%s, %s: %d launches x %d instances ran", mn, t->name, RUNS, INST);
            if (!ok)
                continue;
            tap_diag("%s, %s: %llu instances, %llu forbidden, %llu weak", mn, t->name, (unsigned long long)ty.n,
                     (unsigned long long)ty.forbidden, (unsigned long long)ty.weak);
            if (t->forbidden)
                TAP_OK(ty.forbidden == 0,
                       "%s, %s: the forbidden outcome never appears (%llu times; e.g. %u %u %u %u x=%u y=%u)", mn,
                       t->name, (unsigned long long)ty.forbidden, ty.ex_forbidden[0], ty.ex_forbidden[1],
                       ty.ex_forbidden[2], ty.ex_forbidden[3], ty.ex_forbidden[4], ty.ex_forbidden[5]);
            if (t->must_see_weak && mode == MODE_BASE)
                TAP_OK(ty.weak > 0, "%s, %s: the allowed weak outcome appears on the non-coherent baseline (%llu of %llu)",
                       mn, t->name, (unsigned long long)ty.weak, (unsigned long long)ty.n);
            if (t->weak && mode_sc(mode)) /* every weak outcome here is a non-SC one */
                TAP_OK(ty.weak == 0, "%s, %s: no non-SC outcome under SC (%llu of %llu)", mn, t->name,
                       (unsigned long long)ty.weak, (unsigned long long)ty.n);
        }
    return tap_exit();
}
