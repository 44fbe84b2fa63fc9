/* workloads/vectoradd/host.c: driver for vectoradd (c = a + b).
 *
 * Inputs: a and b uniform in [-1000, 1000) from --seed. The grid covers the
 * vector once (256 threads per CTA, at most 65535 CTAs; the kernel's
 * grid-stride loop handles the rest). Check: exact, since the device and the
 * host both compute one correctly rounded fp32 addition per element. */
#include <stdlib.h>

#include "wl.h"

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 1000, 1 << 18, 1 << 22, 1 << 24);
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *a = wl_host_alloc(w, n * sizeof(float));
    float *b = wl_host_alloc(w, n * sizeof(float));
    float *c = wl_host_alloc(w, n * sizeof(float));
    float *ref = wl_host_alloc(w, n * sizeof(float));
    for (int i = 0; i < n; i++) {
        a[i] = wl_rng_float(&r, -1000.0f, 1000.0f);
        b[i] = wl_rng_float(&r, -1000.0f, 1000.0f);
        ref[i] = a[i] + b[i];
    }
    uint64_t da = wl_alloc_copy(w, a, n * sizeof(float));
    uint64_t db = wl_alloc_copy(w, b, n * sizeof(float));
    uint64_t dc = wl_alloc(w, n * sizeof(float));
    gs_function *k = wl_kernel(w, "vectoradd");
    unsigned block = 256, grid = (unsigned)((n + block - 1) / block);
    if (grid > 65535)
        grid = 65535;
    void *params[] = {&da, &db, &dc, &n};
    wl_launch(w, k, grid, 1, 1, block, 1, 1, 0, params);
    wl_dtoh(w, c, dc, n * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "c", c, ref, (size_t)n, 0.0, 0.0);
    free(a);
    free(b);
    free(c);
    free(ref);
    return wl_finish(w);
}

WL_REGISTER(vectoradd) = {
    .name = "vectoradd",
    .summary = "element-wise sum of two float vectors",
    .mirrors = "CUDA SDK vectorAdd / ISPASS-2009 style",
    .stresses = "memory-bound, streaming, fully coalesced",
    .flags = WL_MEM_SENS,
    .sizes = {"1000 floats", "256K floats", "4M floats", "16M floats"},
    .run = run,
};
