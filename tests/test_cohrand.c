/* tests/test_cohrand.c: a random coherence tester in the manner of gem5's
 * (docs/coherence.md "Random tester"), run on the non-coherent baseline,
 * under G-TSC with RC and SC, and under TC-Weak (RC) and TC-Strong (SC).
 *
 * Every thread of 16 one-warp CTAs is an agent running its own random
 * program of OPS operations on 64 hot words (8 per line, 8 lines in
 * different partitions): plain loads (which may hit the L1), volatile loads
 * (L2), stores and atomic exchanges, some behind membar.gl, each after a
 * random delay of 0-255 cycles; lanes of a warp diverge freely. Every store
 * and exchange writes a value unique to (agent, op). The kernel is unrolled,
 * so a load's result stays in a register and later operations do not wait
 * for it. Afterwards the C checker rebuilds what the memory system did:
 *  - every load and exchange returned 0 or a value some store or exchange
 *    wrote to that word (no torn, stale-garbage or misrouted bytes);
 *  - no two exchanges returned the same old value (atomicity);
 *  - per word, the coherence order implied by each agent's program order
 *    (a later access sees the same or a later write than an earlier one)
 *    is acyclic, and the final value is last in it (per-location SC: what
 *    the L2 as the point of coherence must produce);
 *  - under SC, program order, reads-from, coherence and from-reads together
 *    are acyclic (the run has a sequentially consistent order).
 * Every run must pass the value, atomicity and per-word checks (a
 * non-coherent L1 is still coherent per word: a copy is only stale across
 * words). Under SC, G-TSC and TC-Strong runs must have an SC order, and the non-coherent
 * L1 with one outstanding operation per warp must not in some run (a warp
 * reads one word's new value, then another word from a stale L1 copy), so
 * the checker demonstrably sees a protocol that is not SC. A fixed seed list keeps CI deterministic;
 * GS_COHRAND_RUNS=N runs more seeds. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpusim.h"
#include "sim/base/common.h"
#include "tap.h"

#define CTAS 16
#define LANES 32
#define AGENTS (CTAS * LANES)
#define OPS 24   /* operations per agent */
#define WORDS 64 /* hot words: 8 lines x 8 words */
#define N_OPS (AGENTS * OPS)

enum { K_LD, K_ST, K_XCHG, K_VLD };

/* Op word: kind (2 bits) | word << 2 (6 bits) | delay << 8 (8 bits) | fence << 16. */
static uint32_t op_kind(uint32_t o) { return o & 3u; }
static uint32_t op_word(uint32_t o) { return (o >> 2) & 63u; }
static uint64_t word_off(uint32_t w) { return (uint64_t)(w & 7u) * 16u + (uint64_t)(w >> 3) * 256u; }
static uint32_t op_value(uint32_t agent, uint32_t i) { return (agent + 1u) << 8 | (i + 1u); }

#define HDR ".version 7.0\n.target sm_70\n.address_size 64\n"

