/* tests/test_memmodel.c: ordering guarantees of the CUDA/PTX memory model
 * that the timing model must keep although it performs global accesses
 * late, through non-coherent L1s (docs/memmodel.md):
 *  - __syncthreads() orders a CTA's global accesses (Rodinia b+tree findK,
 *    a rotating store/barrier/load hand-off);
 *  - program order of one thread's store and load to the same word;
 *  - message passing between SMs with __threadfence() on both sides when
 *    the reader's L1 already holds the data's line;
 *  - l1d.enable = false sends everything to L2 and keeps the answers.
 * Each case failed before the fix it guards (findK and the hand-off: the
 * barrier did not wait for the warp's stores to leave the operand
 * collectors; same-word store/load: a younger load passed an older store in
 * the collectors; message passing: membar.gl left stale L1 lines). Every
 * case runs with 1 and 2 host threads and checks identical statistics. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpusim.h"
#include "tap.h"

#ifndef GPUSIM_SOURCE_DIR
#define GPUSIM_SOURCE_DIR "."
#endif
#define PTXDIR GPUSIM_SOURCE_DIR "/tests/ptx/"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = 0;
    fclose(f);
    return b;
}

static char *ptx_text, *regs_text;
static uint64_t last_l1_hits; /* l1d.load_hits of the last findK run */

/* A context in timing mode with `threads` host threads and extra overrides. */
static gs_ctx *mk(const char *mode, unsigned threads, const char *extra, gs_module **m)
{
    char o0[64];
    snprintf(o0, sizeof o0, "sim.mode=%s", mode);
    const char *ov[3] = {o0, extra, NULL};
    gs_ctx *c = gs_ctx_create("gtx480", ov);
    if (!c) {
        tap_diag("gs_ctx_create: %s", gs_last_error(NULL));
        return NULL;
    }
    gs_host_opts h = {threads, 0, 0, 0, 0, NULL};
    gs_ctx_set_host(c, &h);
    if (gs_module_load_data_ex(c, ptx_text, regs_text, "memmodel.ptx", m)) {
        tap_diag("load: %s", gs_last_error(c));
        gs_ctx_destroy(c);
        return NULL;
    }
    return c;
}

static char *stats_json(gs_ctx *c)
{
    char path[] = "/tmp/gs_memmodel_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    close(fd);
    char *t = NULL;
    if (gs_stats_write(c, path) == 0)
        t = slurp(path);
    remove(path);
    if (!t)
        return NULL;
    /* keep the statistics and timing objects: drop the configuration (the
     * runs compared differ in it) and the host object (wall-clock figures) */
    char *h = strstr(t, "\"host\"");
    if (h)
        *h = 0;
    char *st = strstr(t, "\"stats\"");
    char *r = st ? strdup(st) : NULL;
    free(t);
    return r;
}

/* ---------------------------------------------------------------- findK */

#define ORDER 256
struct knode {
    int location;
    int indices[ORDER + 1];
    int keys[ORDER + 1];
    bool is_leaf;
    int num_keys;
};

/* Two-level tree over nrec = nleaf * per keys 0..nrec-1 (record value
 * 3 k + 1); nq queries; returns the number of wrong answers, -1 on error. */
