/* workloads/msort/host.c: driver for msort (merge sort of 32-bit keys: a
 * per-CTA bitonic tile sort, then one merge launch per doubling pass).
 *
 * Input: n keys from --seed, uniformly random 32-bit values except that one
 * key in 16 is one of the four values 0, 1, 2^31 and 0xffffffff: many equal
 * keys (the merge's lower/upper-bound tie rule) and keys equal to the tile
 * padding value (0xffffffff) are both exercised. tiny's n is not a multiple
 * of the 1024-key tile, so partial tiles and partial runs occur.
 *
 * Launches: msort_tile over ceil(n / 1024) CTAs of 256 threads, then
 * msort_merge with width 1024, 2048, ... while width < n (256 threads per
 * CTA, one thread per key), ping-ponging between two buffers.
 *
 * Check: exactly equal to the host's qsort of the same keys. */
#include <stdlib.h>

#include "wl.h"

#define MSORT_TILE 1024
#define MSORT_TILE_THREADS 256
#define MSORT_BLOCK 256

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int run(struct wl *w)
{
    int n = (int)wl_pick(w, 3000, 1 << 17, 1 << 21, 1 << 23);
    static const uint32_t special[4] = {0u, 1u, 0x80000000u, 0xffffffffu};
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    uint32_t *keys = wl_host_alloc(w, (size_t)n * sizeof(uint32_t));
    for (int i = 0; i < n; i++)
        keys[i] = wl_rng_below(&r, 16) == 0 ? special[wl_rng_below(&r, 4)] : wl_rng_u32(&r);

    uint64_t d_a = wl_alloc_copy(w, keys, (size_t)n * sizeof(uint32_t));
    uint64_t d_b = wl_alloc(w, (size_t)n * sizeof(uint32_t));
    gs_function *k_tile = wl_kernel(w, "msort_tile");
    gs_function *k_merge = wl_kernel(w, "msort_merge");

    void *p_tile[] = {&d_a, &n};
    wl_launch(w, k_tile, (unsigned)((n + MSORT_TILE - 1) / MSORT_TILE), 1, 1, MSORT_TILE_THREADS, 1, 1, 0, p_tile);
    unsigned grid = (unsigned)((n + MSORT_BLOCK - 1) / MSORT_BLOCK);
    int passes = 0;
    for (int width = MSORT_TILE; width < n && wl_ok(w); width *= 2) {
        void *p_merge[] = {&d_a, &d_b, &n, &width};
        wl_launch(w, k_merge, grid, 1, 1, MSORT_BLOCK, 1, 1, 0, p_merge);
        uint64_t t = d_a;
        d_a = d_b;
        d_b = t;
        passes++;
    }
    uint32_t *got = wl_host_alloc(w, (size_t)n * sizeof(uint32_t));
    wl_dtoh(w, got, d_a, (size_t)n * sizeof(uint32_t));

    if (wl_ok(w)) {
        wl_note(w, "%d keys, %d tiles of %d, %d merge passes", n, (n + MSORT_TILE - 1) / MSORT_TILE, MSORT_TILE,
                passes);
        qsort(keys, (size_t)n, sizeof(uint32_t), cmp_u32);
        wl_check_u32(w, "sorted", got, keys, (size_t)n);
    }
    wl_free(w, d_a);
    wl_free(w, d_b);
    free(keys);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(msort) = {
    .name = "msort",
    .summary = "merge sort of 32-bit keys: shared-memory bitonic tile sort, then one binary-search merge per pass",
    .mirrors = "Rodinia mergesort (seed 003 HIL set)",
    .stresses = "shared-memory sort with barriers, then binary searches of many SMs in the same runs (inter-core locality)",
    .flags = 0,
    .sizes = {"3000 keys", "128K keys", "2M keys", "8M keys"},
    .run = run,
};
