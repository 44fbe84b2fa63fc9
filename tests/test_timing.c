/* tests/test_timing.c: the assembled timing mode (sim/gpu/gpu.c, sim/sm/sm.c)
 * through the public API: results, host and device-to-device copies
 * through the L2 across kernels, identical statistics for any host thread count, errors
 * (faults, deadlock, watchdog, unusable clocks), two contexts in one process.
 * Timing values themselves are checked by test_ubench against hand-computed
 * latencies; here only what must hold exactly. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpusim.h"
#include "tap.h"

#define HDR ".version 7.0\n.target sm_70\n.address_size 64\n"

/* out[i] = in[i] * 3 + i, with a grid-stride over n elements. */
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

/* Every thread adds 1 to counter[0] with an atomic and stores the old value. */
static const char *atom_ptx = HDR
    ".visible .entry k(.param .u64 cnt, .param .u64 old)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [cnt];\n ld.param.u64 %rd2, [old];\n"
    " mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n mad.lo.s32 %r4, %r1, %r2, %r3;\n"
    " atom.global.add.u32 %r5, [%rd1], 1;\n"
    " mul.wide.u32 %rd3, %r4, 4;\n add.s64 %rd4, %rd2, %rd3;\n st.global.u32 [%rd4], %r5;\n ret;\n}\n";

static const char *oob_ptx = HDR
    ".visible .entry k(.param .u64 out)\n{\n .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4096;\n"
    " add.s64 %rd3, %rd1, %rd2;\n ld.global.u32 %r2, [%rd3];\n ret;\n}\n";

static const char *deadlock_ptx = HDR
    ".visible .entry k(.param .u64 out)\n{\n .reg .b32 %r<4>; .reg .pred %p<2>;\n"
    " mov.u32 %r1, %tid.x;\n setp.lt.u32 %p1, %r1, 32;\n @%p1 bra SKIP;\n bar.sync 1;\n"
    "SKIP:\n bar.sync 0;\n ret;\n}\n";

static gs_ctx *tctx(const char *const *extra, unsigned threads)
{
    const char *ov[16] = {"sim.mode=timing"};
    size_t n = 1;
    for (size_t i = 0; extra && extra[i]; i++)
        ov[n++] = extra[i];
    ov[n] = NULL;
    gs_ctx *c = gs_ctx_create("gtx480", ov);
    if (!c) {
        tap_diag("gs_ctx_create: %s", gs_last_error(NULL));
        return NULL;
    }
    gs_host_opts h = {threads, 0, 0, 0, 0, NULL};
    gs_ctx_set_host(c, &h);
    return c;
}

static gs_function *load(gs_ctx *c, const char *text)
{
    gs_module *m;
    gs_function *f = NULL;
    if (gs_module_load_data(c, text, &m) || gs_module_get_function(m, "k", &f)) {
        tap_diag("load: %s", gs_last_error(c));
        return NULL;
    }
    return f;
}

/* Run axpy over n elements twice (second kernel reads what the host wrote
 * in between) and return the statistics JSON text (caller frees). */
static char *run_axpy(unsigned threads, unsigned n, const char *const *extra, bool *ok)
{
    *ok = false;
    gs_ctx *c = tctx(extra, threads);
    if (!c)
        return NULL;
    gs_function *f = load(c, axpy_ptx);
    uint32_t *in = malloc(n * 4), *out = malloc(n * 4);
    for (unsigned i = 0; i < n; i++)
        in[i] = i * 7u + 1u;
    uint64_t din, dout;
    gs_mem_alloc(c, &din, n * 4);
    gs_mem_alloc(c, &dout, n * 4);
    gs_memcpy_htod(c, din, in, n * 4);
    void *args[] = {&din, &dout, &n};
    bool good = f && gs_launch_kernel(f, 8, 1, 1, 128, 1, 1, 0, args) == 0;
    gs_memcpy_dtoh(c, out, dout, n * 4);
    for (unsigned i = 0; good && i < n; i++)
        good = out[i] == in[i] * 3u + i;
    /* Kernel 2 reads `out` as input: lines the first kernel left dirty in
     * the L2, overwritten in part by the host in between. */
    for (unsigned i = 0; i < n; i += 3)
        out[i] = 5u * i;
    gs_memcpy_htod(c, dout, out, n * 4);
    void *args2[] = {&dout, &din, &n};
    good = good && gs_launch_kernel(f, 8, 1, 1, 128, 1, 1, 0, args2) == 0;
    uint32_t *back = malloc(n * 4);
    gs_memcpy_dtoh(c, back, din, n * 4);
    for (unsigned i = 0; good && i < n; i++)
        good = back[i] == out[i] * 3u + i;
    char path[] = "/tmp/gpusim_timing_XXXXXX";
    int fd = mkstemp(path);
    char *text = NULL;
    if (fd >= 0 && gs_stats_write(c, path) == 0) {
        FILE *fp = fopen(path, "rb");
        fseek(fp, 0, SEEK_END);
        long len = ftell(fp);
        rewind(fp);
        text = calloc(1, (size_t)len + 1);
        if (fread(text, 1, (size_t)len, fp) != (size_t)len)
            good = false;
        fclose(fp);
        /* drop the "host" object (wall-clock facts), which is last */
        char *h = strstr(text, "\"host\"");
        if (h)
            *h = 0;
    }
    if (fd >= 0)
        remove(path);
    uint64_t cycles = 0;
    gs_stats_get_u64(c, "gpu.cycles", &cycles);
    good = good && cycles > 0;
    free(in);
    free(out);
    free(back);
    gs_ctx_destroy(c);
    *ok = good;
    return text;
}