static int run_findk(const char *mode, unsigned threads, const char *extra, int nq, char **json)
{
    gs_module *m;
    gs_ctx *c = mk(mode, threads, extra, &m);
    if (!c)
        return -1;
    gs_function *f;
    if (gs_module_get_function(m, "findk", &f)) {
        gs_ctx_destroy(c);
        return -1;
    }
    const int ninner = 2, nleaf = 400, per = 200;
    const int nnodes = 1 + ninner + nleaf, nrec = nleaf * per, big = 1 << 30;
    struct knode *kn = calloc((size_t)nnodes, sizeof *kn);
    int *rec = malloc((size_t)nrec * sizeof *rec), *q = malloc((size_t)nq * sizeof *q),
        *ans = malloc((size_t)nq * sizeof *ans);
    for (int i = 0; i < nrec; i++)
        rec[i] = 3 * i + 1;
    for (int j = 0; j <= ORDER; j++)
        kn[0].keys[j] = big;
    kn[0].num_keys = ninner;
    for (int j = 0; j < ninner; j++) {
        int lpi = nleaf / ninner;
        kn[0].keys[j] = j * lpi * per;
        kn[0].indices[j] = 1 + j;
        struct knode *k = &kn[1 + j];
        k->num_keys = lpi;
        for (int l = 0; l <= ORDER; l++)
            k->keys[l] = big;
        for (int l = 0; l < lpi; l++) {
            k->keys[l] = (j * lpi + l) * per;
            k->indices[l] = 1 + ninner + j * lpi + l;
        }
    }
    for (int l = 0; l < nleaf; l++) {
        struct knode *k = &kn[1 + ninner + l];
        k->is_leaf = true;
        k->num_keys = per;
        for (int i = 0; i <= ORDER; i++)
            k->keys[i] = i < per ? l * per + i : big;
        for (int i = 0; i < per; i++)
            k->indices[i] = l * per + i;
    }
    uint64_t s = 12345;
    for (int i = 0; i < nq; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        q[i] = (int)((s >> 33) % (uint64_t)nrec);
    }
    uint64_t dk, dr, dc, doff, dq, da;
    int bad = -1;
    if (gs_mem_alloc(c, &dk, (size_t)nnodes * sizeof *kn) || gs_mem_alloc(c, &dr, (size_t)nrec * 4) ||
        gs_mem_alloc(c, &dc, (size_t)nq * 8) || gs_mem_alloc(c, &doff, (size_t)nq * 8) ||
        gs_mem_alloc(c, &dq, (size_t)nq * 4) || gs_mem_alloc(c, &da, (size_t)nq * 4))
        goto out;
    gs_memcpy_htod(c, dk, kn, (size_t)nnodes * sizeof *kn);
    gs_memcpy_htod(c, dr, rec, (size_t)nrec * 4);
    gs_memcpy_htod(c, dq, q, (size_t)nq * 4);
    gs_memset_d8(c, dc, 0, (size_t)nq * 8);
    gs_memset_d8(c, doff, 0, (size_t)nq * 8);
    gs_memset_d8(c, da, 0xff, (size_t)nq * 4);
    long height = 2, ne = nnodes;
    void *args[] = {&height, &dk, &ne, &dr, &dc, &doff, &dq, &da};
    if (gs_launch_kernel(f, (unsigned)nq, 1, 1, ORDER, 1, 1, 0, args)) {
        tap_diag("findk: %s", gs_last_error(c));
        goto out;
    }
    gs_memcpy_dtoh(c, ans, da, (size_t)nq * 4);
    bad = 0;
    for (int i = 0; i < nq; i++)
        if (ans[i] != rec[q[i]]) {
            if (bad < 3)
                tap_diag("findk query %d (key %d): %d, want %d", i, q[i], ans[i], rec[q[i]]);
            bad++;
        }
    if (json)
        *json = stats_json(c);
    if (gs_stats_get_u64(c, "l1d.load_hits", &last_l1_hits))
        last_l1_hits = UINT64_MAX;
out:
    free(kn);
    free(rec);
    free(q);
    free(ans);
    gs_ctx_destroy(c);
    return bad;
}

/* ---------------------------------------------- kernels with a bad counter */

/* Launch `name` with (buf, in, bad, iters) or (slot, bad, iters); returns
 * the bad count, -1 on error. */
static int run_counter(const char *name, unsigned threads, unsigned grid, unsigned block, int iters,
                       char **json)
{
    gs_module *m;
    gs_ctx *c = mk("timing", threads, NULL, &m);
    if (!c)
        return -1;
    gs_function *f;
    int bad = -1;
    uint64_t a, b, cnt;
    size_t n = (size_t)grid * block;
    if (gs_module_get_function(m, name, &f) || gs_mem_alloc(c, &a, n * 4) || gs_mem_alloc(c, &b, n * 4) ||
        gs_mem_alloc(c, &cnt, 4))
        goto out;
    gs_memset_d8(c, a, 0xff, n * 4);
    gs_memset_d8(c, b, 0x5a, n * 4);
    gs_memset_d8(c, cnt, 0, 4);
    void *a3[] = {&a, &cnt, &iters};
    void *a4[] = {&a, &b, &cnt, &iters};
    if (gs_launch_kernel(f, grid, 1, 1, block, 1, 1, 0, strcmp(name, "bar_handoff") == 0 ? a3 : a4)) {
        tap_diag("%s: %s", name, gs_last_error(c));
        goto out;
    }
    uint32_t v;
    gs_memcpy_dtoh(c, &v, cnt, 4);
    bad = (int)v;
    if (json)
        *json = stats_json(c);
out:
    gs_ctx_destroy(c);
    return bad;
}