static char *build_ptx(void)
{
    size_t cap = 1 << 20;
    char *p = malloc(cap);
    int n = snprintf(p, cap,
                     HDR ".visible .entry k(.param .u64 prog, .param .u64 mem, .param .u64 out)\n{\n"
                         " .reg .b32 %%r<40>; .reg .b32 %%v<%d>; .reg .b64 %%rd<40>; .reg .pred %%p<8>;\n"
                         " ld.param.u64 %%rd1, [prog];\n ld.param.u64 %%rd2, [mem];\n ld.param.u64 %%rd3, [out];\n"
                         " mov.u32 %%r2, %%tid.x;\n mov.u32 %%r3, %%ctaid.x;\n mov.u32 %%r4, %%ntid.x;\n"
                         " mad.lo.u32 %%r5, %%r3, %%r4, %%r2;\n mul.lo.u32 %%r6, %%r5, %d;\n"
                         " mul.wide.u32 %%rd4, %%r6, 4;\n add.s64 %%rd5, %%rd1, %%rd4;\n add.s64 %%rd6, %%rd3, %%rd4;\n"
                         " add.u32 %%r7, %%r5, 1;\n shl.b32 %%r7, %%r7, 8;\n",
                     OPS, OPS);
    for (int i = 0; i < OPS; i++) {
        n += snprintf(p + n, cap - (size_t)n,
                      " mov.u32 %%v%d, 0;\n"
                      " ld.global.u32 %%r9, [%%rd5+%d];\n"             /* the op word (read-only program) */
                      " and.b32 %%r10, %%r9, 3;\n"                        /* kind */
                      " shr.u32 %%r11, %%r9, 2;\n and.b32 %%r11, %%r11, 63;\n"
                      " and.b32 %%r12, %%r11, 7;\n shl.b32 %%r12, %%r12, 4;\n" /* (w & 7) * 16 */
                      " shr.u32 %%r13, %%r11, 3;\n shl.b32 %%r13, %%r13, 8;\n" /* (w >> 3) * 256 */
                      " add.u32 %%r12, %%r12, %%r13;\n cvt.u64.u32 %%rd7, %%r12;\n add.s64 %%rd8, %%rd2, %%rd7;\n"
                      " or.b32 %%r14, %%r7, %d;\n"                          /* the unique value */
                      " shr.u32 %%r15, %%r9, 8;\n and.b32 %%r15, %%r15, 255;\n"
                      " mov.u64 %%rd9, %%clock64;\n cvt.u64.u32 %%rd10, %%r15;\n add.s64 %%rd10, %%rd9, %%rd10;\n"
                      "D%d:\n mov.u64 %%rd11, %%clock64;\n setp.lt.u64 %%p1, %%rd11, %%rd10;\n @%%p1 bra D%d;\n"
                      " and.b32 %%r16, %%r9, 65536;\n setp.ne.u32 %%p2, %%r16, 0;\n @!%%p2 bra F%d;\n membar.gl;\n"
                      "F%d:\n"
                      " setp.eq.u32 %%p3, %%r10, 0;\n @%%p3 bra L%d;\n"
                      " setp.eq.u32 %%p3, %%r10, 1;\n @%%p3 bra S%d;\n"
                      " setp.eq.u32 %%p3, %%r10, 2;\n @%%p3 bra X%d;\n"
                      " ld.volatile.global.u32 %%v%d, [%%rd8];\n bra J%d;\n"
                      "L%d:\n ld.global.u32 %%v%d, [%%rd8];\n bra J%d;\n"
                      "S%d:\n st.global.u32 [%%rd8], %%r14;\n bra J%d;\n"
                      "X%d:\n atom.global.exch.b32 %%v%d, [%%rd8], %%r14;\n"
                      "J%d:\n",
                      i, i * 4, i + 1, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i);
    }
    for (int i = 0; i < OPS; i++)
        n += snprintf(p + n, cap - (size_t)n, " st.global.u32 [%%rd6+%d], %%v%d;\n", i * 4, i);
    snprintf(p + n, cap - (size_t)n, " ret;\n}\n");
    return p;
}

/* ------------------------------------------------------------- checker */

struct graph {
    uint32_t n;          /* nodes */
    uint32_t *head;      /* [n] first edge, UINT32_MAX = none */
    uint32_t *next, *to; /* edges */
    uint32_t n_e, cap_e;
};

