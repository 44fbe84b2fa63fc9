/* workloads/halo/host.c: driver for halo (integer 9-point stencil iterated
 * in one launch; tiles in shared memory, borders exchanged through global
 * memory with per-block ready flags between neighbours).
 *
 * Input: an h x w grid of integers uniform in [0, 65536) from --seed.
 * Launch: 32x8-thread blocks on a 2-D grid of tiles. Every block must be
 * resident (blocks wait for their neighbours), so the tile shape is
 * searched: the smallest tile (tw a multiple of 32, th >= 8 rows) whose
 * tile count fits occupancy x SM count for its shared-memory size; the
 * tiling therefore depends on the configuration (SM count, shared memory),
 * the result does not. Check (exact, integers): the final grid against the
 * same steps on the CPU, and every block's ready flag = steps + 1. */
#include <stdlib.h>
#include <string.h>

#include "wl.h"

#define BX 32
#define BY 8

/* One update of the whole grid, as in kernel.cu. */
static void step_ref(const uint32_t *src, uint32_t *dst, int h, int w, int k)
{
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            size_t i = (size_t)r * w + c;
            uint32_t v = src[i];
            if (r > 0 && r < h - 1 && c > 0 && c < w - 1) {
                uint32_t edge = src[i - w] + src[i + w] + src[i - 1] + src[i + 1];
                uint32_t diag = src[i - w - 1] + src[i - w + 1] + src[i + w - 1] + src[i + w + 1];
                v = (5u * v + 3u * edge + diag + (uint32_t)k) & 0xFFFFu;
            }
            dst[i] = v;
        }
}

static unsigned smem_bytes(int th, int tw)
{
    return 2u * (unsigned)(th + 2) * (unsigned)(tw + 2) * 2u; /* two 16-bit buffers with ghost ring */
}

/* Smallest tile whose grid is all resident; false when none is. */
static bool pick_tiles(struct wl *w, gs_function *f, int h, int wd, int *th_out, int *tw_out)
{
    unsigned sms = (unsigned)wl_device_attr(w, GS_ATTR_SM_COUNT);
    long best = -1;
    for (int tw = BX; tw < wd + BX; tw += BX)
        for (int th = h < BY ? h : BY; th <= h; th++) {
            unsigned per_sm = 0;
            if (gs_occupancy_ctas_per_sm(f, BX * BY, smem_bytes(th, tw), &per_sm) != 0 || per_sm == 0)
                break; /* larger th only needs more shared memory */
            long tiles = (long)((h + th - 1) / th) * ((wd + tw - 1) / tw);
            if (tiles <= (long)per_sm * sms) {
                long area = (long)th * tw;
                if (best < 0 || area < best) {
                    best = area;
                    *th_out = th;
                    *tw_out = tw;
                }
                break; /* larger th: larger area */
            }
        }
    return best > 0;
}

static int run(struct wl *w)
{
    int h = (int)wl_pick(w, 50, 360, 384, 384);
    int wd = (int)wl_pick(w, 70, 360, 416, 416);
    int steps = (int)wl_pick(w, 8, 30, 200, 1000);
    size_t n = (size_t)h * wd, bytes = n * sizeof(uint32_t);
    struct wl_rng r;
    wl_rng_init(&r, w->seed, 0);
    uint32_t *u0 = wl_host_alloc(w, bytes);
    uint32_t *ref[2] = {wl_host_alloc(w, bytes), wl_host_alloc(w, bytes)};
    uint32_t *got = wl_host_alloc(w, bytes);
    if (!wl_ok(w))
        goto out;
    for (size_t i = 0; i < n; i++)
        u0[i] = wl_rng_below(&r, 65536);
    memcpy(ref[0], u0, bytes);
    for (int k = 0; k < steps; k++)
        step_ref(ref[k & 1], ref[(k + 1) & 1], h, wd, k);

    gs_function *k = wl_kernel(w, "halo_stencil");
    int th = 0, tw = 0;
    if (wl_ok(w) && !pick_tiles(w, k, h, wd, &th, &tw))
        wl_fail(w, WL_INPUT_ERROR, "no tiling of the %dx%d grid fits the resident CTAs", h, wd);
    unsigned gx = wl_ok(w) ? (unsigned)((wd + tw - 1) / tw) : 1, gy = wl_ok(w) ? (unsigned)((h + th - 1) / th) : 1;
    size_t nblk = (size_t)gx * gy, slot = 2 * (size_t)(tw + th);
    uint64_t dinit = wl_alloc_copy(w, u0, bytes);
    uint64_t dout = wl_alloc(w, bytes);
    uint64_t dhalo = wl_alloc(w, nblk * 2 * slot * sizeof(uint32_t));
    uint64_t dready = wl_alloc(w, nblk * sizeof(uint32_t));
    if (wl_ok(w))
        wl_note(w, "%ux%u CTAs with %dx%d tiles, %d steps", gx, gy, th, tw, steps);
    void *params[] = {&dinit, &dout, &dhalo, &dready, &h, &wd, &th, &tw, &steps};
    wl_launch(w, k, gx, gy, 1, BX, BY, 1, smem_bytes(th, tw), params);
    uint32_t *ready = wl_host_alloc(w, nblk * sizeof(uint32_t));
    uint32_t *want_ready = wl_host_alloc(w, nblk * sizeof(uint32_t));
    wl_dtoh(w, got, dout, bytes);
    wl_dtoh(w, ready, dready, nblk * sizeof(uint32_t));
    if (wl_ok(w)) {
        for (size_t b = 0; b < nblk; b++)
            want_ready[b] = (uint32_t)steps + 1;
        wl_check_u32(w, "u", got, ref[steps & 1], n);
        wl_check_u32(w, "ready", ready, want_ready, nblk);
    }
    free(ready);
    free(want_ready);
out:
    free(u0);
    free(ref[0]);
    free(ref[1]);
    free(got);
    return wl_finish(w);
}

WL_REGISTER(halo) = {
    .name = "halo",
    .summary = "integer 9-point stencil steps in one launch, tiles in shared memory, borders exchanged via flags",
    .mirrors = "persistent-kernel stencil with point-to-point halo exchange (STN of the GPU coherence papers)",
    .stresses = "inter-block border handoff, per-neighbour flags (no grid barrier), fences, spinning",
    .flags = WL_SHARING,
    .sizes = {"50x70 grid, 8 steps", "360x360 grid, 30 steps", "384x416 grid, 200 steps",
              "384x416 grid, 1000 steps"},
    .run = run,
};