/* Message passing with fences: returns the number of readers that saw the
 * flag but stale data, -1 on error. */
static int run_mp(unsigned threads, const char *extra, int pairs, int spin, char **json)
{
    gs_module *m;
    gs_ctx *c = mk("timing", threads, extra, &m);
    if (!c)
        return -1;
    gs_function *f;
    int bad = -1;
    uint64_t data, flag, seen;
    size_t words = (size_t)pairs * 32;
    if (gs_module_get_function(m, "mp_fence", &f) || gs_mem_alloc(c, &data, words * 4) ||
        gs_mem_alloc(c, &flag, words * 4) || gs_mem_alloc(c, &seen, (size_t)pairs * 4))
        goto out;
    gs_memset_d8(c, data, 0, words * 4);
    gs_memset_d8(c, flag, 0, words * 4);
    gs_memset_d8(c, seen, 0xff, (size_t)pairs * 4);
    void *args[] = {&data, &flag, &seen, &spin};
    if (gs_launch_kernel(f, 2u * (unsigned)pairs, 1, 1, 32, 1, 1, 0, args)) {
        tap_diag("mp_fence: %s", gs_last_error(c));
        goto out;
    }
    uint32_t *s = malloc((size_t)pairs * 4);
    gs_memcpy_dtoh(c, s, seen, (size_t)pairs * 4);
    bad = 0;
    for (int i = 0; i < pairs; i++)
        if ((s[i] & 0xffff) != (uint32_t)(i + 1))
            bad++;
    free(s);
    if (json)
        *json = stats_json(c);
out:
    gs_ctx_destroy(c);
    return bad;
}

/* The SC limit (sched.max_outstanding_mem_per_warp, 001) counts global
 * accesses only: a warp streaming shared-memory stores and loads is never
 * held for memory order, one streaming global loads is. */
#define SC_HDR ".version 7.0\n.target sm_70\n.address_size 64\n"
static const char *sc_shared_ptx = SC_HDR
    ".visible .entry k(.param .u64 out)\n{\n .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
    " .shared .align 4 .b8 buf[1024];\n mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 2;\n mov.u32 %r5, buf;\n"
    " add.s32 %r6, %r5, %r2;\n mov.u32 %r3, 0;\n"
    "L:\n st.shared.u32 [%r6], %r3;\n ld.shared.u32 %r4, [%r6];\n add.s32 %r3, %r3, 1;\n"
    " setp.lt.u32 %p1, %r3, 64;\n @%p1 bra L;\n ld.param.u64 %rd1, [out];\n mul.wide.u32 %rd2, %r1, 4;\n"
    " add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r4;\n ret;\n}\n";
static const char *sc_global_ptx = SC_HDR
    ".visible .entry k(.param .u64 out)\n{\n .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
    " mov.u32 %r3, 0;\nL:\n ld.global.u32 %r4, [%rd3];\n add.s32 %r3, %r3, 1;\n"
    " setp.lt.u32 %p1, %r3, 64;\n @%p1 bra L;\n st.global.u32 [%rd3], %r4;\n ret;\n}\n";

static int64_t sc_mem_order_stalls(const char *ptx, const char *limit)
{
    const char *ov[] = {"sim.mode=timing", limit, NULL};
    gs_ctx *c = gs_ctx_create("gtx480", ov);
    gs_module *m;
    gs_function *f;
    uint64_t out, v = UINT64_MAX;
    if (!c || gs_module_load_data(c, ptx, &m) || gs_module_get_function(m, "k", &f) || gs_mem_alloc(c, &out, 1024)) {
        tap_diag("sc: %s", gs_last_error(c));
        gs_ctx_destroy(c);
        return -1;
    }
    void *args[] = {&out};
    if (gs_launch_kernel(f, 1, 1, 1, 256, 1, 1, 0, args) || gs_stats_get_u64(c, "sm.sched.stall_mem_order", &v))
        tap_diag("sc: %s", gs_last_error(c));
    gs_ctx_destroy(c);
    return v == UINT64_MAX ? -1 : (int64_t)v;
}

static void same_json(char *a, char *b, const char *what)
{
    TAP_OK(a && b && strcmp(a, b) == 0, "%s: statistics identical for 1 and 2 host threads", what);
    free(a);
    free(b);
}