static void g_init(struct graph *g, uint32_t n)
{
    g->n = n;
    g->head = malloc(n * sizeof *g->head);
    memset(g->head, 0xff, n * sizeof *g->head);
    g->cap_e = 1024;
    g->n_e = 0;
    g->next = malloc(g->cap_e * sizeof *g->next);
    g->to = malloc(g->cap_e * sizeof *g->to);
}
static void g_edge(struct graph *g, uint32_t a, uint32_t b)
{
    if (g->n_e == g->cap_e) {
        g->cap_e *= 2;
        g->next = realloc(g->next, g->cap_e * sizeof *g->next);
        g->to = realloc(g->to, g->cap_e * sizeof *g->to);
    }
    g->to[g->n_e] = b;
    g->next[g->n_e] = g->head[a];
    g->head[a] = g->n_e++;
}
static void g_free(struct graph *g)
{
    free(g->head);
    free(g->next);
    free(g->to);
}
/* Kahn's algorithm: true when acyclic. */
static bool g_acyclic(const struct graph *g)
{
    uint32_t *indeg = calloc(g->n, sizeof *indeg), *q = malloc(g->n * sizeof *q), qh = 0, qt = 0, seen = 0;
    for (uint32_t e = 0; e < g->n_e; e++)
        indeg[g->to[e]]++;
    for (uint32_t v = 0; v < g->n; v++)
        if (!indeg[v])
            q[qt++] = v;
    while (qh < qt) {
        uint32_t v = q[qh++];
        seen++;
        for (uint32_t e = g->head[v]; e != UINT32_MAX; e = g->next[e])
            if (--indeg[g->to[e]] == 0)
                q[qt++] = g->to[e];
    }
    free(indeg);
    free(q);
    return seen == g->n;
}

struct verdict {
    uint32_t bad_values; /* loads/exchanges returning a value never written to that word */
    uint32_t dup_xchg;   /* two exchanges with the same old value */
    uint32_t coh_words;  /* words whose coherence order has a cycle */
    uint32_t bad_final;  /* words whose final value is not last */
    bool sc_ok;          /* po + rf + co + fr acyclic */
};

