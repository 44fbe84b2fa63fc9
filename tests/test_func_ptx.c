/* tests/test_func_ptx.c: end-to-end functional runs of the committed nvcc
 * PTX in tests/ptx/ (vector add, shared-memory + shfl reduction, histogram
 * with shared and global atomics, divergent control flow, .func calls),
 * each checked against a CPU reference; plus the statistics JSON. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpusim.h"
#include "tap.h"

#ifndef GPUSIM_SOURCE_DIR
#define GPUSIM_SOURCE_DIR "."
#endif
#define PTXDIR GPUSIM_SOURCE_DIR "/tests/ptx/"

/* Deterministic pseudo-random numbers (xorshift32). */
static uint32_t rng(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static gs_function *kernel(gs_ctx *c, const char *file, const char *name)
{
    gs_module *m;
    gs_function *f = NULL;
    if (gs_module_load(c, file, &m) || gs_module_get_function(m, name, &f)) {
        tap_diag("%s", gs_last_error(c));
        return NULL;
    }
    return f;
}

static uint64_t dalloc(gs_ctx *c, const void *src, size_t n)
{
    uint64_t d = 0;
    gs_mem_alloc(c, &d, n);
    if (src)
        gs_memcpy_htod(c, d, src, n);
    else
        gs_memset_d8(c, d, 0, n);
    return d;
}

static void test_vecadd(gs_ctx *c)
{
    gs_function *f = kernel(c, PTXDIR "vecadd.ptx", "vecadd");
    TAP_OK(f != NULL, "vecadd loads");
    if (!f)
        return;
    int n = 100000;
    float *a = malloc(n * 4), *b = malloc(n * 4), *r = malloc(n * 4);
    uint32_t s = 1;
    for (int i = 0; i < n; i++) {
        a[i] = (float)(rng(&s) % 1000) / 7.0f;
        b[i] = (float)(rng(&s) % 1000) / 3.0f;
    }
    uint64_t da = dalloc(c, a, n * 4), db = dalloc(c, b, n * 4), dc = dalloc(c, NULL, n * 4);
    void *args[] = {&da, &db, &dc, &n};
    TAP_EQ_I64(gs_launch_kernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, args), 0, "vecadd runs");
    gs_memcpy_dtoh(c, r, dc, n * 4);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += r[i] != a[i] + b[i];
    TAP_EQ_I64(bad, 0, "vecadd matches the CPU (bit-exact)");
    free(a);
    free(b);
    free(r);
}

static void test_reduce(gs_ctx *c)
{
    gs_function *f = kernel(c, PTXDIR "reduce.ptx", "reduce_sum");
    TAP_OK(f != NULL, "reduce loads");
    if (!f)
        return;
    int n = 1 << 16;
    float *in = malloc(n * 4);
    double ref = 0;
    uint32_t s = 7;
    for (int i = 0; i < n; i++) {
        in[i] = (float)(rng(&s) % 64); /* small integers: the sum is exact in fp32 */
        ref += in[i];
    }
    uint64_t din = dalloc(c, in, n * 4), dout = dalloc(c, NULL, 4);
    void *args[] = {&din, &dout, &n};
    TAP_EQ_I64(gs_launch_kernel(f, 30, 1, 1, 256, 1, 1, 0, args), 0, "reduce runs (grid-stride)");
    float got = 0;
    gs_memcpy_dtoh(c, &got, dout, 4);
    TAP_EQ_I64((int64_t)got, (int64_t)ref, "reduction with shfl + shared + atomicAdd matches");
    free(in);
}

static void test_histogram(gs_ctx *c)
{
    gs_function *f = kernel(c, PTXDIR "histogram.ptx", "histogram");
    TAP_OK(f != NULL, "histogram loads");
    if (!f)
        return;
    int n = 50000;
    unsigned char *data = malloc(n);
    uint32_t ref[64] = {0}, got[64];
    uint32_t s = 99;
    for (int i = 0; i < n; i++) {
        data[i] = (unsigned char)rng(&s);
        ref[data[i] % 64]++;
    }
    uint64_t dd = dalloc(c, data, n), db = dalloc(c, NULL, 64 * 4);
    void *args[] = {&dd, &db, &n};
    TAP_EQ_I64(gs_launch_kernel(f, 20, 1, 1, 128, 1, 1, 0, args), 0, "histogram runs");
    gs_memcpy_dtoh(c, got, db, sizeof got);
    TAP_OK(memcmp(got, ref, sizeof ref) == 0, "histogram (shared + global atomics) matches");
    free(data);
}

