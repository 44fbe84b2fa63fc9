/* workloads/transpose/host.c: driver for transpose (out = in^T).
 *
 * Input: a rows x cols float matrix (neither a multiple of 32, so edge tiles
 * are partial) with values uniform in [-1000, 1000) from --seed. Both
 * kernels run on the same input into separate outputs; each output is
 * checked exactly against the host transpose (pure data movement). */
#include <stdlib.h>

#include "wl.h"

static int run(struct wl *w)
{
    int rows = (int)wl_pick(w, 100, 1700, 5000, 12100);
    int cols = (int)wl_pick(w, 75, 1300, 4500, 9900);
    size_t n = (size_t)rows * cols;
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    float *in = wl_host_alloc(w, n * sizeof(float));
    float *ref = wl_host_alloc(w, n * sizeof(float));
    float *got = wl_host_alloc(w, n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        in[i] = wl_rng_float(&r, -1000.0f, 1000.0f);
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++)
            ref[(size_t)x * rows + y] = in[(size_t)y * cols + x];

    uint64_t din = wl_alloc_copy(w, in, n * sizeof(float));
    uint64_t dnaive = wl_alloc(w, n * sizeof(float));
    uint64_t dtiled = wl_alloc(w, n * sizeof(float));
    gs_function *knaive = wl_kernel(w, "transpose_naive");
    gs_function *ktiled = wl_kernel(w, "transpose_tiled");
    unsigned gx = (unsigned)(cols + 31) / 32;
    void *pnaive[] = {&din, &dnaive, &rows, &cols};
    wl_launch(w, knaive, gx, (unsigned)(rows + 7) / 8, 1, 32, 8, 1, 0, pnaive);
    void *ptiled[] = {&din, &dtiled, &rows, &cols};
    wl_launch(w, ktiled, gx, (unsigned)(rows + 31) / 32, 1, 32, 8, 1, 0, ptiled);

    wl_dtoh(w, got, dnaive, n * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "naive", got, ref, n, 0.0, 0.0);
    wl_dtoh(w, got, dtiled, n * sizeof(float));
    if (wl_ok(w))
        wl_check_f32(w, "tiled", got, ref, n, 0.0, 0.0);
    free(in);
    free(ref);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(transpose) = {
    .name = "transpose",
    .summary = "float matrix transpose, naive and shared-memory tiled (padded 32x32 tiles)",
    .mirrors = "CUDA SDK transpose",
    .stresses = "memory-bound; uncoalesced stores (naive) vs shared-memory staging, bank conflicts",
    .flags = WL_CACHE_SENS | WL_MEM_SENS,
    .sizes = {"100 x 75", "1700 x 1300", "5000 x 4500", "12100 x 9900"},
    .run = run,
};