int main(void)
{
    tap_no_plan();
    ptx_text = slurp(PTXDIR "memmodel.ptx");
    regs_text = slurp(PTXDIR "memmodel.ptx.regs");
    if (!ptx_text || !regs_text) {
        TAP_OK(0, "read tests/ptx/memmodel.ptx");
        return tap_exit();
    }

    /* __syncthreads() orders global memory for the CTA */
    char *j1 = NULL, *j2 = NULL;
    TAP_EQ_I64(run_findk("functional", 1, NULL, 600, NULL), 0, "findK: functional mode answers every query");
    TAP_EQ_I64(run_findk("timing", 1, NULL, 600, &j1), 0, "findK: timing mode answers every query (1 thread)");
    TAP_EQ_I64(run_findk("timing", 2, NULL, 600, &j2), 0, "findK: timing mode answers every query (2 threads)");
    same_json(j1, j2, "findK");
    TAP_EQ_I64(run_findk("timing", 1, "sim.tick_every_cycle=true", 200, &j1), 0,
               "findK: every cycle ticked, still right");
    TAP_EQ_I64(run_findk("timing", 1, NULL, 200, &j2), 0, "findK: idle skipping");
    TAP_OK(j1 && j2 && strcmp(j1, j2) == 0, "findK: sim.tick_every_cycle gives the statistics of idle skipping");
    free(j1);
    free(j2);

    TAP_EQ_I64(run_counter("bar_handoff", 1, 60, 256, 40, &j1), 0,
               "store / __syncthreads() / load hand-off between warps sees every store");
    TAP_EQ_I64(run_counter("bar_handoff", 2, 60, 256, 40, &j2), 0, "hand-off with 2 host threads");
    same_json(j1, j2, "bar_handoff");

    /* program order of one thread: store then load of the same word */
    TAP_EQ_I64(run_counter("st_ld_same", 1, 45, 256, 20, &j1), 0, "a load right after a store of the same word sees it");
    TAP_EQ_I64(run_counter("st_ld_same", 2, 45, 256, 20, &j2), 0, "same with 2 host threads");
    same_json(j1, j2, "st_ld_same");

    /* __threadfence() message passing across SMs, reader's L1 warmed */
    TAP_EQ_I64(run_mp(1, NULL, 60, 300, &j1), 0, "message passing with membar.gl: no reader sees stale data");
    TAP_EQ_I64(run_mp(2, NULL, 60, 300, &j2), 0, "message passing with 2 host threads");
    same_json(j1, j2, "mp_fence");
    TAP_EQ_I64(run_mp(1, NULL, 60, 0, NULL), 0, "message passing, writer without delay");

    /* the no-L1 mode keeps every answer and never hits in the L1 */
    TAP_EQ_I64(run_findk("timing", 1, NULL, 200, NULL), 0, "findK with the L1D");
    TAP_OK(last_l1_hits > 0 && last_l1_hits != UINT64_MAX, "findK hits in the L1D (%llu load hits)",
           (unsigned long long)last_l1_hits);
    TAP_EQ_I64(run_findk("timing", 1, "l1d.enable=false", 200, NULL), 0, "findK with l1d.enable=false");
    TAP_EQ_U64(last_l1_hits, 0, "l1d.enable=false: no L1D load hit");
    TAP_EQ_I64(run_mp(1, "l1d.enable=false", 60, 300, NULL), 0, "message passing with l1d.enable=false");

    /* the SC limit counts global accesses only: it changes nothing for a
     * shared-memory stream and holds a global stream back (memory-order
     * stall cycles with the limit against without) */
    const char *lim1 = "sched.max_outstanding_mem_per_warp=1", *lim0 = "sched.max_outstanding_mem_per_warp=0";
    int64_t s1 = sc_mem_order_stalls(sc_shared_ptx, lim1), s0 = sc_mem_order_stalls(sc_shared_ptx, lim0);
    TAP_OK(s1 >= 0 && s1 == s0, "SC limit 1 does not hold back shared-memory accesses (%lld vs %lld stall cycles)",
           (long long)s1, (long long)s0);
    int64_t g1 = sc_mem_order_stalls(sc_global_ptx, lim1), g0 = sc_mem_order_stalls(sc_global_ptx, lim0);
    TAP_OK(g0 >= 0 && g1 > g0, "SC limit 1 holds back global loads (%lld vs %lld stall cycles)", (long long)g1,
           (long long)g0);

    free(ptx_text);
    free(regs_text);
    return tap_exit();
}