/* Node of op (agent a, index i): a * OPS + i. The initial value 0 is node N_OPS. */
static void check(const uint32_t *prog, const uint32_t *out, const uint32_t *final, struct verdict *v)
{
    memset(v, 0, sizeof *v);
    const uint32_t INIT = N_OPS;
    /* writer node of each value: values are (agent + 1) << 8 | (i + 1) */
    uint32_t *writer = malloc((size_t)(AGENTS + 1) * 256 * sizeof *writer);
    memset(writer, 0xff, (size_t)(AGENTS + 1) * 256 * sizeof *writer);
    for (uint32_t a = 0; a < AGENTS; a++)
        for (uint32_t i = 0; i < OPS; i++) {
            uint32_t o = prog[a * OPS + i], k = op_kind(o);
            if (k == K_ST || k == K_XCHG)
                writer[op_value(a, i)] = a * OPS + i;
        }
    /* the write a read observed, as a node (INIT for 0), or UINT32_MAX when illegal */
    uint32_t *rf = malloc(N_OPS * sizeof *rf);
    uint8_t *xchg_seen = calloc(N_OPS + 1, 1), init_xchg[WORDS] = {0};
    for (uint32_t a = 0; a < AGENTS; a++)
        for (uint32_t i = 0; i < OPS; i++) {
            uint32_t o = prog[a * OPS + i], k = op_kind(o), node = a * OPS + i;
            rf[node] = UINT32_MAX;
            if (k == K_ST)
                continue;
            uint32_t val = out[node];
            uint32_t w = val == 0 ? INIT : val < (AGENTS + 1) * 256 ? writer[val] : UINT32_MAX;
            if (w == UINT32_MAX || (w != INIT && op_word(prog[w]) != op_word(o))) {
                v->bad_values++;
                continue;
            }
            rf[node] = w;
            /* one exchange per old value; the initial value is one per word */
            if (k == K_XCHG && (w == INIT ? init_xchg[op_word(o)]++ : xchg_seen[w]++)) {
                v->dup_xchg++;
                if (getenv("GS_COHRAND_DEBUG"))
                    fprintf(stderr, "dup: agent %u op %u word %u old 0x%x (writer %u)\n", a, i, op_word(o), val, w);
            }
        }
    /* coherence edges per word from each agent's program order. NOTE(vld-ld):
     * a plain load may hit the L1 while an earlier volatile load of the same
     * word is still on its way to L2 (it bypasses the L1 and holds no MSHR
     * entry), so it may return an older value. PTX allows it (a weak and a
     * strong access are not morally strong) and both protocols do it, so
     * plain loads are ordered only after the agent's plain loads, stores and
     * exchanges (lp); everything else after every earlier access (lv). */
    struct graph co;
    g_init(&co, N_OPS + 1);
    for (uint32_t a = 0; a < AGENTS; a++) {
        uint32_t lv[WORDS], lp[WORDS];
        for (uint32_t w = 0; w < WORDS; w++)
            lv[w] = lp[w] = INIT;
        for (uint32_t i = 0; i < OPS; i++) {
            uint32_t node = a * OPS + i, o = prog[node], k = op_kind(o), w = op_word(o);
            uint32_t seen = k == K_ST ? node : rf[node];
            if (seen == UINT32_MAX)
                continue;
            if (k != K_ST) { /* the read part */
                if (lp[w] != INIT && lp[w] != seen)
                    g_edge(&co, lp[w], seen);
                if (k != K_LD && lv[w] != INIT && lv[w] != seen)
                    g_edge(&co, lv[w], seen);
            }
            if (k == K_ST || k == K_XCHG) { /* the write part */
                if (lv[w] != INIT && lv[w] != node && lv[w] != seen)
                    g_edge(&co, lv[w], node);
                if (lp[w] != INIT && lp[w] != node && lp[w] != seen)
                    g_edge(&co, lp[w], node);
                if (k == K_XCHG && seen != INIT)
                    g_edge(&co, seen, node);
                lv[w] = lp[w] = node;
            } else if (k == K_VLD) {
                if (seen != INIT)
                    lv[w] = seen;
            } else if (seen != INIT) {
                lp[w] = seen;
                if (lv[w] == INIT)
                    lv[w] = seen;
            } else if (lp[w] != INIT) {
                g_edge(&co, lp[w], INIT); /* read the initial value after a write: a cycle with INIT -> w */
            }
        }
    }
    for (uint32_t a = 0; a < N_OPS; a++) /* the initial value is first */
        if (op_kind(prog[a]) == K_ST || op_kind(prog[a]) == K_XCHG)
            g_edge(&co, INIT, a);
    /* per-word acyclicity: the coherence graph only links writes of one word */
    if (!g_acyclic(&co)) {
        /* count the words involved: rerun per word */
        for (uint32_t w = 0; w < WORDS; w++) {
            struct graph gw;
            g_init(&gw, N_OPS + 1);
            for (uint32_t x = 0; x <= N_OPS; x++)
                for (uint32_t e = co.head[x]; e != UINT32_MAX; e = co.next[e]) {
                    uint32_t y = co.to[e];
                    uint32_t wx = x == INIT ? w : op_word(prog[x]), wy = y == INIT ? w : op_word(prog[y]);
                    if (wx == w && wy == w)
                        g_edge(&gw, x, y);
                }
            v->coh_words += !g_acyclic(&gw);
            g_free(&gw);
        }
    }
    /* the final value must have no coherence successor */
    for (uint32_t w = 0; w < WORDS; w++) {
        uint32_t fv = final[w];
        uint32_t fn = fv == 0 ? INIT : fv < (AGENTS + 1) * 256 ? writer[fv] : UINT32_MAX;
        if (fn == UINT32_MAX || (fn != INIT && op_word(prog[fn]) != w)) {
            v->bad_final++;
            continue;
        }
        for (uint32_t e = co.head[fn]; e != UINT32_MAX; e = co.next[e])
            if (co.to[e] != INIT && op_word(prog[co.to[e]]) == w) {
                v->bad_final++;
                break;
            }
    }
    /* SC: po + rf + co + fr */
    struct graph sc;
    g_init(&sc, N_OPS + 1);
    for (uint32_t x = 0; x <= N_OPS; x++)
        for (uint32_t e = co.head[x]; e != UINT32_MAX; e = co.next[e])
            g_edge(&sc, x, co.to[e]);
    for (uint32_t a = 0; a < AGENTS; a++)
        for (uint32_t i = 0; i < OPS; i++) {
            uint32_t node = a * OPS + i;
            if (i + 1 < OPS)
                g_edge(&sc, node, node + 1); /* po */
            uint32_t r = rf[node];
            if (op_kind(prog[node]) == K_ST || r == UINT32_MAX)
                continue;
            if (r != INIT)
                g_edge(&sc, r, node); /* rf */
            for (uint32_t e = co.head[r]; e != UINT32_MAX; e = co.next[e]) /* fr: before r's successors */
                if (co.to[e] != node && co.to[e] != INIT && op_word(prog[co.to[e]]) == op_word(prog[node]))
                    g_edge(&sc, node, co.to[e]);
        }
    v->sc_ok = g_acyclic(&sc);
    g_free(&sc);
    g_free(&co);
    free(writer);
    free(rf);
    free(xchg_seen);
}

