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

    free(ptx_text);
    free(regs_text);
    return tap_exit();
}
