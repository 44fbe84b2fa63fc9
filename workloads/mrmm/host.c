/* workloads/mrmm/host.c: driver for mrmm (Mars MatrixMul: one map task,
 * here one thread, per output element).
 *
 * Inputs from --seed: A (m x k) and B (k x n) with entries uniform in
 * [0, 2^16), unsigned 32-bit. B is uploaded transposed (B^T, n x k
 * row-major), the layout Mars's MatrixMul gives its map tasks, so that a
 * thread's column of B is contiguous. One launch of mrmm_map with 256
 * threads per CTA over the m * n outputs (last CTA partial when m * n is not
 * a multiple of 256).
 *
 * Check: exact. The product is computed modulo 2^32 (unsigned wrap-around)
 * on both sides, so the summation order does not matter and the CPU
 * reference (the plain triple loop over A and B, not B^T) must agree
 * bit for bit. */
#include <stdlib.h>

#include "wl.h"

#define MM_BLOCK 256

static int run(struct wl *w)
{
    int m = (int)wl_pick(w, 24, 96, 512, 1024);
    int n = (int)wl_pick(w, 40, 512, 1024, 2048);
    int k = (int)wl_pick(w, 20, 64, 256, 512);
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    unsigned *a = wl_host_alloc(w, (size_t)m * k * sizeof(unsigned));
    unsigned *b = wl_host_alloc(w, (size_t)k * n * sizeof(unsigned));
    unsigned *bt = wl_host_alloc(w, (size_t)n * k * sizeof(unsigned));
    unsigned *c = wl_host_alloc(w, (size_t)m * n * sizeof(unsigned));
    unsigned *want = wl_host_alloc(w, (size_t)m * n * sizeof(unsigned));
    for (size_t i = 0; i < (size_t)m * k; i++)
        a[i] = wl_rng_below(&r, 1u << 16);
    for (size_t i = 0; i < (size_t)k * n; i++)
        b[i] = wl_rng_below(&r, 1u << 16);
    for (int x = 0; x < k; x++)
        for (int j = 0; j < n; j++)
            bt[(size_t)j * k + x] = b[(size_t)x * n + j];

    uint64_t d_a = wl_alloc_copy(w, a, (size_t)m * k * sizeof(unsigned));
    uint64_t d_bt = wl_alloc_copy(w, bt, (size_t)n * k * sizeof(unsigned));
    uint64_t d_c = wl_alloc(w, (size_t)m * n * sizeof(unsigned));
    gs_function *f = wl_kernel(w, "mrmm_map");
    unsigned grid = (unsigned)(((size_t)m * n + MM_BLOCK - 1) / MM_BLOCK);
    void *params[] = {&d_a, &d_bt, &d_c, &m, &n, &k};
    wl_launch(w, f, grid, 1, 1, MM_BLOCK, 1, 1, 0, params);
    wl_dtoh(w, c, d_c, (size_t)m * n * sizeof(unsigned));
    if (wl_ok(w)) {
        /* CPU reference: C = A B from the untransposed B. */
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                unsigned s = 0;
                for (int x = 0; x < k; x++)
                    s += a[(size_t)i * k + x] * b[(size_t)x * n + j];
                want[(size_t)i * n + j] = s;
            }
        wl_note(w, "C = A B, %d x %d x %d (m x n x k), %u CTAs of %d threads", m, n, k, grid, MM_BLOCK);
        wl_check_u32(w, "c", c, want, (size_t)m * n);
    }
    wl_free(w, d_a);
    wl_free(w, d_bt);
    wl_free(w, d_c);
    free(a);
    free(b);
    free(bt);
    free(c);
    free(want);
    return wl_finish(w);
}

WL_REGISTER(mrmm) = {
    .name = "mrmm",
    .summary = "integer matrix multiply C = A B (mod 2^32), one thread per output element walking a row of A and a column of B",
    .mirrors = "Mars MatrixMul (MapReduce), as in seed 000 ch. 4 C1 (MM)",
    .stresses = "uncoalesced per-thread row walks from global memory (no tiling), intra-warp line reuse, rows shared by neighbouring CTAs",
    .flags = WL_CACHE_SENS,
    .sizes = {"24x40x20 (m x n x k)", "96x512x64", "512x1024x256", "1024x2048x512"},
    .run = run,
};