static int div_ref(int x)
{
    int acc = (x & 1) ? x * 3 + 1 : x / 2;
    for (int k = 0; k < x; k++) {
        if ((k ^ x) & 4)
            continue;
        if (acc > 1000)
            break;
        acc += k * k;
    }
    while (acc > 17) {
        acc -= 17;
        if (acc == 42)
            break;
    }
    return acc;
}

static void test_divergent(gs_ctx *c)
{
    gs_function *f = kernel(c, PTXDIR "divergent.ptx", "divergent");
    TAP_OK(f != NULL, "divergent loads");
    if (!f)
        return;
    int n = 3000;
    int *in = malloc(n * 4), *out = malloc(n * 4);
    uint32_t s = 5;
    for (int i = 0; i < n; i++)
        in[i] = (int)(rng(&s) % 200) - 20;
    uint64_t di = dalloc(c, in, n * 4), dout = dalloc(c, NULL, n * 4);
    void *args[] = {&di, &dout, &n};
    TAP_EQ_I64(gs_launch_kernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, args), 0, "divergent runs");
    gs_memcpy_dtoh(c, out, dout, n * 4);
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (out[i] != div_ref(in[i]) && bad++ == 0)
            tap_diag("i=%d x=%d got %d want %d", i, in[i], out[i], div_ref(in[i]));
    TAP_EQ_I64(bad, 0, "divergent control flow matches the CPU");
    free(in);
    free(out);
}

static void test_devfunc(gs_ctx *c)
{
    gs_function *f = kernel(c, PTXDIR "devfunc.ptx", "devfunc");
    TAP_OK(f != NULL, "devfunc loads");
    if (!f)
        return;
    int n = 1000;
    float *a = malloc(n * 4), *b = malloc(n * 4), *r = malloc(n * 4);
    int *d = malloc(n * 8);
    for (int i = 0; i < n; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = (float)(n - i) * 0.25f;
    }
    uint64_t da = dalloc(c, a, n * 4), db = dalloc(c, b, n * 4), dc = dalloc(c, NULL, n * 4),
             dd = dalloc(c, NULL, n * 8);
    void *args[] = {&da, &db, &dc, &dd, &n};
    TAP_EQ_I64(gs_launch_kernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, args), 0, "devfunc runs");
    gs_memcpy_dtoh(c, r, dc, n * 4);
    gs_memcpy_dtoh(c, d, dd, n * 8);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        int k = i & 7;
        float want = k > 0 ? fmaf(a[i], b[i], (float)k) : a[i] - b[i];
        float want2 = k > 0 ? a[i] * b[i] + (float)k : want;
        if ((r[i] != want && r[i] != want2) || d[2 * i] != i || d[2 * i + 1] != n)
            if (bad++ == 0)
                tap_diag("i=%d got %g want %g", i, r[i], want);
    }
    TAP_EQ_I64(bad, 0, ".func calls with params and return value match");
    free(a);
    free(b);
    free(r);
    free(d);
}

static void test_stats(gs_ctx *c)
{
    const char *path = "/tmp/gpusim_test_func_stats.json";
    TAP_EQ_I64(gs_stats_write(c, path), 0, "stats written");
    FILE *fp = fopen(path, "r");
    char *buf = calloc(1, 1 << 20);
    size_t n = fp ? fread(buf, 1, (1 << 20) - 1, fp) : 0;
    if (fp)
        fclose(fp);
    TAP_OK(n > 0 && strstr(buf, "\"gpusim-stats-1\"") && strstr(buf, "\"complete\": true"),
           "format and complete");
    TAP_OK(strstr(buf, "func.thread_insts") && strstr(buf, "func.active_lanes") &&
               strstr(buf, "\"kernels\""),
           "per-kernel and total executor statistics present");
    char *host = strstr(buf, "\"host\"");
    TAP_OK(host && !strstr(host, "\"stats\"") && !strstr(host, "\"config\""), "\"host\" is last");
    free(buf);
    remove(path);
}

int main(void)
{
    tap_no_plan();
    gs_ctx *c = gs_ctx_create(NULL, NULL);
    if (!c)
        tap_bail("context: %s", gs_last_error(NULL));
    test_vecadd(c);
    test_reduce(c);
    test_histogram(c);
    test_divergent(c);
    test_devfunc(c);
    test_stats(c);
    gs_ctx_destroy(c);
    return tap_exit();
}