static void test_results_and_determinism(void)
{
    bool ok1, ok2, ok3;
    char *a = run_axpy(1, 5000, NULL, &ok1);
    char *b = run_axpy(2, 5000, NULL, &ok2);
    char *d = run_axpy(3, 5000, NULL, &ok3);
    bool ok4;
    const char *every[] = {"sim.tick_every_cycle=true", NULL};
    char *e = run_axpy(2, 5000, every, &ok4);
    /* the config differs (the key itself); statistics and summary must not */
    const char *sa = a ? strstr(a, "\"stats\"") : NULL, *se = e ? strstr(e, "\"stats\"") : NULL;
    TAP_OK(ok4 && sa && se && strcmp(sa, se) == 0,
           "ticking every SM every cycle (no idle skipping) gives identical statistics");
    free(e);
    TAP_OK(ok1 && a, "axpy twice with host copies in between: results exact (1 thread)");
    TAP_OK(ok2 && ok3, "same with 2 and 3 host threads");
    TAP_OK(a && b && strcmp(a, b) == 0, "statistics JSON (all but host) identical for 1 and 2 threads");
    TAP_OK(a && d && strcmp(a, d) == 0, "statistics JSON (all but host) identical for 1 and 3 threads");
    TAP_OK(a && strstr(a, "\"timing\"") && strstr(a, "\"ipc\""), "JSON has the timing summary with IPC");
    free(a);
    free(b);
    free(d);
}

/* The page table (vm.page_policy, docs/addrmap.md): a first-touch mapping
 * moves pages to other channels and banks; values stay right, statistics
 * stay thread-count independent, and timing differs from identity. */
static void test_page_table(void)
{
    bool ok1, ok2, ok0;
    const char *ft[] = {"vm.page_policy=first_touch", NULL};
    char *a = run_axpy(1, 20000, ft, &ok1);
    char *b = run_axpy(2, 20000, ft, &ok2);
    char *z = run_axpy(1, 20000, NULL, &ok0);
    TAP_OK(ok1 && ok2, "first_touch page table: axpy with host copies between kernels is exact (1 and 2 threads)");
    TAP_OK(a && b && strcmp(a, b) == 0, "first_touch: statistics identical for 1 and 2 threads");
    const char *sa = a ? strstr(a, "\"stats\"") : NULL, *sz = z ? strstr(z, "\"stats\"") : NULL;
    TAP_OK(ok0 && sa && sz && strcmp(sa, sz) != 0, "first_touch places pages differently from identity (timing differs)");
    free(a);
    free(b);
    free(z);
}

static void test_atomics(void)
{
    gs_ctx *c = tctx(NULL, 2);
    gs_function *f = c ? load(c, atom_ptx) : NULL;
    const unsigned ctas = 30, bt = 96, n = ctas * bt;
    uint64_t dc, dold;
    gs_mem_alloc(c, &dc, 4);
    gs_mem_alloc(c, &dold, n * 4);
    gs_memset_d8(c, dc, 0, 4);
    void *args[] = {&dc, &dold};
    TAP_EQ_I64(f ? gs_launch_kernel(f, ctas, 1, 1, bt, 1, 1, 0, args) : -1, 0, "atomic kernel runs");
    uint32_t cnt = 0, *old = calloc(n, 4);
    char *seen = calloc(n, 1);
    gs_memcpy_dtoh(c, &cnt, dc, 4);
    gs_memcpy_dtoh(c, old, dold, n * 4);
    bool perm = true;
    for (unsigned i = 0; i < n && perm; i++) {
        perm = old[i] < n && !seen[old[i]];
        if (perm)
            seen[old[i]] = 1;
    }
    TAP_EQ_U64(cnt, n, "the counter (performed at L2) ends at the thread count");
    TAP_OK(perm, "old values are a permutation of 0..n-1");
    free(old);
    free(seen);
    gs_ctx_destroy(c);
}