/* ------------------------------------------------------------- runs */

enum { MODE_BASE_RC, MODE_BASE_SC, MODE_GTSC_RC, MODE_GTSC_SC, MODE_TC_RC, MODE_TC_SC, MODE_GTSC12_RC,
       MODE_GTSC12_SC, N_MODES };
static const char *const mode_name[N_MODES] = {
    "non-coherent RC", "non-coherent SC", "G-TSC RC", "G-TSC SC", "TC-Weak RC", "TC-Strong SC",
    "G-TSC RC, 12-bit timestamps", "G-TSC SC, 12-bit timestamps"};

/* rs: G-TSC timestamp reset counters summed over the runs (NOTE(gtsc-reset)): resets the L2 slices took,
 * resets the L1s took, old-generation requests at L2, old-generation replies at the L1s */
static bool run(const char *ptx, int mode, unsigned seed, struct verdict *v, uint64_t rs[4])
{
    char o1[48], o2[48];
    snprintf(o1, sizeof o1, "sim.seed=%u", seed);
    snprintf(o2, sizeof o2, "icnt.jitter=%u", seed % 2 ? 64u : 0u);
    const char *ov[8] = {"sim.mode=timing", o1, o2, NULL, NULL, NULL, NULL, NULL};
    int no = 3;
    bool gtsc12 = mode == MODE_GTSC12_RC || mode == MODE_GTSC12_SC;
    if (mode == MODE_GTSC_RC || mode == MODE_GTSC_SC || gtsc12)
        ov[no++] = "coh.protocol=gtsc";
    if (gtsc12) /* a reset every few hundred stamps: the reset protocol under random traffic */
        ov[no++] = "coh.gtsc_ts_bits=12";
    if (mode == MODE_TC_RC || mode == MODE_TC_SC)
        ov[no++] = "coh.protocol=tc";
    if (mode == MODE_TC_SC)
        ov[no++] = "coh.tc_variant=strong";
    if (mode == MODE_BASE_SC || mode == MODE_GTSC_SC || mode == MODE_TC_SC || mode == MODE_GTSC12_SC)
        ov[no++] = "sched.max_outstanding_mem_per_warp=1";
    gs_ctx *c = gs_ctx_create("fermi16", ov);
    if (!c) {
        tap_diag("gs_ctx_create: %s", gs_last_error(NULL));
        return false;
    }
    uint32_t *prog = malloc(N_OPS * 4), *out = malloc(N_OPS * 4), final[WORDS];
    uint64_t s = 0x9e3779b97f4a7c15ull * (seed + 17);
    for (uint32_t k = 0; k < N_OPS; k++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        uint32_t r = (uint32_t)(s >> 11);
        uint32_t kind = r % 8 < 3 ? K_LD : r % 8 < 5 ? K_VLD : r % 8 < 7 ? K_ST : K_XCHG;
        uint32_t word = (r >> 3) % WORDS, delay = (r >> 9) & 255u, fence = (r >> 17) % 8 == 0;
        prog[k] = kind | word << 2 | delay << 8 | fence << 16;
    }
    bool ok = false;
    gs_module *m;
    gs_function *f;
    uint64_t dprog, dmem, dout;
    if (gs_module_load_data(c, ptx, &m) || gs_module_get_function(m, "k", &f) || gs_mem_alloc(c, &dprog, N_OPS * 4) ||
        gs_mem_alloc(c, &dmem, 8 * 256) || gs_mem_alloc(c, &dout, N_OPS * 4)) {
        tap_diag("setup: %s", gs_last_error(c));
        goto done;
    }
    gs_memcpy_htod(c, dprog, prog, N_OPS * 4);
    gs_memset_d8(c, dmem, 0, 8 * 256);
    gs_memset_d8(c, dout, 0, N_OPS * 4);
    void *args[] = {&dprog, &dmem, &dout};
    if (gs_launch_kernel(f, CTAS, 1, 1, LANES, 1, 1, 0, args)) {
        tap_diag("launch: %s", gs_last_error(c));
        goto done;
    }
    gs_memcpy_dtoh(c, out, dout, N_OPS * 4);
    for (uint32_t w = 0; w < WORDS; w++)
        gs_memcpy_dtoh(c, &final[w], dmem + word_off(w), 4);
    check(prog, out, final, v);
    static const char *const rname[4] = {"l2.gtsc_resets", "l1d.gtsc_resets", "l2.gtsc_old_reqs",
                                         "l1d.gtsc_old_replies"};
    for (int k = 0; k < 4 && (mode == MODE_GTSC_RC || mode == MODE_GTSC_SC || gtsc12); k++) {
        uint64_t n = 0;
        gs_stats_get_u64(c, rname[k], &n);
        rs[k] += n;
    }
    ok = true;
done:
    free(prog);
    free(out);
    gs_ctx_destroy(c);
    return ok;
}

