/* workloads/gridbarrier/host.c: driver for gridbarrier (integer Jacobi
 * sweeps in one launch, blocks synchronised by a global-memory grid
 * barrier).
 *
 * Input: an h x w grid of integers uniform in [0, 65536) from --seed (the
 * boundary rows/columns act as fixed sources). Launch: 32x8 CTAs, at most
 * the number that can be resident at once (wl_max_resident_ctas) and at
 * most a quarter of the tiles, so every block owns a strip of several
 * tiles. Check: exact (integer arithmetic) against the same sweeps on the
 * CPU; the barrier state must end with counter 0 and generation iters-1
 * (one barrier between consecutive sweeps). */
#include <stdlib.h>
#include <string.h>

#include "wl.h"

#define TILE_W 32
#define TILE_H 8

/* One Jacobi sweep src -> dst, as in kernel.cu. */
static void sweep_ref(const int32_t *src, int32_t *dst, int h, int w)
{
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            int k = r * w + c;
            int32_t v = src[k];
            if (r > 0 && r < h - 1 && c > 0 && c < w - 1)
                v = (4 * v + src[k - w] + src[k + w] + src[k - 1] + src[k + 1]) / 8;
            dst[k] = v;
        }
}

static int run(struct wl *w)
{
    int h = (int)wl_pick(w, 45, 512, 1024, 2048);
    int wd = (int)wl_pick(w, 70, 512, 1024, 2048);
    int iters = (int)wl_pick(w, 6, 24, 60, 120);
    size_t n = (size_t)h * wd, bytes = n * sizeof(int32_t);
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    int32_t *u0 = wl_host_alloc(w, bytes);
    int32_t *ref[2] = {wl_host_alloc(w, bytes), wl_host_alloc(w, bytes)};
    int32_t *got = wl_host_alloc(w, bytes);
    for (size_t k = 0; k < n; k++)
        u0[k] = (int32_t)wl_rng_below(&r, 65536);
    memcpy(ref[0], u0, bytes);
    memcpy(ref[1], u0, bytes);
    for (int it = 0; it < iters; it++)
        sweep_ref(ref[it & 1], ref[(it + 1) & 1], h, wd);

    gs_function *k = wl_kernel(w, "jacobi_persistent");
    unsigned bx = TILE_W, by = TILE_H;
    unsigned tiles = (unsigned)((wd + TILE_W - 1) / TILE_W) * (unsigned)((h + TILE_H - 1) / TILE_H);
    unsigned grid = wl_max_resident_ctas(w, k, bx * by, 0);
    if (grid > (tiles + 3) / 4)
        grid = (tiles + 3) / 4;
    uint64_t d0 = wl_alloc_copy(w, u0, bytes);
    uint64_t d1 = wl_alloc_copy(w, u0, bytes);
    uint64_t dbar = wl_alloc(w, 2 * sizeof(uint32_t));
    if (wl_ok(w))
        wl_note(w, "%u CTAs for %u tiles, %d sweeps", grid, tiles, iters);
    void *params[] = {&d0, &d1, &h, &wd, &iters, &dbar};
    wl_launch(w, k, grid, 1, 1, bx, by, 1, 0, params);
    uint32_t bar[2];
    wl_dtoh(w, got, (iters & 1) ? d1 : d0, bytes);
    wl_dtoh(w, bar, dbar, sizeof bar);
    if (wl_ok(w)) {
        wl_check_i32(w, "u", got, ref[iters & 1], n);
        wl_check(w, bar[0] == 0 && bar[1] == (uint32_t)(iters - 1),
                 "barrier state: counter %u (want 0), generation %u (want %d)", bar[0], bar[1], iters - 1);
    }
    free(u0);
    free(ref[0]);
    free(ref[1]);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(gridbarrier) = {
    .name = "gridbarrier",
    .summary = "integer 2-D Jacobi sweeps in one launch with a global-memory grid barrier",
    .mirrors = "persistent-kernel stencil with software grid sync (Rodinia-style Jacobi/hotspot without relaunches)",
    .stresses = "inter-block synchronisation, spinning on a flag, halo reads of other blocks' writes",
    .flags = WL_SHARING,
    .sizes = {"45x70 grid, 6 sweeps", "512x512 grid, 24 sweeps", "1024x1024 grid, 60 sweeps",
              "2048x2048 grid, 120 sweeps"},
    .run = run,
};