static void test_errors(void)
{
    gs_ctx *c = tctx(NULL, 1);
    gs_function *f = load(c, oob_ptx);
    uint64_t d;
    gs_mem_alloc(c, &d, 64);
    void *args[] = {&d};
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 32, 1, 1, 0, args), GS_ERR_EXEC, "out-of-bounds load faults");
    TAP_OK(strstr(gs_last_error(c), "out-of-bounds") && strstr(gs_last_error(c), "CTA (0,0,0)"),
           "fault names CTA, thread, PC: %s", gs_last_error(c));
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 1, 1, 1, 0, args), GS_ERR_STATE,
               "after a kernel stopped part-way, launches are refused");
    gs_ctx_destroy(c);

    c = tctx(NULL, 1);
    f = load(c, deadlock_ptx);
    gs_mem_alloc(c, &d, 64);
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 64, 1, 1, 0, args), GS_ERR_EXEC, "barrier deadlock detected");
    TAP_OK(strstr(gs_last_error(c), "deadlock") != NULL, "deadlock message: %s", gs_last_error(c));
    gs_ctx_destroy(c);

    /* Watchdog: one load that takes longer than sim.watchdog core cycles. */
    const char *slow[] = {"l2_to_dram.latency=5000", "sim.watchdog=1000", NULL};
    c = tctx(slow, 1);
    f = load(c, axpy_ptx);
    uint64_t din, dout;
    unsigned n = 32;
    gs_mem_alloc(c, &din, 128);
    gs_mem_alloc(c, &dout, 128);
    void *a2[] = {&din, &dout, &n};
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 32, 1, 1, 0, a2), GS_ERR_WATCHDOG,
               "watchdog stops a kernel that issues nothing for sim.watchdog cycles");
    TAP_OK(strstr(gs_last_error(c), "watchdog") && strstr(gs_last_error(c), "sim.watchdog"),
           "message names the key: %s", gs_last_error(c));
    gs_ctx_destroy(c);

    const char *clk[] = {"clock.icnt=800MHz", NULL};
    TAP_OK(tctx(clk, 1) == NULL && strstr(gs_last_error(NULL), "clock.icnt"),
           "clock.icnt != clock.core refused: %s", gs_last_error(NULL));
}

/* gs_memcpy_dtod in timing mode: the copies go through the L2 between
 * kernels, so a copy must read lines a kernel left dirty there and update
 * lines of the destination that the L2 holds. */