int main(void)
{
    tap_no_plan();
    const char *env = getenv("GS_COHRAND_RUNS");
    unsigned runs = env ? (unsigned)strtoul(env, NULL, 10) : 4;
    char *ptx = build_ptx();
    for (int mode = 0; mode < N_MODES; mode++) {
        uint32_t bad = 0, dup = 0, coh = 0, fin = 0, sc_bad = 0;
        uint64_t rs[4] = {0, 0, 0, 0};
        bool all_ran = true;
        for (unsigned seed = 1; seed <= runs; seed++) {
            struct verdict v;
            if (!run(ptx, mode, seed, &v, rs)) {
                all_ran = false;
                break;
            }
            bad += v.bad_values;
            dup += v.dup_xchg;
            coh += v.coh_words;
            fin += v.bad_final;
            sc_bad += !v.sc_ok;
        }
        const char *mn = mode_name[mode];
        TAP_OK(all_ran, "%s: %u runs of %u agents x %u operations ran", mn, runs, AGENTS, OPS);
        if (!all_ran)
            continue;
        tap_diag("%s: illegal values %u, duplicate exchanges %u, incoherent words %u, bad final values %u, "
                 "runs without an SC order %u of %u",
                 mn, bad, dup, coh, fin, sc_bad, runs);
        TAP_EQ_U64(bad, 0, "%s: every load returned a value written to its word", mn);
        TAP_EQ_U64(dup, 0, "%s: exchanges are atomic", mn);
        TAP_EQ_U64(coh, 0, "%s: every word has a coherence order", mn);
        TAP_EQ_U64(fin, 0, "%s: every final value is the last write", mn);
        if (mode == MODE_BASE_SC) /* stale L1 copies: message passing through two words fails */
            TAP_OK(sc_bad > 0, "%s: the checker sees that a non-coherent L1 is not SC (%u of %u runs)", mn, sc_bad,
                   runs);
        if (mode == MODE_GTSC_SC || mode == MODE_TC_SC || mode == MODE_GTSC12_SC)
            TAP_EQ_U64(sc_bad, 0, "%s: every run has a sequentially consistent order", mn);
        if (mode == MODE_GTSC12_RC || mode == MODE_GTSC12_SC) {
            tap_diag("%s: slice resets %llu, L1 resets %llu, old-generation requests %llu, old replies %llu", mn,
                     (unsigned long long)rs[0], (unsigned long long)rs[1], (unsigned long long)rs[2],
                     (unsigned long long)rs[3]);
            TAP_OK(rs[0] >= runs && rs[1] > 0 && rs[2] > 0,
                   "%s: the slices reset their timestamps, the L1s followed, old requests were answered", mn);
        }
    }
    free(ptx);
    return tap_exit();
}