static void test_dtod(void)
{
    gs_ctx *c = tctx(NULL, 1);
    gs_function *f = c ? load(c, axpy_ptx) : NULL;
    unsigned n = 5000;
    size_t bytes = (size_t)n * 4;
    uint32_t *in = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
    for (unsigned i = 0; i < n; i++)
        in[i] = i * 5u + 2u;
    uint64_t din, dout, dcopy, dres;
    gs_mem_alloc(c, &din, bytes);
    gs_mem_alloc(c, &dout, bytes);
    gs_mem_alloc(c, &dcopy, bytes);
    gs_mem_alloc(c, &dres, bytes);
    /* Before the first launch the device memory is the only copy. */
    gs_memcpy_htod(c, dres, in, bytes);
    TAP_EQ_I64(gs_memcpy_dtod(c, din, dres, bytes), 0, "DtoD before any launch");
    gs_memset_d8(c, dout, 0xee, bytes);
    gs_memset_d8(c, dcopy, 0xdd, bytes);
    /* Kernel 1 writes out (dirty in the L2), kernel 2 writes copy, so the L2
     * holds lines of the destination too. */
    void *a1[] = {&din, &dout, &n}, *a2[] = {&din, &dcopy, &n};
    bool ok = f && gs_launch_kernel(f, 8, 1, 1, 128, 1, 1, 0, a1) == 0 &&
              gs_launch_kernel(f, 8, 1, 1, 128, 1, 1, 0, a2) == 0;
    TAP_OK(ok, "two kernels write out and copy: %s", ok ? "ok" : gs_last_error(c));
    for (unsigned i = 0; i < n; i++)
        want[i] = in[i] * 3u + i;
    gs_memcpy_dtoh(c, got, dout, bytes);
    TAP_OK(memcmp(got, want, bytes) == 0, "dtoh of out sees the kernel's result");
    /* Make copy differ from out, then copy out over it. */
    uint32_t zero[64] = {0};
    gs_memcpy_htod(c, dout, zero, sizeof zero);
    memset(want, 0, sizeof zero);
    TAP_EQ_I64(gs_memcpy_dtod(c, dcopy, dout, bytes), 0, "DtoD out -> copy after the kernels");
    memset(got, 0, bytes);
    gs_memcpy_dtoh(c, got, dcopy, bytes);
    TAP_OK(memcmp(got, want, bytes) == 0, "copy holds out's bytes, from the L2 (written by a kernel and the host)");
    /* Kernel 3 reads copy: it must see the copied bytes, not the L2 lines
     * kernel 2 left there. */
    void *a3[] = {&dcopy, &dres, &n};
    ok = f && gs_launch_kernel(f, 8, 1, 1, 128, 1, 1, 0, a3) == 0;
    gs_memcpy_dtoh(c, got, dres, bytes);
    bool same = ok;
    for (unsigned i = 0; same && i < n; i++)
        same = got[i] == want[i] * 3u + i;
    TAP_OK(same, "a kernel reading the destination sees the copied bytes");
    /* Overlapping copies inside out behave as memmove, both directions. */
    uint32_t *ref = malloc(bytes);
    memcpy(ref, want, bytes);
    memmove(ref + 3, ref, bytes - 12);
    TAP_EQ_I64(gs_memcpy_dtod(c, dout + 12, dout, bytes - 12), 0, "overlapping DtoD upwards");
    gs_memcpy_dtoh(c, got, dout, bytes);
    TAP_OK(memcmp(got, ref, bytes) == 0, "upward overlap copies as memmove");
    memmove(ref, ref + 7, bytes - 28);
    TAP_EQ_I64(gs_memcpy_dtod(c, dout, dout + 28, bytes - 28), 0, "overlapping DtoD downwards");
    gs_memcpy_dtoh(c, got, dout, bytes);
    TAP_OK(memcmp(got, ref, bytes) == 0, "downward overlap copies as memmove");
    /* Larger than the host bounce buffer (64 KiB): overlap across chunks. */
    size_t big = 300000;
    uint64_t dbig;
    uint8_t *b = malloc(big), *bref = malloc(big), *bgot = malloc(big);
    for (size_t i = 0; i < big; i++)
        b[i] = (uint8_t)(i * 131u + (i >> 9));
    gs_mem_alloc(c, &dbig, big);
    gs_memcpy_htod(c, dbig, b, big);
    memcpy(bref, b, big);
    memmove(bref + 1000, bref, big - 1000);
    gs_memcpy_dtod(c, dbig + 1000, dbig, big - 1000);
    memmove(bref, bref + 70001, big - 70001);
    gs_memcpy_dtod(c, dbig, dbig + 70001, big - 70001);
    gs_memcpy_dtoh(c, bgot, dbig, big);
    TAP_OK(memcmp(bgot, bref, big) == 0, "overlapping copies of 299000 and 229999 bytes (several chunks)");
    /* Errors: nothing is copied. */
    gs_memcpy_dtoh(c, got, dcopy, bytes);
    TAP_EQ_I64(gs_memcpy_dtod(c, dcopy, dout, bytes + 4), GS_ERR_INVALID_VALUE, "source past its allocation");
    TAP_CONTAINS(gs_last_error(c), "source", "message names the source range");
    TAP_EQ_I64(gs_memcpy_dtod(c, dcopy + 4, dout, bytes), GS_ERR_INVALID_VALUE, "destination past its allocation");
    TAP_CONTAINS(gs_last_error(c), "destination", "message names the destination range");
    gs_memcpy_dtoh(c, ref, dcopy, bytes);
    TAP_OK(memcmp(got, ref, bytes) == 0, "refused copies left the destination alone");
    TAP_EQ_I64(gs_memcpy_dtod(NULL, dcopy, dout, 4), GS_ERR_INVALID_VALUE, "NULL context");
    TAP_EQ_I64(gs_memcpy_dtod(c, 0, 0, 0), 0, "zero bytes: nothing to do");
    free(b);
    free(bref);
    free(bgot);
    free(ref);
    free(in);
    free(want);
    free(got);
    gs_ctx_destroy(c);
}

static void test_two_contexts(void)
{
    gs_ctx *a = tctx(NULL, 1), *b = tctx(NULL, 1);
    gs_function *fa = load(a, axpy_ptx), *fb = load(b, axpy_ptx);
    unsigned n = 1000;
    uint64_t ia, oa, ib, ob;
    gs_mem_alloc(a, &ia, n * 4);
    gs_mem_alloc(a, &oa, n * 4);
    gs_mem_alloc(b, &ib, n * 4);
    gs_mem_alloc(b, &ob, n * 4);
    uint32_t *in = malloc(n * 4), *out = malloc(n * 4);
    for (unsigned i = 0; i < n; i++)
        in[i] = i;
    gs_memcpy_htod(a, ia, in, n * 4);
    for (unsigned i = 0; i < n; i++)
        in[i] = 2 * i;
    gs_memcpy_htod(b, ib, in, n * 4);
    void *aa[] = {&ia, &oa, &n}, *ab[] = {&ib, &ob, &n};
    bool ok = gs_launch_kernel(fa, 4, 1, 1, 64, 1, 1, 0, aa) == 0 && gs_launch_kernel(fb, 4, 1, 1, 64, 1, 1, 0, ab) == 0;
    gs_memcpy_dtoh(b, out, ob, n * 4);
    for (unsigned i = 0; ok && i < n; i++)
        ok = out[i] == 6 * i + i;
    gs_memcpy_dtoh(a, out, oa, n * 4);
    for (unsigned i = 0; ok && i < n; i++)
        ok = out[i] == 3 * i + i;
    TAP_OK(ok, "two timing contexts in one process keep their own machines");
    free(in);
    free(out);
    gs_ctx_destroy(a);
    gs_ctx_destroy(b);
}

/* NOTE(l1i-launch) in sim/sm/sm.c: a launch of the module that ran last
 * keeps the instruction caches; another module's code, or
 * l1i.launch_invalidate = always, empties them. Each launch runs one warp on
 * one SM; its code (under 2 KB) then misses only on the first launch. */
static uint64_t l1i_misses_of(gs_ctx *c, gs_function *f, uint64_t in, uint64_t out)
{
    uint64_t before = 0, after = 0;
    unsigned n = 32;
    void *args[] = {&in, &out, &n};
    gs_stats_get_u64(c, "l1i.misses", &before);
    if (gs_launch_kernel(f, 1, 1, 1, 32, 1, 1, 0, args) != 0) {
        tap_diag("launch: %s", gs_last_error(c));
        return UINT64_MAX;
    }
    gs_stats_get_u64(c, "l1i.misses", &after);
    return after - before;
}

static void test_l1i_across_launches(void)
{
    for (int always = 0; always <= 1; always++) {
        const char *ov[] = {always ? "l1i.launch_invalidate=always" : "l1i.launch_invalidate=new_code", NULL};
        gs_ctx *c = tctx(ov, 1);
        gs_function *fa = load(c, axpy_ptx), *fb = load(c, axpy_ptx); /* same text, two modules */
        uint64_t in = 0, out = 0;
        gs_mem_alloc(c, &in, 4096);
        gs_mem_alloc(c, &out, 4096);
        uint64_t first = l1i_misses_of(c, fa, in, out), again = l1i_misses_of(c, fa, in, out),
                 other = l1i_misses_of(c, fb, in, out), back = l1i_misses_of(c, fa, in, out);
        tap_diag("l1i misses per launch (%s): A %llu, A %llu, B %llu, A %llu", ov[0], (unsigned long long)first,
                 (unsigned long long)again, (unsigned long long)other, (unsigned long long)back);
        TAP_OK(first > 0 && first != UINT64_MAX, "%s: the first launch misses in the instruction cache", ov[0]);
        if (always)
            TAP_OK(again == first && other == first && back == first, "always: every launch misses as the first");
        else {
            TAP_OK(again == 0, "new_code: the same module again hits on every fetch");
            TAP_OK(other == first && back == first, "new_code: another module's code empties the cache, both ways");
        }
        gs_ctx_destroy(c);
    }
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"results and determinism", test_results_and_determinism},
        {"atomics at L2", test_atomics},
        {"page table", test_page_table},
        {"errors", test_errors},
        {"device-to-device copies", test_dtod},
        {"two contexts", test_two_contexts},
        {"instruction cache across launches", test_l1i_across_launches},
    };
    return tap_run(tests, sizeof tests / sizeof *tests);
}
